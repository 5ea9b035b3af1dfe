import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Turns one JSCalendar object (an Event or Task, or a Group's components) into stream
/// elements, reporting to `log`: what the reader does per entry, apart from the reader so that
/// worker threads can do it for entries with a log of their own (`JSCalendarReader+Workers`).
struct JSCalendarEntryReading {
    let options: ReadOptions
    let log: DiagnosticLog
    let mapper: ICalendarMapper
    /// The participant words with the run's overrides, worked out once rather than per entry.
    let vocabulary: ParticipantVocabulary

    init(options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper) {
        self.options = options
        self.log = log
        self.mapper = mapper
        self.vocabulary = JSCalendarVocabulary.participants.applying(options.vocabularyOverrides)
    }

    /// The same, reporting to another log.
    func reporting(to log: DiagnosticLog) -> JSCalendarEntryReading {
        JSCalendarEntryReading(options: options, log: log, mapper: mapper, vocabulary: vocabulary)
    }

    private init(options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper, vocabulary: ParticipantVocabulary) {
        self.options = options
        self.log = log
        self.mapper = mapper
        self.vocabulary = vocabulary
    }

    func decoder(_ line: Int) -> JSCalendarDecoder {
        JSCalendarDecoder(file: options.sourceName, line: line, strict: options.strict, log: log, vocabulary: vocabulary)
    }

    func jcal(_ line: Int) -> JCalValueDecoder {
        JCalValueDecoder(file: options.sourceName, line: line, strict: options.strict, log: log)
    }

    func components(_ value: JSONValue, line: Int, path: String) throws -> [CalendarStreamElement] {
        guard let a = value.arrayValue else {
            throw CalendarError(.data, file: options.sourceName, line: line, location: path, "expected an array of jCal components")
        }
        let d = jcal(line)
        return try a.enumerated().map { .entry(mapper.entry(from: try d.component($1, "\(path)/\($0)")), line: line) }
    }

    /// The entry an Event or Task describes, then one per non-empty override patch.
    func items(_ o: JSONObject, line: Int, path: String) throws -> [CalendarStreamElement] {
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
