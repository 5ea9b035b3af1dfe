import CalDAVClient
import CalDAVFormat
import CalendarModel
import Foundation

/// A push: every item of the inputs into a CalDAV server, one resource per UID (overrides in
/// the same resource), idempotent and resumable.
///
/// Before a calendar's first write, the collection's UID index is read (PROPFIND for entity
/// tags, calendar-multiget in batches), so an item the server already holds under any name
/// is compared, not created again: equal items are left alone, others are decided by
/// `--on-conflict` and written with `If-Match`; new ones with `If-None-Match: *`. A 412 or 409
/// re-reads the server's copy and decides again. Components of one UID are sent together: a
/// first pass counts them per UID, so a group goes out as soon as its last component is read
/// and memory holds only incomplete groups, not the archive.
final class CalDAVPush {
    private let converter: Converter
    private let request: ConversionRequest
    private let options: CalDAVOptions
    private let log: DiagnosticLog
    private let target: URL
    private let client: CalDAVClient
    private var report: ConversionReport
    private var summary = ConversionSummary()
    private let started = Date()
    private var journal: CalDAVJournal?

    private var discovery = CalDAVDiscovery()
    /// Calendars on the server by display name (existing and created by this run).
    private var serverCalendars: [CalDAVCollection] = []
    private var open: OpenCalendar?
    /// Components per UID over the file inputs (nil: group consecutive components instead).
    private var componentCounts: [String: Int]?
    /// What was pushed per collection, for `--verify`: UID → fingerprint.
    private var pushed: [String: [String: String]] = [:]
    private var collectionsByPath: [String: CalDAVCollection] = [:]

    private final class OpenCalendar {
        var header: CalendarModel.Calendar
        var title: String
        var skipReason: String?
        var zones: [String: Component] = [:]
        var groups: [String: CalDAVItemGroup] = [:]
        var seen: [String: Int] = [:]
        var lastUID: String?
        var ready: [CalDAVItemGroup] = []
        var collection: CalDAVCollection?
        var index: [String: ServerCopy]?
        var reportIndex: Int?

        init(header: CalendarModel.Calendar, title: String) {
            self.header = header
            self.title = title
        }
    }

    /// The server's version of one UID.
    struct ServerCopy {
        var url: URL
        var etag: String?
        var fingerprint: String
        var rank: (sequence: Int, lastModified: Int?)
    }

    init(converter: Converter, request: ConversionRequest, log: DiagnosticLog) throws {
        self.converter = converter
        self.request = request
        self.options = request.calDAV
        self.log = log
        target = try CalDAVOptions.url(request.output ?? "")
        client = options.makeClient(for: target, log: log)
        report = ConversionReport(dryRun: request.dryRun, outputFormat: "caldav-server")
        report.calDAV = ConversionReport.Server(direction: "push", servers: [target.redacted])
        report.run = ConversionReport.Run(arguments: request.commandLine, start: started)
    }

    /// The report as far as the run got.
    var currentReport: ConversionReport {
        var r = report
        let counts = client.requestCounts
        r.calDAV?.requests = counts.byMethod
        r.calDAV?.retries = counts.retries
        r.run?.durationSeconds = Date().timeIntervalSince(started)
        r.collect(log.diagnostics, suppressed: log.suppressed)
        return r
    }

    func run() throws -> ConversionSummary {
        do {
            try runThrowing()
        } catch let error as CalDAVError {
            throw error.calendarError
        }
        summary.report = currentReport
        summary.warnings = log.warningCount
        return summary
    }

    private func runThrowing() throws {
        let expansion = try BatchInputExpander(registry: converter.registry, explicitFormat: request.inputFormat).expand(request.inputs)
        guard !expansion.inputs.isEmpty else {
            throw CalendarError(.inputMissing, file: request.inputs.joined(separator: " "), "no calendar files found")
        }
        report.skippedFiles = expansion.skippedFiles
        discovery = try client.discover(target)
        serverCalendars = discovery.calendars
        if discovery.collection == nil && discovery.homes.isEmpty {
            throw CalendarError(.usage, file: target.redacted, "neither a calendar nor a calendar home")
        }
        journal = try CalDAVJournal(
            path: CalDAVJournal.defaultPath(options: options, target: request.output ?? "", inputs: request.inputs),
            writable: !request.dryRun)
        componentCounts = try countComponents(expansion.inputs)
        report.inputs = expansion.inputs.map { ConversionReport.Input(file: $0.name, status: "converted", error: nil) }
        for input in expansion.inputs {
            var stages = try converter.makeStages(request, outputFormat: "ics", log: log)
            for i in stages.indices { stages[i].beginInput(name: input.name) }
            var reader = try open(input)
            while let element = try reader.next() {
                try converter.pass(element, through: &stages, from: 0) { try self.handle($0, input: input) }
            }
            for index in stages.indices {
                var held: [CalendarStreamElement] = []
                try stages[index].finish { held.append($0) }
                for out in held { try converter.pass(out, through: &stages, from: index + 1) { try self.handle($0, input: input) } }
            }
            if open != nil { try handle(.endCalendar(trailingProperties: []), input: input) }
        }
        if options.verify && !request.dryRun { try verify() }
        let failed = report.calDAV?.calendars.reduce(0) { $0 + $1.failed } ?? 0
        if failed == 0 && !request.dryRun { journal?.finish() }
        if failed > 0 {
            throw CalendarError(.data, file: target.redacted, "\(failed) item(s) could not be written; see the messages above")
        }
    }

    private func open(_ input: BatchInput) throws -> any CalendarReader {
        let readOptions = ReadOptions(
            sourceName: input.name, strict: request.strict, formatSettings: request.formatSettings,
            vocabularyOverrides: request.vocabularyOverrides)
        switch input.kind {
        case .file(let path):
            return try converter.makeReader(name: input.name, source: try FileByteSource(path: path), request: request, log: log)
        case .standardInput:
            return try converter.makeReader(name: "-", source: try FileByteSource(path: "-"), request: request, log: log)
        case .collection(_, let items, let title, let color):
            return CollectionReader(items: items, title: title, color: color, converter: converter, request: request, log: log)
        case .remote(let location):
            return try CalDAVPullReader(location: location, options: options, readOptions: readOptions, log: log)
        }
    }

    /// Components per UID in the file inputs; nil when an input can be read only once
    /// (standard input, a server), where a resource's components arrive together anyway.
    private func countComponents(_ inputs: [BatchInput]) throws -> [String: Int]? {
        var counts: [String: Int] = [:]
        for input in inputs {
            switch input.kind {
            case .standardInput, .remote: return nil
            case .file, .collection: break
            }
            var reader = try open(input)
            while let element = try reader.next() {
                if case .entry(let entry, _) = element, let uid = Self.uid(entry) { counts[uid, default: 0] += 1 }
            }
        }
        return counts
    }

    /// A UID for an event or to-do that has none: a hash of its content (DTSTAMP aside), so
    /// the same item gets the same UID on every run. Nil for other components.
    static func contentUID(_ entry: CalendarEntry) -> String? {
        guard entry.item != nil, let fingerprint = try? ICSText.fingerprint([entry]) else { return nil }
        return "calport-\(fingerprint)@calport.invalid"
    }

    static func uid(_ entry: CalendarEntry) -> String? {
        if let uid = entry.item?.uid { return uid }
        if case .other(let c) = entry, case .text(let t)? = c.property("UID")?.value { return t.first }
        return nil
    }

    // MARK: - The stream

    private func handle(_ element: CalendarStreamElement, input: BatchInput) throws {
        summary.count(element)
        switch element {
        case .beginCalendar(let calendar):
            if open != nil { try closeCalendar() }
            let title = options.calendarName ?? calendar.title ?? input.baseName
            let o = OpenCalendar(header: calendar, title: title)
            o.skipReason = skipReason(calendar)
            open = o
            if o.skipReason == nil {
                // The report's calendars and totals: what was read for the server, under the title pushed to.
                var named = calendar
                named.title = title
                report.count(.beginCalendar(named), output: target.redacted)
            }
        case .entry(var entry, let line):
            if open == nil { try handle(.beginCalendar(CalendarModel.Calendar()), input: input) }
            guard let o = open else { return }
            if o.skipReason == nil { report.count(element, output: target.redacted) }
            if case .timeZone(let zone) = entry {
                if let id = CalDAVPullReader.zoneID(zone) { o.zones[id] = zone }
                return
            }
            let place = "\(input.name):\(line)"
            if Self.uid(entry) == nil, let derived = Self.contentUID(entry) {
                // A resource is named by its UID (RFC 4791 §4.1); an EWS CreateItem request, for
                // one, has none. One made from the content names the item the same on every run.
                entry.modifyItem { $0.uid = derived }
                log.warning(
                    file: input.name, line: line,
                    "the item has no UID; it is pushed as UID \(derived), made from its content (a rerun finds it; an edited copy would be a new item)"
                )
            }
            guard let uid = Self.uid(entry) else {
                try record(
                    o, .failed, uid: "(none)", href: nil, place: place, reason: "the item has no UID, so it cannot be named on the server")
                return
            }
            if componentCounts == nil, let last = o.lastUID, last != uid, let group = o.groups.removeValue(forKey: last) {
                o.ready.append(group)
            }
            o.lastUID = uid
            if o.groups[uid] == nil {
                o.groups[uid] = CalDAVItemGroup(uid: uid, entries: [entry], place: place)
            } else {
                o.groups[uid]!.entries.append(entry)
            }
            o.seen[uid, default: 0] += 1
            if let expected = componentCounts?[uid], o.seen[uid]! >= expected, let group = o.groups.removeValue(forKey: uid) {
                o.seen[uid] = nil
                o.ready.append(group)
            }
            if o.ready.count >= max(8, options.connections * 8) { try flush(o) }
        case .endCalendar:
            try closeCalendar()
        }
    }

    private func closeCalendar() throws {
        guard let o = open else { return }
        // Groups whose count was not reached (a stage dropped or added components) go now.
        for uid in o.groups.keys.sorted() { o.ready.append(o.groups[uid]!) }
        o.groups = [:]
        try flush(o)
        open = nil
    }

    /// Why a calendar is not pushed: birthday and subscription calendars go to a server only
    /// as the user asked (`--birthdays materialize`, `--force`), never as a writable copy by accident.
    private func skipReason(_ calendar: CalendarModel.Calendar) -> String? {
        guard !request.force else { return nil }
        switch calendar.kind {
        case .birthday:
            return "a birthday calendar: pass --birthdays materialize to push plain yearly events, or --force to push it as it is"
        case .subscription:
            return "a subscription calendar (its events come from a feed): pass --force to push a writable copy"
        default:
            return nil
        }
    }

    // MARK: - Writing

    private func flush(_ o: OpenCalendar) throws {
        guard !o.ready.isEmpty else { return }
        let groups = o.ready
        o.ready = []
        if let reason = o.skipReason {
            if o.reportIndex == nil { o.reportIndex = reportCalendar(url: "(not pushed)", title: o.title) }
            for g in groups { try record(o, .skipped, uid: g.uid, href: nil, place: g.place, reason: reason) }
            return
        }
        try prepare(o)
        let work = WorkList(groups)
        let workers = min(max(1, options.connections), groups.count)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<workers {
            let thread = Thread {
                while let group = work.take() {
                    do {
                        work.done(group, try self.push(group, into: o))
                    } catch {
                        work.fail(error)
                    }
                }
                finished.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<workers { finished.wait() }
        let (outcomes, fatal) = work.results
        for (group, outcome) in outcomes {
            try record(
                o, outcome.kind, uid: group.uid, href: outcome.href, place: group.place, reason: outcome.reason, winner: outcome.winner)
        }
        if let fatal { throw fatal }
    }

    /// Finds or creates the calendar's collection and reads its UID index (once).
    private func prepare(_ o: OpenCalendar) throws {
        if o.collection == nil {
            o.collection = try collection(for: o)
            o.reportIndex = reportCalendar(url: o.collection!.url.redacted, title: o.collection!.displayName ?? o.title)
        }
        if o.index == nil {
            o.index = try uidIndex(o.collection!)
        }
    }

    private func collection(for o: OpenCalendar) throws -> CalDAVCollection {
        if let fixed = discovery.collection {
            if fixed.isReadOnly && !request.force {
                throw CalendarError(
                    .cannotCreateOutput, file: fixed.url.redacted, "the calendar is read-only for this user (--force to try anyway)")
            }
            return fixed
        }
        if let existing = serverCalendars.first(where: { $0.displayName == o.title }) {
            if existing.isReadOnly && !request.force {
                throw CalendarError(.cannotCreateOutput, file: existing.url.redacted, "calendar '\(o.title)' is read-only for this user")
            }
            return existing
        }
        guard let home = discovery.homes.first else {
            throw CalendarError(.usage, file: target.redacted, "no calendar home to create '\(o.title)' in")
        }
        let base = FileNames.slug(o.title, fallback: "calendar")
        var name = base
        var n = 1
        while serverCalendars.contains(where: { $0.url.lastPathComponent == name }) {
            n += 1
            name = "\(base)-\(n)"
        }
        let url = home.appendingPathComponent(name, isDirectory: true)
        var created = CalDAVCollection(url: url)
        created.displayName = o.title
        created.color = o.header.color
        created.description = o.header.description
        if !request.dryRun {
            var zoneText: String?
            if let id = o.header.defaultTimeZone, let zone = o.zones[id] {
                // calendar-timezone is a whole VCALENDAR holding the one VTIMEZONE (RFC 4791 §5.2.2).
                var header = CalendarModel.Calendar()
                header.productID = "-//calport//CalDAV push//EN"
                header.version = "2.0"
                zoneText = String(decoding: try ICSText.serialize([.timeZone(zone)], header: header), as: UTF8.self)
            }
            try client.makeCalendar(
                at: url, displayName: o.title, color: o.header.color, description: o.header.description, timeZone: zoneText)
        } else {
            summary.plan.append("create calendar '\(o.title)' at \(url.redacted)")
        }
        serverCalendars.append(created)
        return created
    }

    /// UID → the server's copy, for every resource of the collection.
    private func uidIndex(_ collection: CalDAVCollection) throws -> [String: ServerCopy] {
        guard !(request.dryRun && !discovery.calendars.contains(where: { $0.url == collection.url })) else { return [:] }
        let listed = try client.resources(in: collection.url)
        var index: [String: ServerCopy] = [:]
        let batches = stride(from: 0, to: listed.count, by: options.multigetBatch).map {
            Array(listed[$0..<min($0 + options.multigetBatch, listed.count)].map(\.url))
        }
        var pending: [Fetch] = []
        var b = 0
        while b < batches.count || !pending.isEmpty {
            while pending.count < max(1, options.connections), b < batches.count {
                let client = self.client, urls = batches[b], url = collection.url
                pending.append(Fetch { try Self.encode(client.multiget(collection: url, urls)) })
                b += 1
            }
            for resource in Self.decode(try pending.removeFirst().value()) {
                if let copy = Self.serverCopy(resource), let uid = copy.uid { index[uid] = copy.copy }
            }
        }
        return index
    }

    // Fetch carries bytes; a batch of resources travels as JSON between threads.
    private static func encode(_ resources: [CalDAVResource]) throws -> [UInt8] {
        let rows = resources.map { [$0.url.absoluteString, $0.etag ?? "", $0.calendarData ?? ""] }
        return Array(try JSONEncoder().encode(rows))
    }

    private static func decode(_ bytes: [UInt8]) -> [CalDAVResource] {
        guard let rows = try? JSONDecoder().decode([[String]].self, from: Data(bytes)) else { return [] }
        return rows.compactMap { row in
            guard row.count == 3, let url = URL(string: row[0]) else { return nil }
            return CalDAVResource(url: url, etag: row[1].isEmpty ? nil : row[1], calendarData: row[2])
        }
    }

    static func serverCopy(_ resource: CalDAVResource) -> (uid: String?, copy: ServerCopy)? {
        guard let text = resource.calendarData, let entries = try? ICSText.read(text, name: resource.url.redacted) else { return nil }
        let items = entries.filter { if case .timeZone = $0 { return false } else { return true } }
        guard let uid = items.lazy.compactMap(uid).first else { return nil }
        let group = CalDAVItemGroup(uid: uid, entries: items, place: resource.url.redacted)
        return (uid, ServerCopy(url: resource.url, etag: resource.etag, fingerprint: group.fingerprint, rank: group.rank))
    }

    /// Groups handed to the workers of `-j N`, and what became of them.
    private final class WorkList: @unchecked Sendable {
        private let lock = NSLock()
        private let groups: [CalDAVItemGroup]
        private var next = 0
        private var outcomes: [(CalDAVItemGroup, Outcome)] = []
        private var fatal: Error?

        init(_ groups: [CalDAVItemGroup]) { self.groups = groups }

        /// The next group, or nil when all are taken or a worker failed for good.
        func take() -> CalDAVItemGroup? {
            lock.lock()
            defer { lock.unlock() }
            guard fatal == nil, next < groups.count else { return nil }
            next += 1
            return groups[next - 1]
        }

        func done(_ group: CalDAVItemGroup, _ outcome: Outcome) {
            lock.lock()
            outcomes.append((group, outcome))
            lock.unlock()
        }

        func fail(_ error: Error) {
            lock.lock()
            if fatal == nil { fatal = error }
            lock.unlock()
        }

        var results: ([(CalDAVItemGroup, Outcome)], Error?) {
            lock.lock()
            defer { lock.unlock() }
            return (outcomes, fatal)
        }
    }

    struct Outcome {
        enum Kind: String { case created, updated, unchanged, skipped, failed }
        /// Which side's version a decided conflict leaves on the server.
        enum Winner: String { case server, local }
        var kind: Kind
        var href: String?
        var reason: String
        var winner: Winner?
    }

    /// Writes one group: created, updated, left alone or refused, deciding again on 412/409.
    private func push(_ original: CalDAVItemGroup, into o: OpenCalendar) throws -> Outcome {
        var group = original
        group.prepareForPush(sendInvitations: options.sendInvitations)
        if let problem = group.dropIdenticalCopies() { return Outcome(kind: .failed, href: nil, reason: problem) }
        let fingerprint = group.fingerprint
        let collection = o.collection!
        let key = collection.url.path
        defer { notePushed(collection: key, uid: group.uid, fingerprint: fingerprint) }
        if journal?.contains(collection: key, uid: group.uid, fingerprint: fingerprint) == true {
            return Outcome(kind: .unchanged, href: nil, reason: "pushed by an earlier run (journal)")
        }
        let data = try group.calendarData(header: o.header, zones: o.zones)
        for _ in 0..<4 {
            if let existing = serverCopy(o, group.uid) {
                let href = existing.url.path
                if existing.fingerprint == fingerprint {
                    journal?.record(collection: key, uid: group.uid, fingerprint: fingerprint)
                    return Outcome(kind: .unchanged, href: href, reason: "equal to the server's copy")
                }
                let ours = group.rank, theirs = existing.rank
                switch options.onConflict {
                case .skip:
                    return Outcome(
                        kind: .skipped, href: href, reason: "the server's copy differs; --on-conflict skip keeps it", winner: .server)
                case .newer:
                    let oursNewer =
                        ours.sequence != theirs.sequence
                        ? ours.sequence > theirs.sequence : (ours.lastModified ?? Int.min) > (theirs.lastModified ?? Int.min)
                    if !oursNewer {
                        let why =
                            ours.sequence < theirs.sequence
                            ? "the server's copy is newer (SEQUENCE \(theirs.sequence) > \(ours.sequence))"
                            : ours.sequence == theirs.sequence && ours.lastModified == theirs.lastModified
                                ? "as new as the server's copy (same SEQUENCE and LAST-MODIFIED) but different; the server's is kept"
                                : "the server's copy is newer (same SEQUENCE \(ours.sequence), later LAST-MODIFIED)"
                        return Outcome(kind: .skipped, href: href, reason: why, winner: .server)
                    }
                case .overwrite:
                    break
                }
                let reason =
                    options.onConflict == .overwrite
                    ? "replaced (--on-conflict overwrite)"
                    : "newer than the server's copy (SEQUENCE \(ours.sequence) vs \(theirs.sequence))"
                if request.dryRun { return Outcome(kind: .updated, href: href, reason: reason, winner: .local) }
                switch try put(existing.url, data, ifMatch: existing.etag ?? "*") {
                case .failure(let refusal):
                    return Outcome(kind: .failed, href: href, reason: refusal.message)
                case .success(.stored(let etag, _)):
                    try learn(o, group.uid, url: existing.url, etag: etag, fingerprint: fingerprint, rank: ours)
                    return Outcome(kind: .updated, href: href, reason: reason, winner: .local)
                case .success(.preconditionFailed), .success(.conflict):
                    // Changed on the server since it was read: read it again and decide again.
                    try reread(o, group.uid, url: existing.url)
                }
            } else {
                let url = collection.url.appendingPathComponent(Self.resourceName(group.uid))
                if request.dryRun { return Outcome(kind: .created, href: url.path, reason: "not on the server") }
                switch try put(url, data, ifMatch: nil) {
                case .failure(let refusal):
                    return Outcome(kind: .failed, href: url.path, reason: refusal.message)
                case .success(.stored(let etag, _)):
                    try learn(o, group.uid, url: url, etag: etag, fingerprint: fingerprint, rank: group.rank)
                    return Outcome(kind: .created, href: url.path, reason: "not on the server")
                case .success(.preconditionFailed(let uidConflict)) where !uidConflict:
                    // The name is taken (an earlier attempt that timed out after storing, or a racer).
                    try reread(o, group.uid, url: url)
                case .success(.preconditionFailed), .success(.conflict):
                    // The UID is stored under another name (Radicale 409, Xandikos 412 no-uid-conflict).
                    try findByUID(o, group.uid, collection: collection)
                }
            }
        }
        return Outcome(kind: .failed, href: nil, reason: "the server's copy kept changing while it was written (4 attempts)")
    }

    /// A conditional PUT whose refusal (a 4xx other than 412 and 409, which the caller decides
    /// again on) fails this item only: the server judged this resource (Radicale answers 400 to
    /// a component it cannot store), so the other items still go, and the run ends with exit 65.
    /// Authentication, retries run out and unreachable servers still stop the run.
    private func put(_ url: URL, _ data: [UInt8], ifMatch: String?) throws -> Result<CalDAVPutOutcome, CalDAVError> {
        do {
            return .success(try client.put(url, calendarData: data, ifMatch: ifMatch))
        } catch let error as CalDAVError where error.kind == .protocolError && (400..<500).contains(error.status ?? 0) {
            return .failure(error)
        }
    }

    private let indexLock = NSLock()

    private func serverCopy(_ o: OpenCalendar, _ uid: String) -> ServerCopy? {
        indexLock.lock()
        defer { indexLock.unlock() }
        return o.index?[uid]
    }

    private func setServerCopy(_ o: OpenCalendar, _ uid: String, _ copy: ServerCopy?) {
        indexLock.lock()
        o.index?[uid] = copy
        indexLock.unlock()
    }

    /// Notes a stored version; a server that sent no ETag is asked for it (If-Match needs it).
    private func learn(
        _ o: OpenCalendar, _ uid: String, url: URL, etag: String?, fingerprint: String, rank: (sequence: Int, lastModified: Int?)
    ) throws {
        var etag = etag
        if etag == nil { etag = try client.get(url)?.etag }
        setServerCopy(o, uid, ServerCopy(url: url, etag: etag, fingerprint: fingerprint, rank: rank))
        journal?.record(collection: o.collection!.url.path, uid: uid, fingerprint: fingerprint)
    }

    private func reread(_ o: OpenCalendar, _ uid: String, url: URL) throws {
        guard let resource = try client.get(url), let copy = Self.serverCopy(resource) else {
            setServerCopy(o, uid, nil)
            return
        }
        if copy.uid == uid {
            setServerCopy(o, uid, copy.copy)
        } else {
            // Another UID owns the name this one would get: look for ours by UID instead.
            try findByUID(o, uid, collection: o.collection!)
        }
    }

    private func findByUID(_ o: OpenCalendar, _ uid: String, collection: CalDAVCollection) throws {
        let found = try client.calendarQuery(collection: collection.url, uid: uid).compactMap(Self.serverCopy).first { $0.uid == uid }
        guard let found else {
            throw CalDAVError(
                .protocolError, url: collection.url.redacted, "the server refuses UID \(uid) as already stored, but no resource holds it")
        }
        setServerCopy(o, uid, found.copy)
    }

    /// A resource name from the UID: the UID itself when it is safe in a URL and a file name,
    /// else its hash (same UID, same name, so reruns find it).
    static func resourceName(_ uid: String) -> String {
        let safe = uid.unicodeScalars.allSatisfy {
            ($0.isASCII && (CharacterSet.alphanumerics.contains($0))) || "-_.@".unicodeScalars.contains($0)
        }
        if safe && !uid.isEmpty && uid.utf8.count <= 100 && !uid.hasPrefix(".") { return uid + ".ics" }
        return "calport-" + ICSText.stableHash(uid) + ".ics"
    }

    private let pushedLock = NSLock()

    private func notePushed(collection: String, uid: String, fingerprint: String) {
        guard options.verify else { return }
        pushedLock.lock()
        pushed[collection, default: [:]][uid] = fingerprint
        pushedLock.unlock()
    }

    // MARK: - Report

    private func reportCalendar(url: String, title: String) -> Int {
        if let i = report.calDAV!.calendars.firstIndex(where: { $0.url == url && $0.title == title }) { return i }
        report.calDAV!.calendars.append(ConversionReport.ServerCalendar(url: url, title: title))
        return report.calDAV!.calendars.count - 1
    }

    private func record(
        _ o: OpenCalendar, _ kind: Outcome.Kind, uid: String, href: String?, place: String, reason: String, winner: Outcome.Winner? = nil
    ) throws {
        if o.reportIndex == nil { o.reportIndex = reportCalendar(url: o.collection?.url.redacted ?? "(not pushed)", title: o.title) }
        let i = o.reportIndex!
        var c = report.calDAV!.calendars[i]
        let outcome = request.dryRun && (kind == .created || kind == .updated) ? "would-\(kind.rawValue.dropLast())" : kind.rawValue
        switch kind {
        case .created: c.created += 1
        case .updated: c.updated += 1
        case .unchanged: c.unchanged += 1
        case .skipped: c.skipped += 1
        case .failed: c.failed += 1
        }
        switch winner {
        case .server?: c.serverWon += 1
        case .local?: c.localWon += 1
        case nil: break
        }
        if kind != .unchanged && c.examples.filter({ $0.outcome == outcome }).count < 20 {
            c.examples.append(
                ConversionReport.ServerItem(outcome: outcome, uid: uid, href: href, place: place, winner: winner?.rawValue, reason: reason))
        }
        report.calDAV!.calendars[i] = c
        if request.dryRun && kind != .unchanged {
            summary.plan.append("\(outcome) \(uid)\(href.map { " → \($0)" } ?? ""): \(reason)")
        } else if kind == .skipped {
            log.warning(file: place, "UID \(uid) skipped: \(reason)")
        } else if kind == .failed {
            log.report(Diagnostic(severity: .error, file: place, message: "UID \(uid) not written: \(reason)"))
        }
    }

    // MARK: - Verify

    /// Reads every pushed calendar back and compares it item by item with what was pushed.
    private func verify() throws {
        var differences = 0
        for (path, expected) in pushed.sorted(by: { $0.key < $1.key }) {
            guard let collectionURL = URL(string: path, relativeTo: target)?.absoluteURL else { continue }
            var found: [String: String] = [:]
            let listed = try client.resources(in: collectionURL)
            for start in stride(from: 0, to: listed.count, by: options.multigetBatch) {
                let urls = listed[start..<min(start + options.multigetBatch, listed.count)].map(\.url)
                for resource in try client.multiget(collection: collectionURL, urls) {
                    if let copy = Self.serverCopy(resource), let uid = copy.uid {
                        if found[uid] != nil {
                            differences += 1
                            log.report(
                                Diagnostic(
                                    severity: .error, file: collectionURL.redacted, message: "verify: UID \(uid) is on the server twice"))
                        }
                        found[uid] = copy.copy.fingerprint
                    }
                }
            }
            for (uid, fingerprint) in expected.sorted(by: { $0.key < $1.key }) {
                guard let got = found[uid] else {
                    differences += 1
                    log.report(
                        Diagnostic(severity: .error, file: collectionURL.redacted, message: "verify: UID \(uid) is not on the server"))
                    continue
                }
                if got != fingerprint {
                    // A skipped conflict leaves the server's version, as asked; anything else is a difference.
                    let skipped = report.calDAV!.calendars.contains { $0.examples.contains { $0.uid == uid && $0.outcome == "skipped" } }
                    if skipped { continue }
                    differences += 1
                    log.report(
                        Diagnostic(
                            severity: .error, file: collectionURL.redacted, message: "verify: UID \(uid) differs from what was pushed"))
                }
            }
        }
        if differences > 0 {
            throw CalendarError(.data, file: target.redacted, "verify: \(differences) item(s) differ between the inputs and the server")
        }
    }
}
