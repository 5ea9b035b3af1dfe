import CalendarModel

/// When a February 29 birthday falls in common years (`--leap-day`). Each choice is an RFC 5545
/// rule every client expands the same way, rather than RFC 7529's SKIP, which few support.
public enum LeapDayRule: String, CaseIterable, Sendable {
    /// The last day of February: `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1` (Nextcloud's choice).
    case feb28
    /// The 60th day of the year, which is March 1 in common years: `FREQ=YEARLY;BYYEARDAY=60`.
    case mar1
    /// Leap years only: `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29` (RFC 5545 §3.3.10 drops the
    /// invalid dates).
    case skip

    /// The yearly rule for a February 29 date.
    public var rule: RecurrenceRule {
        switch self {
        case .feb28: RecurrenceRule(frequency: .yearly, daysOfTheMonth: [-1], months: [.init(2)])
        case .mar1: RecurrenceRule(frequency: .yearly, daysOfTheYear: [60])
        case .skip: RecurrenceRule(frequency: .yearly, daysOfTheMonth: [29], months: [.init(2)])
        }
    }

    /// The date a February 29 birthday is celebrated on in `year` (nil: not that year).
    public func observance(in year: Int) -> CalendarDate? {
        if CalendarDate.isLeapYear(year) { return CalendarDate(year: year, month: 2, day: 29) }
        switch self {
        case .feb28: return CalendarDate(year: year, month: 2, day: 28)
        case .mar1: return CalendarDate(year: year, month: 3, day: 1)
        case .skip: return nil
        }
    }
}
