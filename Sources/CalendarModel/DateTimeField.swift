/// Which field of an item a date-time value sits in, so a stage that rewrites date-times can
/// treat each as RFC 5545 requires.
public enum DateTimeField: Hashable, Sendable {
    /// DTSTART, DTEND, DUE, COMPLETED and RECURRENCE-ID.
    case start, end, due, completed, recurrenceID
    /// A date of an EXDATE.
    case exceptionDate
    /// A date of an RDATE, or the start of an RDATE period.
    case recurrenceDate
    /// The end of an RDATE period given with an explicit end.
    case recurrenceDatePeriodEnd
    /// The UNTIL of an RRULE.
    case recurrenceUntil
    /// An absolute alarm TRIGGER.
    case alarmTrigger
    /// CREATED, LAST-MODIFIED and DTSTAMP.
    case created, lastModified, timestamp
    /// A value of a property the typed model does not hold (by property name).
    case property(String)

    /// Whether RFC 5545 requires the value in UTC (CREATED, LAST-MODIFIED, DTSTAMP, COMPLETED
    /// §3.8.2.1, §3.8.7; an absolute TRIGGER §3.8.6.3).
    public var requiresUTC: Bool {
        switch self {
        case .created, .lastModified, .timestamp, .completed, .alarmTrigger: true
        default: false
        }
    }
}
