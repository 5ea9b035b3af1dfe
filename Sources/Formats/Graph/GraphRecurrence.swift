import CalendarModel
import ExchangeData
import JSONCoding

/// Graph's `patternedRecurrence` JSON (`{"pattern": {…}, "range": {…}}`) read into and written
/// from Exchange's one recurrence model; the model's mapping to RRULE is the Exchange core's.
enum GraphRecurrence {
    private static func weekday(_ word: String) -> RecurrenceRule.Weekday? {
        guard case .weekday(let day)? = ExchangeDayOfWeek(graph: word) else { return nil }
        return day
    }

    /// Reads a `patternedRecurrence`; `fail` builds the error for a member path.
    static func read(_ o: JSONObject, path: String, fail: (String, String) -> CalendarError) throws -> ExchangeRecurrence {
        guard let pattern = o["pattern"]?.objectValue else { throw fail("\(path)/pattern", "a recurrence needs a pattern object") }
        guard let range = o["range"]?.objectValue else { throw fail("\(path)/range", "a recurrence needs a range object") }
        // Paths are made only for a message.
        func p() -> String { "\(path)/pattern" }
        guard let typeWord = pattern["type"]?.stringValue,
            let kind = ExchangeRecurrence.Pattern.Kind.allCases.first(where: { $0.graphWord.caseInsensitiveEquals(typeWord) })
        else { throw fail("\(p())/type", "unknown recurrence pattern type \(pattern["type"]?.description ?? "(missing)")") }
        var result = ExchangeRecurrence.Pattern(kind: kind)
        result.interval = max(1, pattern["interval"]?.intValue ?? 1)
        if let month = pattern["month"]?.intValue, month != 0 {
            guard (1...12).contains(month) else { throw fail("\(p())/month", "month \(month) is not 1–12") }
            result.month = month
        }
        if let day = pattern["dayOfMonth"]?.intValue, day != 0 {
            guard (1...31).contains(day) else { throw fail("\(p())/dayOfMonth", "dayOfMonth \(day) is not 1–31") }
            result.dayOfMonth = day
        }
        for (i, v) in (pattern["daysOfWeek"]?.arrayValue ?? []).enumerated() {
            guard let w = v.stringValue, let day = weekday(w) else { throw fail("\(p())/daysOfWeek/\(i)", "unknown day of week \(v)") }
            result.daysOfWeek.append(.weekday(day))
        }
        if let w = pattern["firstDayOfWeek"]?.stringValue {
            guard let day = weekday(w) else { throw fail("\(p())/firstDayOfWeek", "unknown day of week \"\(w)\"") }
            result.firstDayOfWeek = day
        }
        // Graph always sends an index ("first" by default); it means something only in relative patterns.
        if kind == .relativeMonthly || kind == .relativeYearly, let w = pattern["index"]?.stringValue {
            guard let index = ExchangeWeekIndex(word: w) else {
                throw fail("\(p())/index", "unknown week index \"\(w)\"")
            }
            result.index = index
        } else if kind == .relativeMonthly || kind == .relativeYearly {
            result.index = .first
        }
        switch kind {
        case .weekly, .relativeMonthly, .relativeYearly:
            guard !result.daysOfWeek.isEmpty else { throw fail("\(p())/daysOfWeek", "a \(kind.rawValue) pattern needs daysOfWeek") }
        case .absoluteMonthly, .absoluteYearly:
            guard result.dayOfMonth != nil else { throw fail("\(p())/dayOfMonth", "an \(kind.rawValue) pattern needs dayOfMonth") }
        case .daily: break
        }
        if kind == .absoluteYearly || kind == .relativeYearly, result.month == nil {
            throw fail("\(p())/month", "a \(kind.rawValue) pattern needs month")
        }

        func r() -> String { "\(path)/range" }
        guard let rangeWord = range["type"]?.stringValue,
            let rangeKind = ExchangeRecurrence.Range.Kind.allCases.first(where: { $0.graphWord.caseInsensitiveEquals(rangeWord) })
        else { throw fail("\(r())/type", "unknown recurrence range type \(range["type"]?.description ?? "(missing)")") }
        guard let startText = range["startDate"]?.stringValue, let startDate = ISO8601Text.parseDate(String(startText.prefix(10))) else {
            throw fail("\(r())/startDate", "a recurrence range needs a startDate (yyyy-mm-dd)")
        }
        var resultRange = ExchangeRecurrence.Range(kind: rangeKind, startDate: startDate)
        if let tz = range["recurrenceTimeZone"]?.stringValue, !tz.isEmpty { resultRange.timeZone = tz }
        switch rangeKind {
        case .endDate:
            guard let t = range["endDate"]?.stringValue, let end = ISO8601Text.parseDate(String(t.prefix(10))), end.year > 1 else {
                throw fail("\(r())/endDate", "an endDate range needs an endDate (yyyy-mm-dd)")
            }
            resultRange.endDate = end
        case .numbered:
            guard let n = range["numberOfOccurrences"]?.intValue, n > 0 else {
                throw fail("\(r())/numberOfOccurrences", "a numbered range needs numberOfOccurrences above 0")
            }
            resultRange.numberOfOccurrences = n
        case .noEnd: break
        }
        return ExchangeRecurrence(pattern: result, range: resultRange)
    }

    /// The `patternedRecurrence` object Graph accepts in `POST /me/events`: several days with an
    /// index are Graph's own (the n-th of these days); EWS's day sets are spelled out.
    static func json(_ recurrence: ExchangeRecurrence) -> JSONObject {
        // Each object has room for all its members at once (grown one by one, each was
        // reallocated two or three times, for every series).
        var pattern = JSONObject()
        pattern.members.reserveCapacity(7)
        let p = recurrence.pattern
        pattern.append("type", p.kind.graphWord)
        pattern.append("interval", .number(String(p.interval)))
        if let month = p.month { pattern.append("month", .number(String(month))) }
        if let day = p.dayOfMonth { pattern.append("dayOfMonth", .number(String(day))) }
        if !p.daysOfWeek.isEmpty {
            var seen: [String] = []
            for d in p.daysOfWeek.flatMap(\.graphWords) where !seen.contains(d) { seen.append(d) }
            pattern.append("daysOfWeek", .array(seen.map { .string($0) }))
        }
        if let first = p.firstDayOfWeek { pattern.append("firstDayOfWeek", ExchangeDayOfWeek.weekday(first).graphWords.first) }
        if let index = p.index { pattern.append("index", index.graph) }
        var range = JSONObject()
        range.members.reserveCapacity(5)
        let r = recurrence.range
        range.append("type", r.kind.graphWord)
        range.append("startDate", ISO8601Text.date(r.startDate))
        if let end = r.endDate { range.append("endDate", ISO8601Text.date(end)) }
        if let n = r.numberOfOccurrences { range.append("numberOfOccurrences", .number(String(n))) }
        if let tz = r.timeZone { range.append("recurrenceTimeZone", tz) }
        var result = JSONObject()
        result.members.reserveCapacity(2)
        result.append("pattern", .object(pattern))
        result.append("range", .object(range))
        return result
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        self == other || (utf8.count == other.utf8.count && lowercased() == other.lowercased())
    }
}
