import CalendarModel

// The EWS element names and words of the recurrence model (Types.xsd: RecurrenceType,
// DayOfWeekType, DayOfWeekIndexType) and Graph's (recurrencePatternType, dayOfWeek, weekIndex),
// so the EWS and Graph readers and writers share one spelling of each.

extension ExchangeRecurrence.Pattern.Kind {
    /// The EWS pattern element (`t:WeeklyRecurrence`, …).
    public var ewsElement: String {
        switch self {
        case .daily: "DailyRecurrence"
        case .weekly: "WeeklyRecurrence"
        case .absoluteMonthly: "AbsoluteMonthlyRecurrence"
        case .relativeMonthly: "RelativeMonthlyRecurrence"
        case .absoluteYearly: "AbsoluteYearlyRecurrence"
        case .relativeYearly: "RelativeYearlyRecurrence"
        }
    }

    /// The Graph `type` word (the raw value).
    public var graphWord: String { rawValue }

    /// The kind an EWS pattern element names, nil for others (the task-only regeneration patterns).
    public init?(ewsElement name: String) {
        guard let kind = Self.allCases.first(where: { $0.ewsElement == name }) else { return nil }
        self = kind
    }

    /// The kind a Graph `type` word names.
    public init?(graphWord: String) {
        self.init(rawValue: graphWord)
    }
}

extension ExchangeRecurrence.Range.Kind {
    /// The EWS range element (`t:NoEndRecurrence`, `t:EndDateRecurrence`, `t:NumberedRecurrence`).
    public var ewsElement: String {
        switch self {
        case .noEnd: "NoEndRecurrence"
        case .endDate: "EndDateRecurrence"
        case .numbered: "NumberedRecurrence"
        }
    }

    /// The Graph `recurrenceRange.type` word.
    public var graphWord: String { rawValue }

    /// The kind an EWS range element names.
    public init?(ewsElement name: String) {
        guard let kind = Self.allCases.first(where: { $0.ewsElement == name }) else { return nil }
        self = kind
    }

    /// The kind a Graph range `type` word names.
    public init?(graphWord: String) {
        self.init(rawValue: graphWord)
    }
}

extension ExchangeDayOfWeek {
    private static let ewsWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The EWS DayOfWeekType word (`Monday`, `Day`, `Weekday`, `WeekendDay`).
    public var ews: String {
        switch self {
        case .weekday(let day): Self.ewsWeekdays[day.rawValue - 1]
        case .day: "Day"
        case .weekdays: "Weekday"
        case .weekendDays: "WeekendDay"
        }
    }

    /// The day an EWS word names, nil for an unknown word.
    public init?(ews word: String) {
        switch word {
        case "Day": self = .day
        case "Weekday": self = .weekdays
        case "WeekendDay": self = .weekendDays
        default:
            guard let index = Self.ewsWeekdays.firstIndex(of: word), let day = RecurrenceRule.Weekday(rawValue: index + 1)
            else { return nil }
            self = .weekday(day)
        }
    }

    /// The days of an EWS DaysOfWeekType list (space-separated words); nil when a word is unknown.
    public static func list(ews text: String) -> [ExchangeDayOfWeek]? {
        var days: [ExchangeDayOfWeek] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            guard let day = ExchangeDayOfWeek(ews: String(word)) else { return nil }
            days.append(day)
        }
        return days
    }

    /// The Graph dayOfWeek words this day stands for (Graph has no sets: they are listed).
    public var graphWords: [String] { weekdays.map { Self.ewsWeekdays[$0.rawValue - 1].lowercased() } }

    /// The weekday a Graph word (`monday`) names.
    public init?(graph word: String) {
        guard let index = Self.ewsWeekdays.firstIndex(where: { $0.lowercased() == word.lowercased() }),
            let day = RecurrenceRule.Weekday(rawValue: index + 1)
        else { return nil }
        self = .weekday(day)
    }
}

extension RecurrenceRule.Weekday {
    /// The EWS word (`Monday`), as FirstDayOfWeek spells it.
    public var ews: String { ExchangeDayOfWeek.weekday(self).ews }

    /// The weekday an EWS word names.
    public init?(ews word: String) {
        guard case .weekday(let day)? = ExchangeDayOfWeek(ews: word) else { return nil }
        self = day
    }
}

extension ExchangeWeekIndex {
    /// The EWS DayOfWeekIndexType word (`First` … `Fourth`, `Last`).
    public var ews: String {
        switch self {
        case .first: "First"
        case .second: "Second"
        case .third: "Third"
        case .fourth: "Fourth"
        case .last: "Last"
        }
    }

    /// The Graph weekIndex word (`first` … `last`).
    public var graph: String { ews.lowercased() }

    /// The index an EWS or Graph word names, case-insensitive.
    public init?(word: String) {
        guard let index = Self.allCases.first(where: { $0.graph == word.lowercased() }) else { return nil }
        self = index
    }
}
