import CalendarModel

/// How a recurrence set is expanded; travels as a value.
public struct RecurrenceOptions: Hashable, Sendable {
    /// Most occurrences one item may yield; a warning is given when the limit cuts a series.
    public var maxOccurrences: Int
    /// The zone floating times are read in; nil reads them as UTC.
    public var floatingTimeZone: String?
    /// RFC 5545 §3.8.5.3: DTSTART is always the first instance. False follows libical and
    /// ical.js, which leave out a DTSTART that the rule does not produce.
    public var startAlwaysOccurs: Bool

    /// Options with EventKit-like defaults: 100 000 occurrences, floating as UTC, DTSTART always first.
    public init(maxOccurrences: Int = 100_000, floatingTimeZone: String? = nil, startAlwaysOccurs: Bool = true) {
        self.maxOccurrences = maxOccurrences
        self.floatingTimeZone = floatingTimeZone
        self.startAlwaysOccurs = startAlwaysOccurs
    }
}
