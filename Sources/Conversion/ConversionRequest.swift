import CalendarModel
import Recurrence
import TimeZones

/// What one `calport convert` run does, as a value.
public struct ConversionRequest: Sendable {
    /// Input paths; "-" is standard input.
    public var inputs: [String]
    /// Output path; nil or "-" is standard output.
    public var output: String?
    /// Format ids; nil means inferred from the extension, then from the content.
    public var inputFormat: String?
    public var outputFormat: String?
    /// Treat what lenient mode repairs as errors.
    public var strict: Bool
    /// Settings passed to formats (e.g. a CSV locale).
    public var formatSettings: [String: String]
    /// How to normalize time zones; nil leaves every date-time and VTIMEZONE as read.
    public var timeZones: TimeZoneOptions?
    /// `--start`, `--end`, `--expand`, `--max-occurrences`: the date-range stage; inactive by default.
    public var recurrence: RecurrenceQuery = RecurrenceQuery()
    /// Participant words added or changed for this run (`--map`).
    public var vocabularyOverrides: VocabularyOverrides
    /// What to do with birthday calendars (`--birthdays`).
    public var birthdays: BirthdayHandling
    /// The rule for February 29 birthdays in common years (`--leap-day`); nil keeps the source's.
    public var leapDay: LeapDayRule?
    /// What to do with subscription calendars (`--subscriptions`).
    public var subscriptions: SubscriptionHandling
    /// Write onto a calendar that does not allow modifications (`--force`).
    public var force: Bool

    public init(inputs: [String], output: String? = nil, inputFormat: String? = nil, outputFormat: String? = nil,
                strict: Bool = false, formatSettings: [String: String] = [:], timeZones: TimeZoneOptions? = nil,
                vocabularyOverrides: VocabularyOverrides = .none, birthdays: BirthdayHandling = .keep,
                leapDay: LeapDayRule? = nil, subscriptions: SubscriptionHandling = .keep, force: Bool = false) {
        self.inputs = inputs
        self.output = output
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.strict = strict
        self.formatSettings = formatSettings
        self.timeZones = timeZones
        self.vocabularyOverrides = vocabularyOverrides
        self.birthdays = birthdays
        self.leapDay = leapDay
        self.subscriptions = subscriptions
        self.force = force
    }

    /// Whether the output goes to standard output.
    public var writesToStandardOutput: Bool { output == nil || output == "-" }
}

/// What a run did.
public struct ConversionSummary: Sendable, Equatable {
    public var calendars = 0
    public var events = 0
    public var reminders = 0
    /// Time zones and components kept as they were (VJOURNAL, VFREEBUSY, …).
    public var otherComponents = 0
    public var warnings = 0

    public init() {}

    mutating func count(_ element: CalendarStreamElement) {
        switch element {
        case .beginCalendar: calendars += 1
        case .entry(.event, _): events += 1
        case .entry(.reminder, _): reminders += 1
        case .entry: otherComponents += 1
        case .endCalendar: break
        }
    }
}
