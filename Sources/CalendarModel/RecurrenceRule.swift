/// A recurrence rule with every part of RFC 5545 §3.3.10 (and RFC 7529's RSCALE and SKIP) as
/// structured fields; EventKit's `EKRecurrenceRule` names are offered as views.
public struct RecurrenceRule: Hashable, Sendable {
    /// FREQ values, in increasing length.
    public enum Frequency: String, CaseIterable, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A weekday as RFC 5545 spells it (SU … SA); raw values follow EventKit (Sunday = 1).
    public enum Weekday: Int, CaseIterable, Hashable, Sendable {
        case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

        /// The two-letter code (RFC 5545 §3.3.10 "weekday").
        public var code: String { ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][rawValue - 1] }

        /// The weekday with a two-letter code, case-insensitive.
        public init?(code: String) {
            guard let index = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: code.uppercased()) else { return nil }
            self.init(rawValue: index + 1)
        }

        /// The weekday from an ISO number (1 = Monday … 7 = Sunday).
        public init(isoWeekday: Int) {
            self.init(rawValue: isoWeekday % 7 + 1)!
        }

        /// ISO number: 1 = Monday … 7 = Sunday.
        public var isoNumber: Int { rawValue == 1 ? 7 : rawValue - 1 }
    }

    /// A BYDAY entry: a weekday with an optional ordinal (`-1FR`), EventKit's
    /// `EKRecurrenceDayOfWeek` (weekNumber 0 means every such day).
    public struct DayOfWeek: Hashable, Sendable {
        public var weekday: Weekday
        public var weekNumber: Int

        public init(_ weekday: Weekday, weekNumber: Int = 0) {
            self.weekday = weekday
            self.weekNumber = weekNumber
        }
    }

    /// A BYMONTH entry; `isLeap` marks RFC 7529's leap months (`5L`).
    public struct Month: Hashable, Sendable {
        public var number: Int
        public var isLeap: Bool

        public init(_ number: Int, isLeap: Bool = false) {
            self.number = number
            self.isLeap = isLeap
        }
    }

    /// How a rule ends: EventKit's `EKRecurrenceEnd`.
    public enum End: Hashable, Sendable {
        case until(CalendarDateTime)
        case count(Int)
    }

    public var frequency: Frequency
    /// INTERVAL, 1 when absent.
    public var interval: Int
    public var end: End?
    public var bySecond: [Int]
    public var byMinute: [Int]
    public var byHour: [Int]
    public var daysOfTheWeek: [DayOfWeek]
    public var daysOfTheMonth: [Int]
    public var daysOfTheYear: [Int]
    public var weeksOfTheYear: [Int]
    public var months: [Month]
    public var setPositions: [Int]
    /// WKST; nil means the default, Monday.
    public var firstDayOfTheWeek: Weekday?
    /// RFC 7529 RSCALE (e.g. "GREGORIAN", "HEBREW").
    public var scale: String?
    /// RFC 7529 SKIP (OMIT, BACKWARD, FORWARD).
    public var skip: String?
    /// Whether INTERVAL was written out even though it is 1, so a rewrite keeps it.
    public var intervalWasExplicit: Bool
    /// Parts this model does not know (X-NAME=value), in order.
    public var extensionParts: [(name: String, value: String)]

    public init(
        frequency: Frequency, interval: Int = 1, end: End? = nil, bySecond: [Int] = [], byMinute: [Int] = [],
        byHour: [Int] = [], daysOfTheWeek: [DayOfWeek] = [], daysOfTheMonth: [Int] = [], daysOfTheYear: [Int] = [],
        weeksOfTheYear: [Int] = [], months: [Month] = [], setPositions: [Int] = [], firstDayOfTheWeek: Weekday? = nil,
        scale: String? = nil, skip: String? = nil, intervalWasExplicit: Bool = false,
        extensionParts: [(name: String, value: String)] = []
    ) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.daysOfTheWeek = daysOfTheWeek
        self.daysOfTheMonth = daysOfTheMonth
        self.daysOfTheYear = daysOfTheYear
        self.weeksOfTheYear = weeksOfTheYear
        self.months = months
        self.setPositions = setPositions
        self.firstDayOfTheWeek = firstDayOfTheWeek
        self.scale = scale
        self.skip = skip
        self.intervalWasExplicit = intervalWasExplicit
        self.extensionParts = extensionParts
    }

    /// EventKit's `monthsOfTheYear`: month numbers without the leap marker.
    public var monthsOfTheYear: [Int] { months.map(\.number) }

    public static func == (lhs: RecurrenceRule, rhs: RecurrenceRule) -> Bool {
        lhs.frequency == rhs.frequency && lhs.interval == rhs.interval && lhs.end == rhs.end
            && lhs.bySecond == rhs.bySecond && lhs.byMinute == rhs.byMinute && lhs.byHour == rhs.byHour
            && lhs.daysOfTheWeek == rhs.daysOfTheWeek && lhs.daysOfTheMonth == rhs.daysOfTheMonth
            && lhs.daysOfTheYear == rhs.daysOfTheYear && lhs.weeksOfTheYear == rhs.weeksOfTheYear
            && lhs.months == rhs.months && lhs.setPositions == rhs.setPositions
            && lhs.firstDayOfTheWeek == rhs.firstDayOfTheWeek && lhs.scale == rhs.scale && lhs.skip == rhs.skip
            && lhs.extensionParts.map(\.name) == rhs.extensionParts.map(\.name)
            && lhs.extensionParts.map(\.value) == rhs.extensionParts.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(frequency)
        hasher.combine(interval)
        hasher.combine(end)
        hasher.combine(daysOfTheWeek)
        hasher.combine(daysOfTheMonth)
        hasher.combine(months)
    }
}
