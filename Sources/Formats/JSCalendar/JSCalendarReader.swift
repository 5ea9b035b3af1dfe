import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Reads JSCalendar (RFC 8984): a Group (its `entries` read one at a time), a single Event or
/// Task (read as a calendar of one), an array of these, or several one after another.
/// A Group's own members must come before `entries` to be part of the calendar, as calport
/// writes them; members after `entries` other than calport's are reported and ignored.
/// Non-empty `recurrenceOverrides` patches become occurrences of their own (RECURRENCE-ID),
/// following the entry they patch.
public struct JSCalendarReader: CalendarReader {
    var parser: JSONParser
    let options: ReadOptions
    let log: DiagnosticLog
    private let mapper: ICalendarMapper
    private var pending: [CalendarStreamElement] = []
    let reading: JSCalendarEntryReading
    /// Entries parsed and decoded on worker threads: set up by the first Group's `entries` when
    /// `options.concurrency` is above 1.
    var workers: EntryWorkers?

    private enum State {
        case between(inArray: Bool)
        /// Inside a Group's `entries`.
        case entries(inArray: Bool)
        /// Inside a Group, after `entries`.
        case afterEntries(inArray: Bool, trailing: [Property])
        case done
    }

    private var state = State.between(inArray: false)
    private var sawAnything = false

    /// A reader over `source`.
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper) {
        self.parser = JSONParser(source: source, sourceName: options.sourceName)
        self.options = options
        self.log = log
        self.mapper = mapper
        self.reading = JSCalendarEntryReading(options: options, log: log, mapper: mapper)
    }

    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    private func decoder(_ line: Int) -> JSCalendarDecoder { reading.decoder(line) }

    private func jcal(_ line: Int) -> JCalValueDecoder { reading.jcal(line) }

    private func components(_ value: JSONValue, line: Int, path: String) throws -> [CalendarStreamElement] {
        try reading.components(value, line: line, path: path)
    }

    private func items(_ o: JSONObject, line: Int, path: String) throws -> [CalendarStreamElement] {
        try reading.items(o, line: line, path: path)
    }

    public mutating func next() throws -> CalendarStreamElement? {
        while pending.isEmpty {
            guard try step() else { return nil }
        }
        return pending.removeFirst()
    }

    /// Advances; false at the end.
    private mutating func step() throws -> Bool {
        switch state {
        case .done:
            return false
        case .between(let inArray):
            if inArray {
                guard try parser.hasNextElement() else {
                    state = .between(inArray: false)
                    return true
                }
            } else if try parser.isAtEnd() {
                guard sawAnything else { throw parser.error("no JSCalendar object found (empty input)") }
                state = .done
                return false
            }
            sawAnything = true
            if !inArray, try parser.peekSignificantByte() == UInt8(ascii: "[") {
                try parser.beginArray()
                state = .between(inArray: true)
                return true
            }
            try beginObject(inArray: inArray)
        case .entries(let inArray):
            if options.concurrency > 1 {
                guard let elements = try nextFromWorkers() else {
                    state = .afterEntries(inArray: inArray, trailing: [])
                    return true
                }
                pending += elements
                return true
            }
            guard try parser.hasNextElement() else {
                state = .afterEntries(inArray: inArray, trailing: [])
                return true
            }
            _ = try parser.peekSignificantByte()
            let line = parser.line
            let value = try parser.readValue()
            guard let o = value.objectValue else { throw parser.error("a Group entry must be an Event or Task object") }
            pending += try items(o, line: line, path: "/entries")
        case .afterEntries(let inArray, let trailing):
            guard let key = try parser.nextKey() else {
                pending.append(.endCalendar(trailingProperties: trailing))
                state = .between(inArray: inArray)
                return true
            }
            let line = parser.line
            let value = try parser.readValue()
            switch key {
            case JSCalendarWriter.componentsAfterMember:
                pending += try components(value, line: line, path: "/\(key)")
            case JSCalendarWriter.trailingMember:
                let d = jcal(line)
                let props = try (value.arrayValue ?? []).enumerated().map { try d.property($1, "/\(key)/\($0)") }
                state = .afterEntries(inArray: inArray, trailing: trailing + props)
            default:
                try decoder(line).warn(
                    "/\(key)", "Group member '\(key)' after entries is not read (calport reads a Group's members before its entries)")
            }
        }
        return true
    }

    /// Reads the members of a Group up to `entries`, or a whole Event or Task.
    private mutating func beginObject(inArray: Bool) throws {
        let line = parser.line
        try parser.beginObject()
        var group = JSONObject()
        while let key = try parser.nextKey() {
            if key == "entries" {
                guard group["@type"]?.stringValue == "Group" else {
                    throw parser.error("'entries' belongs to a Group; @type must come first")
                }
                try beginCalendar(group, line: line)
                try parser.beginArray()
                workers?.entriesEnded = false
                state = .entries(inArray: inArray)
                return
            }
            group.append(key, try parser.readValue())
        }
        switch group["@type"]?.stringValue {
        case "Group"?:
            try beginCalendar(group, line: line)
            pending.append(.endCalendar(trailingProperties: []))
        case "Event"?, "Task"?:
            pending.append(.beginCalendar(CalendarModel.Calendar()))
            pending += try items(group, line: line, path: "")
            pending.append(.endCalendar(trailingProperties: []))
        default:
            throw CalendarError(.data, file: options.sourceName, line: line, location: "/@type", "expected a Group, Event or Task object")
        }
        state = .between(inArray: inArray)
    }

    private mutating func beginCalendar(_ group: JSONObject, line: Int) throws {
        let d = decoder(line)
        var calendar = try d.calendar(group, "")
        if let r = group[JSCalendarWriter.remainderMember] {
            let remainder = try ICalendarRemainder(json: r, decoder: jcal(line), path: "/\(JSCalendarWriter.remainderMember)")
            calendar = mapper.calendar(from: remainder.applied(to: mapper.properties(from: calendar)))
        }
        let known: Set<String> = ["@type", "...", "uid", "updated", "title", "name", "description", "color", "prodId", "source"]
        for k in group.keys where !known.contains(k) && !k.contains(":") {
            try d.warn("/\(k)", "Group member '\(k)' has no iCalendar counterpart in calport; ignored")
        }
        pending.append(.beginCalendar(calendar))
        if let comps = group[JSCalendarWriter.componentsMember] {
            pending += try components(comps, line: line, path: "/\(JSCalendarWriter.componentsMember)")
        }
    }
}
