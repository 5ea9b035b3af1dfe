import CalendarModel

/// Builds values from RFC 5545's basic text, and instants by plain arithmetic (not by the code
/// under test).
enum T {
    static func dt(_ text: String, _ zone: String? = nil) -> CalendarDateTime {
        var value = CalendarDateTime(basicISO: text)!
        if let zone { value.reference = .zone(zone) }
        return value
    }

    /// Seconds since 1970 of a UTC wall time `YYYYMMDDTHHMMSS`.
    static func utc(_ text: String) -> Int { CalendarDateTime(basicISO: text)!.wallSecondsSinceEpoch }

    static func item(_ uid: String, _ start: CalendarDateTime, rules: [String] = []) -> CalendarItem {
        var item = CalendarItem(uid: uid, title: uid, start: start)
        item.recurrenceRules = rules.map { try! RecurrenceRule(rfc5545: $0) }
        return item
    }
}
