import CalendarModel

/// Exchange's one recurrence model, which EWS (`t:Recurrence`) and Microsoft Graph
/// (`patternedRecurrence`) spell in two syntaxes: a pattern saying which days, and a range saying
/// from when and until when. Conversion to and from `RecurrenceRule` lives beside it
/// (`ExchangeRecurrence+Rule.swift`), so both formats share one exact mapping.
public struct ExchangeRecurrence: Hashable, Sendable {
    /// Which days: Exchange's six pattern kinds (EWS `DailyRecurrence` … `RelativeYearlyRecurrence`,
    /// Graph `recurrencePatternType`).
    public struct Pattern: Hashable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly, relativeYearly
        }

        public var kind: Kind
        /// Days, weeks, months or years between occurrences (EWS yearly patterns have none: 1).
        public var interval: Int
        /// The month of a yearly pattern, 1–12.
        public var month: Int?
        /// The day of an absolute pattern, 1–31; Exchange puts a day past a month's end on its last day.
        public var dayOfMonth: Int?
        /// The days of a weekly or relative pattern.
        public var daysOfWeek: [ExchangeDayOfWeek]
        /// Which of the matching days a relative pattern means.
        public var index: ExchangeWeekIndex?
        /// The week's first day (weekly patterns; WKST).
        public var firstDayOfWeek: RecurrenceRule.Weekday?

        public init(
            kind: Kind, interval: Int = 1, month: Int? = nil, dayOfMonth: Int? = nil,
            daysOfWeek: [ExchangeDayOfWeek] = [], index: ExchangeWeekIndex? = nil,
            firstDayOfWeek: RecurrenceRule.Weekday? = nil
        ) {
            self.kind = kind
            self.interval = interval
            self.month = month
            self.dayOfMonth = dayOfMonth
            self.daysOfWeek = daysOfWeek
            self.index = index
            self.firstDayOfWeek = firstDayOfWeek
        }
    }

    /// From when and until when: EWS `NoEndRecurrence` / `EndDateRecurrence` / `NumberedRecurrence`,
    /// Graph `recurrenceRange`.
    public struct Range: Hashable, Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case noEnd, endDate, numbered
        }

        public var kind: Kind
        /// The first day of the series (in the pattern's zone).
        public var startDate: CalendarDate
        /// The last day an occurrence may fall on, inclusive (kind `.endDate`).
        public var endDate: CalendarDate?
        /// How many occurrences (kind `.numbered`).
        public var numberOfOccurrences: Int?
        /// The zone the dates are in, as the source named it (Graph `recurrenceTimeZone`).
        public var timeZone: String?

        public init(
            kind: Kind, startDate: CalendarDate, endDate: CalendarDate? = nil, numberOfOccurrences: Int? = nil,
            timeZone: String? = nil
        ) {
            self.kind = kind
            self.startDate = startDate
            self.endDate = endDate
            self.numberOfOccurrences = numberOfOccurrences
            self.timeZone = timeZone
        }
    }

    public var pattern: Pattern
    public var range: Range

    public init(pattern: Pattern, range: Range) {
        self.pattern = pattern
        self.range = range
    }
}

/// A day in an Exchange pattern: a weekday, or one of EWS's three sets (`Day`, `Weekday`,
/// `WeekendDay`), which with an index mean "the n-th day that is one of these" (BYSETPOS).
public enum ExchangeDayOfWeek: Hashable, Sendable {
    case weekday(RecurrenceRule.Weekday)
    /// Any day of the week.
    case day
    /// Monday to Friday.
    case weekdays
    /// Saturday and Sunday.
    case weekendDays

    /// The weekdays this day stands for.
    public var weekdays: [RecurrenceRule.Weekday] {
        switch self {
        case .weekday(let day): [day]
        case .day: RecurrenceRule.Weekday.allCases
        case .weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday]
        case .weekendDays: [.sunday, .saturday]
        }
    }
}

/// Which matching day of the month a relative pattern means (EWS `DayOfWeekIndex`, Graph `weekIndex`).
public enum ExchangeWeekIndex: Int, CaseIterable, Hashable, Sendable {
    case first = 1, second = 2, third = 3, fourth = 4
    case last = -1

    /// The BYSETPOS (or BYDAY ordinal) value.
    public var position: Int { rawValue }
}
