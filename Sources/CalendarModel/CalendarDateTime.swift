/// A calendar day in the proleptic Gregorian calendar.
public struct CalendarDate: Hashable, Comparable, Sendable, Codable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the fields name a day that exists.
    public var isValid: Bool {
        month >= 1 && month <= 12 && day >= 1 && day <= CalendarDate.daysInMonth(year: year, month: month)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whether `year` has a February 29.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month, honouring leap years.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it); Howard Hinnant's days_from_civil.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// ISO weekday of this date: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let w = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
        return (w < 0 ? w + 7 : w) + 1
    }

    /// The date `count` days later (or earlier for negative counts).
    public func adding(days count: Int) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + count)
    }
}

/// A wall-clock time of day; `second` may be 60 for a leap second as RFC 5545 allows.
public struct TimeOfDay: Hashable, Comparable, Sendable, Codable {
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(hour: Int, minute: Int, second: Int) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public var isValid: Bool { (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second) }

    /// Seconds since midnight.
    public var secondsOfDay: Int { hour * 3600 + minute * 60 + second }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.secondsOfDay < rhs.secondsOfDay }
}

/// How a date-time is anchored to real time (RFC 5545 §3.3.5's three forms).
public enum TimeReference: Hashable, Sendable {
    /// Local time wherever the viewer is.
    case floating
    /// Coordinated Universal Time.
    case utc
    /// Wall time in a named zone; the identifier is kept as the source spelled it until the
    /// time-zone layer normalizes it.
    case zone(String)

    /// The zone identifier for `.zone`, else nil.
    public var zoneIdentifier: String? {
        if case .zone(let id) = self { return id }
        return nil
    }
}

/// A DATE or DATE-TIME value that keeps what it was: a date alone, or a wall time with its anchor.
public struct CalendarDateTime: Hashable, Sendable {
    public var date: CalendarDate
    /// Nil for a DATE value (all-day).
    public var time: TimeOfDay?
    /// Ignored for DATE values, which are always floating.
    public var reference: TimeReference

    public init(date: CalendarDate, time: TimeOfDay? = nil, reference: TimeReference = .floating) {
        self.date = date
        self.time = time
        self.reference = time == nil ? .floating : reference
    }

    /// A DATE value.
    public static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDateTime {
        CalendarDateTime(date: CalendarDate(year: year, month: month, day: day))
    }

    /// Whether this is a DATE value (all-day) rather than a DATE-TIME.
    public var isDateOnly: Bool { time == nil }

    /// Seconds since the epoch of the wall time as if it were UTC (exact for `.utc` values).
    public var wallSecondsSinceEpoch: Int {
        date.daysSinceEpoch * 86_400 + (time?.secondsOfDay ?? 0)
    }

    /// The wall time `seconds` since the epoch, keeping this value's anchor.
    public func withWallSeconds(_ seconds: Int) -> CalendarDateTime {
        // Integer floor division: exact for any Int, and cheap (recurrence expansion calls this
        // several times per occurrence).
        var days = seconds / 86_400
        if seconds % 86_400 < 0 { days -= 1 }
        let rest = seconds - days * 86_400
        return CalendarDateTime(
            date: CalendarDate(daysSinceEpoch: days),
            time: isDateOnly ? nil : TimeOfDay(hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60),
            reference: reference)
    }
}
