import CalendarModel
import JSONCoding
import XMLSupport

/// Reads the bodies a CalDAV server answers with: a multistatus from REPORT (calendar-query,
/// calendar-multiget, sync-collection) or PROPFIND (calendar homes and collections), and the
/// MKCALENDAR / extended MKCOL request bodies that describe a collection.
///
/// Each calendar collection becomes a calendar (displayname, description, colour, order,
/// time zone, components, ctag, sync token, subscription, writability); each object resource's
/// calendar data streams as that calendar's entries, with its href and etag kept as
/// `X-CALDAV-HREF` and `X-CALDAV-ETAG`. Responses are read one at a time, so memory is bounded
/// by the largest resource, not the body. Properties a server reports as 404 or 403 are
/// warnings, not failures.
public struct CalDAVReader: CalendarReader {
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let data: CalendarDataParser
    /// The body's units, read on this thread or, with `ReadOptions.concurrency` above 1, on a
    /// thread of its own (libxml2 and the response trees), while this one reads the calendar
    /// data they hold.
    private let units: Prefetcher<CalDAVScanner.Unit>
    /// The scanner's reading of calendar data, told of each response taken so that it reads
    /// ahead only while this thread is behind.
    private let readAhead: CalendarDataReadAhead?
    private var done = false

    /// The calendar being streamed.
    private struct OpenCalendar {
        var href: String
        var calendar: Calendar
        var begun = false
        /// Entries to send right after beginCalendar (the calendar-timezone definition).
        var leading: [CalendarStreamElement] = []
        /// VTIMEZONEs already sent, by TZID: each resource repeats the ones it uses.
        var zones: [String: Component] = [:]
    }

    private var open: OpenCalendar?
    private var syncToken: String?
    private var calendarsSeen = 0
    private var pending: [CalendarStreamElement] = []
    private var pendingIndex = 0

    /// A reader over `source` that reads embedded calendar data with `calendarDataFormats`
    /// (chosen by media type; the first is used for calendar-timezone).
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, calendarDataFormats: [any CalendarFormat]) {
        self.init(
            source: source, options: options, log: log, calendarDataFormats: calendarDataFormats,
            readAheadLead: CalendarDataReadAhead.defaultLead)
    }

    /// The same, the scanner reading calendar data ahead once this reader is `readAheadLead`
    /// responses behind (`CalendarDataReadAhead`; 0 reads all of it there, for tests).
    init(
        source: ByteSource, options: ReadOptions, log: DiagnosticLog, calendarDataFormats: [any CalendarFormat], readAheadLead: Int
    ) {
        self.options = options
        self.log = log
        // Both threads' parsers cut out the blocks either has read before.
        let repeated = RepeatedCalendarText()
        self.data = CalendarDataParser(formats: calendarDataFormats, options: options, log: log, repeated: repeated)
        // With a second thread, that thread also reads some of the calendar data.
        let readAhead =
            options.concurrency > 1
            ? CalendarDataReadAhead(formats: calendarDataFormats, options: options, repeated: repeated, lead: readAheadLead) : nil
        self.readAhead = readAhead
        let scanner = CalDAVScanner(
            source: source, sourceName: options.sourceName, readAhead: readAhead, parsesAhead: options.concurrency > 1)
        self.units = Prefetcher(concurrently: options.concurrency > 1) { scanner.next() }
    }

    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    public mutating func next() throws -> CalendarStreamElement? {
        while true {
            if pendingIndex < pending.count {
                let e = pending[pendingIndex]
                pendingIndex += 1
                if pendingIndex == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingIndex = 0
                }
                return e
            }
            if done { return nil }
            do {
                try step()
            } catch let e as XMLError {
                throw CalendarError(.data, file: e.file, line: e.line, location: e.path, e.message)
            }
        }
    }

    private mutating func step() throws {
        guard let unit = units.next() else {
            done = true
            return
        }
        switch unit {
        case .failure(let error):
            throw error
        case .collectionBody(let body):
            // A request body that creates a collection: its DAV:set/DAV:prop describe one calendar.
            var properties: [XMLName: XMLElement] = [:]
            for set in body.children where set.name == DAVNames.set {
                for prop in set.children where prop.name == DAVNames.prop {
                    for p in prop.children { properties[p.name] = p }
                }
            }
            try openCollection(properties: properties, href: nil)
            try close()
            done = true
        case .response(let response, let read):
            readAhead?.noteTaken()
            try handle(response, read: read)
        case .syncToken(let token):
            syncToken = token
        case .end(let line):
            if open == nil, syncToken != nil {
                // A sync-collection report with no changes: the token alone is what the server said.
                open = OpenCalendar(href: "", calendar: Calendar(kind: .calDAV, allowsContentModifications: true))
            }
            try close()
            if calendarsSeen == 0 {
                log.warning(file: options.sourceName, line: line, "the multistatus holds no calendar collection and no calendar data")
            }
            done = true
        }
    }

    // MARK: - Responses

    private mutating func handle(_ response: DAVResponse, read: CalendarDataReadAhead.Read?) throws {
        let href = response.href ?? ""
        if !response.missing.isEmpty {
            var byStatus: [(String, [String])] = []
            for m in response.missing {
                if let i = byStatus.firstIndex(where: { $0.0 == m.status }) {
                    byStatus[i].1.append(m.name.local)
                } else {
                    byStatus.append((m.status, [m.name.local]))
                }
            }
            for (status, names) in byStatus {
                log.warning(
                    file: options.sourceName, line: response.line, location: response.path,
                    "\(href): \(names.joined(separator: ", ")) not returned (\(status))")
            }
        }
        if let status = response.status, let code = DAVResponse.code(status), !(200..<300).contains(code) {
            let meaning = code == 404 ? ": absent, or removed since the last sync" : ": not readable"
            log.warning(file: options.sourceName, line: response.line, location: response.path, "\(href): \(status)\(meaning)")
            return
        }
        if response.isCalendarCollection {
            try close()
            try openCollection(properties: response.properties, href: href)
            return
        }
        guard let dataElement = response.properties[DAVNames.calendarData] else {
            // Other collections (homes, inboxes) and resources listed without their data.
            return
        }
        let parent = Self.parent(of: href)
        if open?.href != parent {
            try close()
            open = OpenCalendar(href: parent, calendar: Self.implicitCalendar(href: parent))
        }
        let etag = response.properties[DAVNames.getetag]?.trimmedText
        let parsed: [CalendarStreamElement]
        if let read {
            for diagnostic in read.diagnostics { log.report(diagnostic) }
            parsed = try read.result.get()
        } else {
            parsed = try data.parse(dataElement, resource: href)
        }
        for element in parsed {
            switch element {
            case .beginCalendar(let resourceCalendar):
                if open?.begun == false { Self.merge(resourceCalendar, into: &open!.calendar) }
            case .entry(let entry, let line):
                begin()
                if case .timeZone(let zone) = entry {
                    guard let id = Self.zoneID(zone) else {
                        pending.append(element)
                        continue
                    }
                    if let seen = open!.zones[id] {
                        if seen != zone {
                            log.warning(
                                file: options.sourceName, line: line, location: dataElement.path,
                                "\(href): VTIMEZONE \(id) differs from the one read before; the first is kept")
                        } else {
                            // The same value, kept as this resource has it: repeated VTIMEZONEs
                            // share their storage (`RepeatedCalendarText`), so the next one
                            // compares at once rather than property by property.
                            open!.zones[id] = zone
                        }
                        continue
                    }
                    open!.zones[id] = zone
                    pending.append(element)
                } else {
                    pending.append(.entry(Self.tag(entry, href: href, etag: etag), line: line))
                }
            case .endCalendar(let trailing):
                if !trailing.isEmpty {
                    if open?.begun == false {
                        open!.calendar.properties += trailing
                    } else {
                        log.warning(
                            file: options.sourceName, line: dataElement.line, location: dataElement.path,
                            "\(href): properties after the components of the resource's VCALENDAR are dropped")
                    }
                }
            }
        }
    }

    /// Opens a calendar for a collection's properties (not yet announced: the first resource's
    /// VCALENDAR may still add PRODID and the like).
    private mutating func openCollection(properties p: [XMLName: XMLElement], href: String?) throws {
        var calendar = Calendar(kind: .calDAV, allowsContentModifications: true)
        let types = p[DAVNames.resourcetype].map { Set($0.children.map(\.name)) } ?? []
        if types.contains(DAVNames.subscribed) {
            calendar.kind = .subscription
            calendar.allowsContentModifications = false
        }
        calendar.title = p[DAVNames.displayname]?.trimmedText
        calendar.description = p[DAVNames.calendarDescription]?.text
        calendar.color = p[DAVNames.calendarColor]?.trimmedText
        if let source = p[DAVNames.source] {
            calendar.subscriptionURL = source.child(DAVNames.href)?.trimmedText ?? source.trimmedText
        }
        if let element = p[DAVNames.refreshrate], !element.trimmedText.isEmpty {
            if let d = ISO8601Text.parseDuration(element.trimmedText) {
                calendar.refreshInterval = d
            } else {
                log.warning(
                    file: options.sourceName, line: element.line, location: element.path,
                    "refreshrate '\(element.trimmedText)' is not a duration; ignored")
            }
        }
        if let privileges = p[DAVNames.currentUserPrivilegeSet] {
            let granted = Set(privileges.children.filter { $0.name == DAVNames.privilege }.flatMap { $0.children.map(\.name) })
            if granted.isDisjoint(with: DAVNames.writePrivileges) { calendar.allowsContentModifications = false }
        }
        if let readOnly = p[DAVNames.readOnly]?.trimmedText.lowercased(), readOnly == "1" || readOnly == "true" {
            calendar.allowsContentModifications = false
        }
        func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            calendar.properties.append(Property(name: name, value: .unknown(type: nil, literal: value)))
        }
        add(CalDAVProperty.href, href)
        add(CalDAVProperty.ctag, p[DAVNames.getctag]?.trimmedText)
        add(CalDAVProperty.syncToken, p[DAVNames.syncToken]?.trimmedText)
        add(CalDAVProperty.order, p[DAVNames.calendarOrder]?.trimmedText)
        add(
            CalDAVProperty.components,
            p[DAVNames.supportedComponents].map { set in
                set.children.filter { $0.name == DAVNames.comp }.compactMap { $0.attribute("name") }.joined(separator: ",")
            })
        add(CalDAVProperty.shared, types.contains(DAVNames.sharedOwner) ? "owner" : types.contains(DAVNames.shared) ? "sharee" : nil)
        var opened = OpenCalendar(href: href ?? "", calendar: calendar)
        if let zoneElement = p[DAVNames.calendarTimezone] {
            for element in try data.parse(zoneElement, resource: href ?? "calendar-timezone") {
                guard case .entry(.timeZone(let zone), let line) = element, let id = Self.zoneID(zone), opened.zones[id] == nil else {
                    continue
                }
                if opened.calendar.defaultTimeZone == nil { opened.calendar.defaultTimeZone = id }
                opened.zones[id] = zone
                opened.leading.append(.entry(.timeZone(zone), line: line))
            }
        }
        open = opened
    }

    /// Announces the open calendar if it is not yet.
    private mutating func begin() {
        guard var o = open, !o.begun else { return }
        o.begun = true
        pending.append(.beginCalendar(o.calendar))
        pending += o.leading
        o.leading = []
        open = o
        calendarsSeen += 1
    }

    /// Closes the open calendar; the multistatus's sync token goes with the last one.
    private mutating func close() throws {
        guard open != nil else { return }
        begin()
        var trailing: [Property] = []
        if let token = syncToken {
            trailing.append(Property(name: CalDAVProperty.syncToken, value: .unknown(type: nil, literal: token)))
            syncToken = nil
        }
        pending.append(.endCalendar(trailingProperties: trailing))
        open = nil
    }

    // MARK: - Helpers

    /// The collection an object resource is in: its href up to the last "/".
    static func parent(of href: String) -> String {
        // An ASCII href (every one a server percent-encodes) is searched by byte: searching
        // Characters from the end cost 20k instructions per href.
        let utf8 = href.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
            return String(Substring(utf8[...slash]))
        }
        guard let slash = href.lastIndex(of: "/") else { return "" }
        return String(href[...slash])
    }

    /// The calendar for resources whose collection the body does not describe (a REPORT).
    static func implicitCalendar(href: String) -> Calendar {
        var calendar = Calendar(kind: .calDAV, allowsContentModifications: true)
        if !href.isEmpty { calendar.properties = [Property(name: CalDAVProperty.href, value: .unknown(type: nil, literal: href))] }
        return calendar
    }

    /// What the first resource's VCALENDAR says that the collection did not: PRODID, VERSION,
    /// CALSCALE, METHOD, a name or colour when the collection has none, other properties.
    static func merge(_ from: Calendar, into calendar: inout Calendar) {
        if calendar.productID == nil { calendar.productID = from.productID }
        if calendar.version == nil { calendar.version = from.version }
        if calendar.scale == nil { calendar.scale = from.scale }
        if calendar.method == nil { calendar.method = from.method }
        if calendar.title == nil { calendar.title = from.title }
        if calendar.description == nil { calendar.description = from.description }
        if calendar.color == nil { calendar.color = from.color }
        if calendar.defaultTimeZone == nil { calendar.defaultTimeZone = from.defaultTimeZone }
        if calendar.subscriptionURL == nil { calendar.subscriptionURL = from.subscriptionURL }
        if calendar.refreshInterval == nil { calendar.refreshInterval = from.refreshInterval }
        calendar.properties += from.properties.filter { !CalDAVProperty.isCalDAV($0.name) }
    }

    static func zoneID(_ zone: Component) -> String? {
        guard case .text(let t)? = zone.property("TZID")?.value, let id = t.first else {
            if case .unknown(_, let literal)? = zone.property("TZID")?.value { return literal }
            return nil
        }
        return id
    }

    /// The entry with its resource's href and etag as properties (replacing any it carried).
    static func tag(_ entry: CalendarEntry, href: String, etag: String?) -> CalendarEntry {
        func tagged(_ properties: [Property]) -> [Property] {
            var out = properties.filter { $0.name != CalDAVProperty.href && $0.name != CalDAVProperty.etag }
            out.append(Property(name: CalDAVProperty.href, value: .unknown(type: nil, literal: href)))
            if let etag, !etag.isEmpty { out.append(Property(name: CalDAVProperty.etag, value: .unknown(type: nil, literal: etag))) }
            return out
        }
        switch entry {
        case .event(var e):
            e.item.properties = tagged(e.item.properties)
            return .event(e)
        case .reminder(var r):
            r.item.properties = tagged(r.item.properties)
            return .reminder(r)
        case .other(var c):
            c.properties = tagged(c.properties)
            return .other(c)
        case .timeZone:
            return entry
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
