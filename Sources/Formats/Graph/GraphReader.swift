import CalendarModel
import ICalendarData
import JSONCoding

/// Reads Microsoft Graph event JSON one event at a time: a single event, a collection
/// (`{"@odata.context": …, "value": [ … ], "@odata.nextLink" | "@odata.deltaLink": …}`), a JSON
/// array of events or of pages (PowerShell's `ConvertTo-Json`), or several of these one after
/// another (JSON Lines: a page or an event a line; `cat page-*.json` of `@odata.nextLink` pages).
/// All of it is one calendar.
///
/// Series from calendarView and instances output are grouped by `seriesMasterId`
/// (`GraphSeriesGrouper`): the master carries the rule, exceptions become overrides,
/// occurrences are dropped (the rule gives them), and nothing missing from a window is taken
/// for deleted: only `cancelledOccurrences` makes an EXDATE. Delta responses' `@removed` entries
/// are reported as deletions and their `@odata.deltaLink` is reported for the next sync.
///
/// With `ReadOptions.concurrency` above 1, a collection's events are decoded on worker threads
/// (`GraphElementJob`): this thread only finds where each one ends in the text, and groups the
/// decoded events in order, replaying each one's warnings as it takes it.
public struct GraphReader: CalendarReader {
    private var parser: JSONParser
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let vocabulary: ParticipantVocabulary
    private let mapper: ICalendarMapper
    /// Short strings made before by this reader's own parsing (its thread's; workers have theirs).
    private let strings: JSONStringTable
    private var grouper = GraphSeriesGrouper()
    private var pending: [CalendarStreamElement] = []
    private var pendingIndex = 0

    private enum State {
        case start
        /// Between top-level values.
        case between
        /// Inside a top-level array of events or pages.
        case topArray
        /// Inside a collection's `value` array; the collection's remaining members follow.
        case values(page: Int)
        /// After a collection's `value` array, reading its remaining members.
        case collectionMembers(page: Int)
        case finished
        case done
    }

    private var state = State.start
    private var pages = 0
    private var elementIndex = 0
    /// Decodes a collection's events on worker threads; nil: on this thread.
    private var workers: Workers?

    /// The pool (a class, so copies of the reader share it and dropping the last one stops its
    /// threads), and how far the sequential pass has got in the current `value` array.
    private final class Workers {
        let pool: OrderedWorkerPool<GraphElementJob, GraphElementJob.Output>
        /// Whether the current array's `]` has been read (its events may still be in the pool).
        var arrayEnded = false
        /// What stopped the sequential pass, thrown once the events before it are taken.
        var failure: Error?

        init(pool: OrderedWorkerPool<GraphElementJob, GraphElementJob.Output>) {
            self.pool = pool
        }
    }

    /// Events in the pool per thread: enough to keep the workers busy, few enough that memory
    /// does not grow with the input.
    private static let eventsInFlightPerThread = 16

    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    /// A reader over `source`.
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary, mapper: ICalendarMapper) {
        let strings = JSONStringTable()
        self.strings = strings
        self.parser = JSONParser(source: source, sourceName: options.sourceName, strings: strings)
        self.options = options
        self.log = log
        self.vocabulary = vocabulary
        self.mapper = mapper
        if options.concurrency > 1 {
            let settings = GraphElementJob.Settings(options: options, vocabulary: vocabulary, mapper: mapper, strings: GraphStringTables())
            workers = Workers(
                pool: OrderedWorkerPool(threads: options.concurrency - 1, name: "calport-graph-read") { job in job.decode(settings) })
        }
    }

    private func decoder(_ line: Int) -> GraphEventDecoder {
        GraphEventDecoder(
            file: options.sourceName, line: line, strict: options.strict, log: log, vocabulary: vocabulary, mapper: mapper, strings: strings)
    }

    public mutating func next() throws -> CalendarStreamElement? {
        while pendingIndex >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard try step() else { return nil }
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Advances the parse by one event or container boundary; false at the end.
    private mutating func step() throws -> Bool {
        switch state {
        case .start:
            guard try !parser.isAtEnd() else { throw parser.error("empty input: expected Microsoft Graph event JSON") }
            pending.append(.beginCalendar(CalendarModel.Calendar()))
            state = .between
        case .between:
            guard let first = try parser.peekSignificantByte() else {
                state = .finished
                return true
            }
            let line = parser.line
            if first == UInt8(ascii: "[") {
                try parser.beginArray()
                state = .topArray
            } else if first == UInt8(ascii: "{") {
                try beginObject(line: line, path: "")
            } else {
                throw parser.error("expected a Graph event or collection object")
            }
        case .topArray:
            guard try parser.hasNextElement() else {
                state = .between
                return true
            }
            _ = try parser.peekSignificantByte()
            let line = parser.line
            let path = "/\(elementIndex)"
            elementIndex += 1
            let value = try parser.readValue()
            guard let o = value.objectValue else {
                throw CalendarError(.data, file: options.sourceName, line: line, location: path, "expected an event object, found \(value.typeName)")
            }
            if let page = o["value"]?.arrayValue {
                // A page of a collection inside an array.
                try collectionLinks(o, line: line, path: path)
                for (i, v) in page.enumerated() { try element(v, line: line, path: "\(path)/value/\(i)") }
            } else {
                try element(value, line: line, path: path)
            }
        case .values(let page):
            if let workers { return try stepWithWorkers(workers, page: page) }
            guard try parser.hasNextElement() else {
                state = .collectionMembers(page: page)
                return true
            }
            _ = try parser.peekSignificantByte()
            let line = parser.line
            let path = pages > 1 ? "/page \(page)/value/\(elementIndex)" : "/value/\(elementIndex)"
            elementIndex += 1
            try element(try parser.readValue(), line: line, path: path)
        case .collectionMembers(let page):
            guard let key = try parser.nextKey() else {
                state = .between
                return true
            }
            let line = parser.line
            let value = try parser.readValue()
            try collectionMember(key, value, line: line, path: pages > 1 ? "/page \(page)" : "")
        case .finished:
            try grouper.finish(decoder: decoder(parser.line), into: &pending)
            pending.append(.endCalendar(trailingProperties: []))
            state = .done
        case .done:
            return false
        }
        return true
    }

    /// Reads a top-level object: a collection (its `value` array is streamed) or a single event.
    private mutating func beginObject(line: Int, path: String) throws {
        try parser.beginObject()
        var single = JSONObject()
        while let key = try parser.nextKey() {
            if key == "value" || key == "Value", try parser.peekSignificantByte() == UInt8(ascii: "[") {
                try parser.beginArray()
                pages += 1
                elementIndex = 0
                try collectionLinks(single, line: line, path: path)
                state = .values(page: pages)
                return
            }
            let value = try parser.readValue()
            if key == "error" { throw graphError(value, line: line, path: "\(path)/error") }
            single.append(key, value)
        }
        state = .between
        try element(.object(single), line: line, path: path)
    }

    /// The members of a collection around its `value`: links are reported, an error fails.
    private func collectionLinks(_ o: JSONObject, line: Int, path: String) throws {
        for m in o.members { try collectionMember(m.key, m.value, line: line, path: path) }
    }

    private func collectionMember(_ key: String, _ value: JSONValue, line: Int, path: String) throws {
        switch key {
        case "@odata.deltaLink":
            log.warning(
                file: options.sourceName, line: line, location: "\(path)/\(key)",
                "delta link for the next sync: \(value.stringValue ?? value.description)")
        case "error":
            throw graphError(value, line: line, path: "\(path)/error")
        default:
            break
        }
    }

    /// Graph's error object (`{"error": {"code", "message"}}`) as a data error.
    private func graphError(_ value: JSONValue, line: Int, path: String) -> CalendarError {
        let o = value.objectValue
        let code = o?["code"]?.stringValue ?? "(no code)"
        let message = o?["message"]?.stringValue ?? value.description
        return CalendarError(.data, file: options.sourceName, line: line, location: path, "Graph returned an error, not events: \(code): \(message)")
    }

    /// One element of a collection (or a single top-level event).
    private mutating func element(_ value: JSONValue, line: Int, path: String) throws {
        let d = decoder(line)
        guard let e = try Self.decoded(value, path: path, decoder: d) else { return }
        try grouper.add(e, line: line, decoder: d, into: &pending)
    }

    /// What of an element can be read without the events before it: its event (nil for a
    /// deletion, which is reported), and for a single event or a series master the event as
    /// it is handed out (`GraphEvent.kept`), a master's with its exceptions' overrides.
    static func decoded(_ value: JSONValue, path: String, decoder d: GraphEventDecoder) throws -> GraphEvent? {
        guard let raw = value.objectValue else { throw d.fail(path, "expected an event object, found \(value.typeName)") }
        if let error = raw["error"] {
            let o = error.objectValue
            let code = o?["code"]?.stringValue ?? "(no code)"
            let message = o?["message"]?.stringValue ?? error.description
            throw d.fail("\(path)/error", "Graph returned an error, not events: \(code): \(message)")
        }
        let o = GraphMembers.normalized(raw)
        if let removed = o["@removed"] {
            let id = o["id"]?.stringValue ?? "(no id)"
            let reason = removed.objectValue?["reason"]?.stringValue ?? "deleted"
            d.log.warning(
                file: d.file, line: d.line, location: "\(path)/@removed",
                "deletion reported by the source: event \(id) (@removed reason: \(reason)); not converted")
            return nil
        }
        var e = try d.event(o, path: path)
        switch e.kind {
        case .seriesMaster:
            let kept = try d.kept(GraphSeriesGrouper.master(e), e.remainder)
            e.kept = kept
            if !e.exceptionOccurrences.isEmpty {
                e.exceptionOverrides = GraphSeriesGrouper.exceptionOverrides(e, master: kept, decoder: d)
                e.exceptionOccurrences = []
            }
        case .singleInstance: e.kept = try d.kept(e.event, e.remainder)
        case .occurrence, .exception:
            // One without its master's id is an event of its own.
            if e.seriesMasterID == nil { e.kept = try d.kept(e.event, e.remainder) }
        }
        if e.kept != nil {
            // The grouper needs no more than `kept`: the rest is let go here, on a worker thread
            // when there is one (freed on the thread that groups, it cost ~3% of a read there).
            e.event = Event()
            e.remainder = nil
        }
        return e
    }

    /// A step through a collection's `value` array with worker threads: hands the workers the
    /// events' text while there is room, then groups the oldest decoded event.
    private mutating func stepWithWorkers(_ workers: Workers, page: Int) throws -> Bool {
        let pool = workers.pool
        while !workers.arrayEnded && workers.failure == nil && pool.pending < Self.eventsInFlightPerThread * options.concurrency {
            do {
                guard try parser.hasNextElement() else {
                    workers.arrayEnded = true
                    break
                }
                let first = try parser.peekSignificantByte()
                let line = parser.line
                let path = pages > 1 ? "/page \(page)/value/\(elementIndex)" : "/value/\(elementIndex)"
                elementIndex += 1
                let text: [UInt8]
                if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                    text = try parser.readValueBytes().bytes
                } else {
                    // Not an event (a string, a number): short, parsed here and handed on as
                    // text, so that the worker's decoder refuses it in its place.
                    text = JSONOutput.rendered(try parser.readValue())
                }
                pool.submit(GraphElementJob(text: text, line: line, path: path))
            } catch {
                workers.failure = error
            }
        }
        guard pool.pending > 0 else {
            if let failure = workers.failure {
                self.workers = nil
                throw failure
            }
            workers.arrayEnded = false
            state = .collectionMembers(page: page)
            return true
        }
        let output = pool.next()
        for d in output.diagnostics { log.report(d) }
        do {
            if let error = output.error { throw error }
            if let e = output.event { try grouper.add(e, line: output.line, decoder: decoder(output.line), into: &pending) }
        } catch {
            // Nothing is read after an error: the threads end.
            self.workers = nil
            throw error
        }
        return true
    }
}
