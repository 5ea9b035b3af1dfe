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
    private var parser: JSONParser
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let mapper: ICalendarMapper
    private var pending: [CalendarStreamElement] = []

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
    }

    private func decoder(_ line: Int) -> JSCalendarDecoder {
        JSCalendarDecoder(file: options.sourceName, line: line, strict: options.strict, log: log)
    }

    private func jcal(_ line: Int) -> JCalValueDecoder {
        JCalValueDecoder(file: options.sourceName, line: line, strict: options.strict, log: log)
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

    private func components(_ value: JSONValue, line: Int, path: String) throws -> [CalendarStreamElement] {
        guard let a = value.arrayValue else {
            throw CalendarError(.data, file: options.sourceName, line: line, location: path, "expected an array of jCal components")
        }
        let d = jcal(line)
        return try a.enumerated().map { .entry(mapper.entry(from: try d.component($1, "\(path)/\($0)")), line: line) }
    }

    /// The entry an Event or Task describes, then one per non-empty override patch.
    private func items(_ o: JSONObject, line: Int, path: String) throws -> [CalendarStreamElement] {
        var result: [CalendarStreamElement] = []
        if let comps = o[JSCalendarWriter.componentsBeforeItemMember] {
            result += try components(comps, line: line, path: "\(path)/\(JSCalendarWriter.componentsBeforeItemMember)")
        }
        result.append(.entry(try entry(o, line: line, path: path), line: line))
        guard let overrides = o["recurrenceOverrides"]?.objectValue else { return result }
        for m in overrides.members {
            guard let patch = m.value.objectValue, !patch.members.isEmpty, patch["excluded"] != .bool(true) else { continue }
            var occurrence = o
            for member in [
                "recurrenceRules", "recurrenceRule", "recurrenceOverrides", "excludedRecurrenceRules", JSCalendarWriter.remainderMember,
                JSCalendarWriter.componentsBeforeItemMember,
            ] {
                occurrence.set(member, nil)
            }
            // RFC 8984 §4.3.5: the occurrence starts at its recurrence id unless the patch moves it.
            occurrence.set("recurrenceId", .string(m.key))
            occurrence.set("start", .string(m.key))
            for change in patch.members {
                try Self.patch(&occurrence, pointer: change.key, value: change.value, line: line, file: options.sourceName)
            }
            result.append(.entry(try entry(occurrence, line: line, path: "\(path)/recurrenceOverrides/\(m.key)"), line: line))
        }
        return result
    }

    /// RFC 8984 §1.4.9 PatchObject: a path of member names; null removes.
    static func patch(_ o: inout JSONObject, pointer: String, value: JSONValue, line: Int, file: String) throws {
        let parts = pointer.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        func apply(_ o: inout JSONObject, _ parts: ArraySlice<String>) throws {
            guard let first = parts.first else { return }
            if parts.count == 1 {
                o.set(first, value == .null ? nil : value)
                return
            }
            guard var inner = o[first]?.objectValue else {
                throw CalendarError(
                    .data, file: file, line: line, location: pointer, "patch path '\(pointer)' does not name an object member")
            }
            try apply(&inner, parts.dropFirst())
            o.set(first, .object(inner))
        }
        try apply(&o, parts[...])
    }

    private func entry(_ o: JSONObject, line: Int, path: String) throws -> CalendarEntry {
        var d = decoder(line)
        let remainder = try o[JSCalendarWriter.remainderMember].map {
            try ICalendarRemainder(json: $0, decoder: jcal(line), path: "\(path)/\(JSCalendarWriter.remainderMember)")
        }
        let typed: CalendarEntry
        do {
            typed = try d.entry(o, path)
        } catch let error as CalendarError {
            // The writer's last resort: everything is in the remainder.
            guard let remainder, remainder.replaces.contains("*") else { throw error }
            let name = o["@type"]?.stringValue == "Task" ? "VTODO" : "VEVENT"
            return mapper.entry(from: remainder.applied(to: Component(name: name)))
        }
        guard let remainder else { return typed }
        return mapper.entry(from: remainder.applied(to: mapper.component(from: typed)))
    }
}
