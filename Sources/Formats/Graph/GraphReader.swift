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
public struct GraphReader: CalendarReader {
    private var parser: JSONParser
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let vocabulary: ParticipantVocabulary
    private let mapper: ICalendarMapper
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

    /// A reader over `source`.
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary, mapper: ICalendarMapper) {
        self.parser = JSONParser(source: source, sourceName: options.sourceName)
        self.options = options
        self.log = log
        self.vocabulary = vocabulary
        self.mapper = mapper
    }

    private func decoder(_ line: Int) -> GraphEventDecoder {
        GraphEventDecoder(file: options.sourceName, line: line, strict: options.strict, log: log, vocabulary: vocabulary, mapper: mapper)
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
        guard let raw = value.objectValue else {
            throw CalendarError(.data, file: options.sourceName, line: line, location: path, "expected an event object, found \(value.typeName)")
        }
        if let error = raw["error"] { throw graphError(error, line: line, path: "\(path)/error") }
        let o = GraphMembers.normalized(raw)
        if let removed = o["@removed"] {
            let id = o["id"]?.stringValue ?? "(no id)"
            let reason = removed.objectValue?["reason"]?.stringValue ?? "deleted"
            log.warning(
                file: options.sourceName, line: line, location: "\(path)/@removed",
                "deletion reported by the source: event \(id) (@removed reason: \(reason)); not converted")
            return
        }
        let d = decoder(line)
        try grouper.add(try d.event(o, path: path), line: line, decoder: d, into: &pending)
    }
}
