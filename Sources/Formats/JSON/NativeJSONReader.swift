import CalendarModel
import JSONCoding

/// Reads calport's native JSON, a document (`json`) or JSON Lines (`jsonl`), one element at a
/// time: the pull parser walks the envelope token by token and parses one entry at a time,
/// so memory does not grow with the input.
///
/// In a document, a calendar's `calendar` member must come before its `entries` (the writer
/// always does so), because entries are handed on as they are read. JSON Lines input may
/// leave out the `beginCalendar` lines: items are then grouped into calendars by their
/// `calendarIndex` (or `calendar` title), each opened when its first item arrives.
public struct NativeJSONReader: CalendarReader {
    private var parser: JSONParser
    private let layout: NativeJSONWriter.Layout
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let vocabulary: ParticipantVocabulary
    private var pending: [CalendarStreamElement] = []

    private enum DocumentState {
        case start
        /// Inside the `calendars` array, between calendars.
        case calendars
        /// Inside one calendar object, between its members.
        case calendarMembers(began: Bool, trailing: [Property])
        /// Inside a calendar's `entries` array.
        case entries(trailing: [Property])
        case done
    }

    private var state = DocumentState.start
    /// JSON Lines: the calendar now open, by index and title.
    private var openLinesCalendar: (index: Int?, title: String?)?

    /// A reader over `source`.
    public init(
        source: ByteSource, layout: NativeJSONWriter.Layout, options: ReadOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary
    ) {
        self.parser = JSONParser(source: source, sourceName: options.sourceName)
        self.layout = layout
        self.options = options
        self.log = log
        self.vocabulary = vocabulary
    }

    private func decoder(line: Int) -> NativeJSONDecoder {
        NativeJSONDecoder(file: options.sourceName, line: line, strict: options.strict, log: log, vocabulary: vocabulary)
    }

    private func fail(_ message: String) -> CalendarError {
        parser.error(message)
    }

    public mutating func next() throws -> CalendarStreamElement? {
        if !pending.isEmpty { return pending.removeFirst() }
        switch layout {
        case .document: return try nextInDocument()
        case .lines: return try nextLine()
        }
    }

    // MARK: Document

    private mutating func nextInDocument() throws -> CalendarStreamElement? {
        while true {
            switch state {
            case .start:
                guard let first = try parser.peekSignificantByte() else { throw fail("empty input: expected a calport JSON document") }
                if first == UInt8(ascii: "[") {
                    // A common mix-up: `.json` files are often jCal or JSCalendar arrays.
                    throw fail("this is a JSON array, not a calport JSON document (jCal? try -f jcal; JSCalendar? -f jscalendar)")
                }
                try parser.beginObject()
                var foundCalendars = false
                while let key = try parser.nextKey() {
                    let line = parser.line
                    switch key {
                    case "format":
                        let v = try parser.readValue()
                        guard v.stringValue == NativeJSONWriter.formatName else {
                            throw CalendarError(
                                .data, file: options.sourceName, line: line, location: "/format",
                                "not a calport JSON document: format is \(v), expected \"\(NativeJSONWriter.formatName)\"")
                        }
                    case "version":
                        let v = try parser.readValue()
                        guard v.intValue == NativeJSONWriter.formatVersion else {
                            throw CalendarError(
                                .data, file: options.sourceName, line: line, location: "/version",
                                "unsupported calport JSON version \(v); this reader knows version \(NativeJSONWriter.formatVersion)")
                        }
                    case "calendars":
                        try parser.beginArray()
                        foundCalendars = true
                    case "@type":
                        throw CalendarError(
                            .data, file: options.sourceName, line: line, location: "/@type",
                            "this is JSCalendar, not a calport JSON document (try -f jscalendar)")
                    default:
                        _ = try parser.readValue()
                        try unknown("/\(key)", line: line)
                    }
                    if foundCalendars { break }
                }
                guard foundCalendars else { throw fail("the document has no \"calendars\" array") }
                state = .calendars
            case .calendars:
                guard try parser.hasNextElement() else {
                    // Members after "calendars" are read for errors and unknown-member warnings.
                    while let key = try parser.nextKey() {
                        let line = parser.line
                        let v = try parser.readValue()
                        if key == "format" || key == "version" { continue }
                        _ = v
                        try unknown("/\(key)", line: line)
                    }
                    guard try parser.isAtEnd() else { throw fail("unexpected content after the document") }
                    state = .done
                    continue
                }
                try parser.beginObject()
                state = .calendarMembers(began: false, trailing: [])
            case .calendarMembers(let began, let trailing):
                guard let key = try parser.nextKey() else {
                    state = .calendars
                    if !began { pending.append(.beginCalendar(CalendarModel.Calendar())) }
                    pending.append(.endCalendar(trailingProperties: trailing))
                    return pending.removeFirst()
                }
                _ = try parser.peekSignificantByte()
                let line = parser.line
                switch key {
                case "calendar":
                    guard !began else {
                        throw CalendarError(
                            .data, file: options.sourceName, line: line, location: "calendar",
                            "the calendar member must come before the calendar's entries")
                    }
                    let c = try decoder(line: line).calendar(try parser.readValue(), "/calendar")
                    state = .calendarMembers(began: true, trailing: trailing)
                    return .beginCalendar(c)
                case "entries":
                    try parser.beginArray()
                    state = .entries(trailing: trailing)
                    if !began { return .beginCalendar(CalendarModel.Calendar()) }
                case "trailingProperties":
                    let v = try parser.readValue()
                    guard let values = v.arrayValue else {
                        throw CalendarError(
                            .data, file: options.sourceName, line: line, location: "trailingProperties", "expected an array")
                    }
                    let d = decoder(line: line)
                    let props = try values.enumerated().map { try d.property($1, "/trailingProperties/\($0)") }
                    state = .calendarMembers(began: began, trailing: trailing + props)
                default:
                    _ = try parser.readValue()
                    try unknown("/\(key)", line: line)
                }
            case .entries(let trailing):
                guard try parser.hasNextElement() else {
                    state = .calendarMembers(began: true, trailing: trailing)
                    continue
                }
                _ = try parser.peekSignificantByte()
                let line = parser.line
                let value = try parser.readValue()
                let d = decoder(line: line)
                let f = try d.fields(value, "")
                guard let entry = try d.entry(f) else {
                    throw CalendarError(
                        .data, file: options.sourceName, line: line,
                        "an entry needs one of the members event, reminder, timeZone, component")
                }
                try f.finish()
                return .entry(entry, line: line)
            case .done:
                return nil
            }
        }
    }

    private func unknown(_ path: String, line: Int) throws {
        if options.strict {
            throw CalendarError(.data, file: options.sourceName, line: line, location: path, "unknown member")
        }
        log.warning(file: options.sourceName, line: line, location: path, "unknown member is ignored")
    }

    // MARK: JSON Lines

    private mutating func nextLine() throws -> CalendarStreamElement? {
        while true {
            guard try !parser.isAtEnd() else {
                if openLinesCalendar != nil {
                    openLinesCalendar = nil
                    return .endCalendar(trailingProperties: [])
                }
                return nil
            }
            let line = parser.line
            let value = try parser.readValue()
            let d = decoder(line: line)
            let f = try d.fields(value, "")
            let index = try f.int("calendarIndex")
            if let begin = f.raw("beginCalendar") {
                let c = try d.calendar(begin, "/beginCalendar")
                try f.finish()
                if openLinesCalendar != nil { pending.append(.endCalendar(trailingProperties: [])) }
                openLinesCalendar = (index, c.title)
                pending.append(.beginCalendar(c))
                return pending.removeFirst()
            }
            if let end = f.raw("endCalendar") {
                let ef = try d.fields(end, "/endCalendar")
                let trailing = try d.properties(ef, "trailingProperties")
                try ef.finish()
                try f.finish()
                if openLinesCalendar == nil { pending.append(.beginCalendar(CalendarModel.Calendar())) }
                openLinesCalendar = nil
                pending.append(.endCalendar(trailingProperties: trailing))
                return pending.removeFirst()
            }
            let title = try f.string("calendar")
            guard let entry = try d.entry(f) else {
                throw CalendarError(
                    .data, file: options.sourceName, line: line,
                    "a line needs one of the members beginCalendar, endCalendar, event, reminder, timeZone, component")
            }
            try f.finish()
            // Lines without a beginCalendar line are grouped by calendarIndex, else by title.
            let sameCalendar: Bool
            if let open = openLinesCalendar {
                sameCalendar = index != nil && open.index != nil ? index == open.index : title == open.title
            } else {
                sameCalendar = false
            }
            if !sameCalendar {
                if openLinesCalendar != nil { pending.append(.endCalendar(trailingProperties: [])) }
                openLinesCalendar = (index, title)
                pending.append(.beginCalendar(CalendarModel.Calendar(title: title)))
            }
            pending.append(.entry(entry, line: line))
            return pending.removeFirst()
        }
    }
}
