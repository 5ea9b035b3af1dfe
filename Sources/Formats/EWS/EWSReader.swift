import CalendarModel
import ExchangeData
import TimeZones
import XMLSupport

/// Reads what Exchange Web Services sends and accepts: SOAP envelopes of GetItem, FindItem
/// (pages) and SyncFolderItems responses, CreateItem and UpdateItem requests, and bare
/// `t:Items` / `t:CalendarItem` documents. Every `t:CalendarItem` becomes an event (with its
/// series, overrides and EXDATEs); the document streams, each item read whole, so memory is
/// bounded by one item (and the moved occurrences still waiting for their own items).
///
/// A SOAP fault, or a response whose messages all have `ResponseClass="Error"`, is a data error
/// naming Exchange's ResponseCode and the element; when only some messages failed the rest is
/// converted and each failure is a warning. SyncFolderItems Delete changes are reported as
/// deletions (warnings naming the ItemId).
public struct EWSReader: CalendarReader {
    private let options: ReadOptions
    private let log: DiagnosticLog
    /// The document's units, read on this thread or, with `ReadOptions.concurrency` above 1,
    /// on a thread of its own (libxml2 and the item trees are half the work; the mapping, the
    /// stages and the writer run on the thread that asks).
    private let units: Prefetcher<EWSScanner.Unit>
    private var mapper: EWSItemMapper
    private var begun = false
    private var finished = false
    private var succeeded = 0
    private var failures: [(code: String, text: String, line: Int, path: String)] = []
    /// Overrides made from a master's ModifiedOccurrences, sent at the end unless the
    /// occurrence's own item came (keyed by UID and RECURRENCE-ID).
    /// One is let go as soon as its own item comes (nil here), so that what is held is the
    /// occurrences still waiting, not every one the document moved.
    private var movedOccurrences: [Event?] = []
    /// Where the waiting ones are, by key.
    private var waitingMoved: [String: [Int]] = [:]
    private var exceptionsSeen: Set<String> = []
    private var pending: [CalendarStreamElement] = []
    private var pendingIndex = 0
    /// With `ReadOptions.concurrency` above 1, the items' mapping runs on worker threads too.
    private var workers: MappingWorkers?

    /// A reader over `source` whose participant words are `vocabulary` (EWS's, with overrides).
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary = ExchangeVocabulary.ews) {
        self.options = options
        self.log = log
        let scanner = EWSScanner(source: source, sourceName: options.sourceName, parsesAhead: options.concurrency > 1)
        self.units = Prefetcher(concurrently: options.concurrency > 1) { scanner.next() }
        self.mapper = EWSItemMapper(zones: EWSTimeZones(), vocabulary: vocabulary, sourceName: options.sourceName, log: log)
        if options.concurrency > 1 { workers = MappingWorkers(mapper: mapper, threads: options.concurrency - 1) }
    }

    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    public mutating func next() throws -> CalendarStreamElement? {
        while true {
            if pendingIndex < pending.count {
                let element = pending[pendingIndex]
                pendingIndex += 1
                if pendingIndex == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingIndex = 0
                }
                return element
            }
            if finished { return nil }
            do {
                try step()
            } catch let e as XMLError {
                finished = true
                throw CalendarError(
                    .data, file: e.file, line: e.line, location: e.path, "\(e.message) (the EWS document is cut short or not well-formed)")
            }
        }
    }

    private func fail(_ line: Int?, _ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: options.sourceName, line: line, location: path, message)
    }

    private mutating func begin() {
        guard !begun else { return }
        begun = true
        pending.append(.beginCalendar(Calendar(kind: .exchange, allowsContentModifications: true)))
    }

    private mutating func step() throws {
        if let workers {
            try step(with: workers)
            return
        }
        guard let unit = units.next() else {
            finished = true
            return
        }
        try handle(unit, mapped: nil)
    }

    /// One unit, its item mapped by a worker: the units are taken from the scanner a job at a
    /// time, a few jobs ahead, each item's zones resolved here in document order.
    private mutating func step(with workers: MappingWorkers) throws {
        if workers.index == workers.current.count {
            while !workers.inputEnded && !workers.waitsForBarrier && workers.pool.pending < MappingWorkers.jobsInFlight {
                fillJob(workers)
            }
            guard workers.pool.pending > 0 else {
                finished = true
                return
            }
            workers.current = workers.pool.next()
            workers.index = 0
        }
        let outcome = workers.current[workers.index]
        workers.current[workers.index] = .taken
        workers.index += 1
        switch outcome {
        case .unit(let unit):
            try handle(unit, mapped: nil)
        case .item(let line, let mapped, let warnings):
            for warning in warnings { log.report(warning) }
            try emit(line: line, mapped: mapped.get())
        case .taken:
            break
        }
    }

    /// Takes units from the scanner up to a job's worth of items, resolving each item's zones,
    /// and queues them. A unit that changes what later items map to (a TimeZoneContext) or is
    /// mapped here (an ItemChange) ends the job, and no more are made until it is handled.
    private mutating func fillJob(_ workers: MappingWorkers) {
        var job: [MappingWorkers.Work] = []
        var items = 0
        filling: while items < MappingWorkers.itemsPerJob {
            guard let unit = units.next() else {
                workers.inputEnded = true
                break
            }
            switch unit {
            case .calendarItem(let element):
                job.append(.item(element, mapper.resolveZones(element)))
                items += 1
            case .timeZoneContext, .itemChange:
                job.append(.unit(unit))
                workers.waitsForBarrier = true
                break filling
            case .end, .failure:
                job.append(.unit(unit))
                workers.inputEnded = true
                break filling
            default:
                job.append(.unit(unit))
            }
        }
        if !job.isEmpty { workers.pool.submit(job) }
    }

    private mutating func handle(_ unit: EWSScanner.Unit, mapped: EWSItemMapper.Mapped?) throws {
        switch unit {
        case .failure(let error):
            throw error
        case .end(let started, let sawEWS):
            try end(started: started, sawEWS: sawEWS)
        case .fault(let fault):
            let code =
                fault.descendant("ResponseCode")?.trimmedText ?? fault.descendant("faultcode")?.trimmedText
                ?? fault.descendant("Value")?.trimmedText ?? "?"
            let text =
                fault.descendant("MessageText")?.trimmedText ?? fault.descendant("faultstring")?.trimmedText
                ?? fault.descendant("Text")?.trimmedText ?? ""
            throw fail(fault.line, fault.path, "Exchange answered with a SOAP fault: \(code)\(text.isEmpty ? "" : ": \(text)")")
        case .failedMessage(let message):
            failures.append(
                (
                    message.descendant("ResponseCode")?.trimmedText ?? "?", message.descendant("MessageText")?.trimmedText ?? "",
                    message.line, message.path
                ))
        case .message(let name, let warningAt):
            succeeded += 1
            if let (line, path) = warningAt {
                log.warning(
                    file: options.sourceName, line: line, location: path, "Exchange answered \(name) with a warning; its items are read")
            }
        case .timeZoneContext(let context):
            workers?.waitsForBarrier = false
            if let definition = context.ews("TimeZoneDefinition") {
                var problem: String?
                mapper.contextZone = mapper.zones.zone(definition: definition, problem: &problem)
                if let problem { log.warning(file: options.sourceName, line: definition.line, location: definition.path, problem) }
                if let built = mapper.contextZone?.definition, let tzid = mapper.contextZone?.tzid,
                    !mapper.zones.sentDefinitions.contains(tzid)
                {
                    mapper.zones.sentDefinitions.insert(tzid)
                    begin()
                    pending.append(.entry(.timeZone(built), line: definition.line))
                }
            }
        case .calendarItem(let element):
            try emit(line: element.line, mapped: mapped ?? mapper.map(element))
        case .itemChange(let change):
            workers?.waitsForBarrier = false
            // UpdateItem: the changed fields of one item, each in its own SetItemField.
            var merged = XMLElement(name: XMLName(EWSNames.types, "CalendarItem"), line: change.line, path: change.path)
            if let id = change.ews("ItemId") { merged.children.append(id) }
            for set in change.ews("Updates")?.children ?? [] where set.name.local.hasPrefix("Set") || set.name.local.hasPrefix("Append") {
                if let item = set.ews("CalendarItem") { merged.children += item.children }
            }
            guard merged.children.contains(where: { $0.name.local != "ItemId" }) else {
                log.warning(
                    file: options.sourceName, line: change.line, location: change.path,
                    "an ItemChange changes no CalendarItem field; left out")
                return
            }
            try emit(line: merged.line, mapped: mapper.map(merged))
        case .delete(let delete):
            let id = delete.ews("ItemId")?.attribute("Id") ?? "?"
            log.warning(
                file: options.sourceName, line: delete.line, location: delete.path,
                "deleted on the server (SyncFolderItems Delete): item \(id)")
        }
    }

    private mutating func emit(line: Int, mapped: EWSItemMapper.Mapped) throws {
        begin()
        for definition in mapped.definitions { pending.append(.entry(.timeZone(definition), line: line)) }
        let item = mapped.event.item
        if let recurrenceID = item.recurrenceID, let uid = item.uid {
            let key = Self.key(uid, recurrenceID)
            exceptionsSeen.insert(key)
            for position in waitingMoved.removeValue(forKey: key) ?? [] { movedOccurrences[position] = nil }
        }
        pending.append(.entry(.event(mapped.event), line: line))
        for moved in mapped.movedOccurrences {
            if let uid = moved.item.uid, let recurrenceID = moved.item.recurrenceID {
                let key = Self.key(uid, recurrenceID)
                // Its own item came already.
                if exceptionsSeen.contains(key) { continue }
                waitingMoved[key, default: []].append(movedOccurrences.count)
            }
            movedOccurrences.append(moved)
        }
    }

    private static func key(_ uid: String, _ recurrenceID: CalendarDateTime) -> String {
        "\(uid)\u{0}\(recurrenceID.wallSecondsSinceEpoch)"
    }

    private mutating func end(started: Bool, sawEWS: Bool) throws {
        finished = true
        guard started else { throw fail(nil, "/", "the input is empty: no EWS document") }
        guard sawEWS else { throw fail(nil, "/", "not an EWS document: the SOAP envelope holds no element of EWS's namespaces") }
        if !failures.isEmpty, succeeded == 0 {
            let first = failures[0]
            let more = failures.count > 1 ? " (and \(failures.count - 1) more failed messages)" : ""
            throw fail(
                first.line, first.path,
                "Exchange answered ResponseClass=\"Error\": \(first.code)\(first.text.isEmpty ? "" : ": \(first.text)")\(more)")
        }
        for failure in failures {
            log.warning(
                file: options.sourceName, line: failure.line, location: failure.path,
                "a response message failed (ResponseClass=\"Error\"): \(failure.code)\(failure.text.isEmpty ? "" : ": \(failure.text)"); the other messages are read"
            )
        }
        begin()
        for case let moved? in movedOccurrences { pending.append(.entry(.event(moved), line: 0)) }
        movedOccurrences.removeAll()
        waitingMoved.removeAll()
        pending.append(.endCalendar(trailingProperties: []))
    }
}

/// The worker threads that map items, and the jobs the reader has handed them: items map
/// independently once their zones are resolved (a master's ModifiedOccurrences are its own
/// children; which of them wait for their own items is settled by the reader, in order).
private final class MappingWorkers {
    /// A unit as queued: an item with its zones resolved, or a unit the reader handles itself.
    enum Work {
        case item(XMLElement, EWSItemMapper.ItemZones)
        case unit(EWSScanner.Unit)
    }

    /// A unit as handed back: an item mapped (or its error) with its warnings in order, and
    /// the line it started on. Its tree is freed on the thread that mapped it: freeing it was a
    /// tenth of the work left on the reader's thread.
    enum Outcome {
        case item(line: Int, Result<EWSItemMapper.Mapped, Error>, warnings: [Diagnostic])
        case unit(EWSScanner.Unit)
        /// Handed out already (let go, so the job's trees are not held to its end).
        case taken
    }

    /// Items per job: enough that the hand-over costs little beside their mapping, few
    /// enough that the jobs in flight hold little.
    static let itemsPerJob = 16
    /// Jobs queued or being mapped at a time.
    static let jobsInFlight = 4

    let pool: OrderedWorkerPool<[Work], [Outcome]>
    var current: [Outcome] = []
    var index = 0
    var inputEnded = false
    /// A queued unit must be handled before more items' zones are resolved.
    var waitsForBarrier = false

    init(mapper: EWSItemMapper, threads: Int) {
        pool = OrderedWorkerPool(threads: threads, name: "calport-ews") { job in
            job.map { work in
                switch work {
                case .unit(let unit):
                    return .unit(unit)
                case .item(let element, let zones):
                    // The item's warnings go to a log of its own, replayed in order by the reader.
                    var itemMapper = mapper
                    let log = DiagnosticLog(keptPerKind: nil)
                    itemMapper.log = log
                    let mapped = Result(catching: { try itemMapper.map(element, zones: zones) })
                    return .item(line: element.line, mapped, warnings: zones.warnings + log.diagnostics)
                }
            }
        }
    }
}
