import CalendarModel
import Foundation
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
    /// How the output is laid out: one file, one file per calendar, or a vdir.
    public var outputLayout: OutputLayout
    /// Merge items with the same UID (and RECURRENCE-ID) from all inputs, keeping the newest.
    public var merge: Bool
    /// Read everything and report what would be written, writing nothing.
    public var dryRun: Bool
    /// How many inputs are read at the same time (1 = one after another).
    public var jobs: Int
    /// Where to write the report (`--report FILE`, once per file: a JSON and an HTML report of
    /// the same run), if anywhere.
    public var reportPaths: [String]
    /// The report's format when the path's extension does not say (`--report-format`).
    public var reportFormat: ReportFormat?
    /// The command line as typed, for the report (secrets are masked there).
    public var commandLine: [String] = []
    /// Draw a progress bar on standard error when it is a terminal.
    public var showsProgress: Bool

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
    /// `--lower-rscale FROM..TO`: RFC 7529 rules in non-Gregorian calendars become dates even
    /// where the output could hold them; outputs that cannot always get them lowered (in this
    /// window, or the default one when nil).
    public var lowerRSCALE: RSCALELowering.Window?
    /// `--birthday-calendar`: materialized birthdays recur on this calendar's date of birth
    /// (an RFC 7529 RSCALE name: chinese, hebrew, islamic-umalqura, …).
    public var birthdayCalendar: String?
    /// How CalDAV URLs among the inputs or as the output are talked to.
    public var calDAV = CalDAVOptions()

    public init(
        inputs: [String], output: String? = nil, inputFormat: String? = nil, outputFormat: String? = nil,
        strict: Bool = false, formatSettings: [String: String] = [:], outputLayout: OutputLayout = .file,
        merge: Bool = false, dryRun: Bool = false, jobs: Int = ConversionRequest.defaultJobs,
        reportPaths: [String] = [], showsProgress: Bool = false, timeZones: TimeZoneOptions? = nil,
        vocabularyOverrides: VocabularyOverrides = .none, birthdays: BirthdayHandling = .keep,
        leapDay: LeapDayRule? = nil, subscriptions: SubscriptionHandling = .keep, force: Bool = false
    ) {
        self.inputs = inputs
        self.output = output
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.strict = strict
        self.formatSettings = formatSettings
        self.outputLayout = outputLayout
        self.merge = merge
        self.dryRun = dryRun
        self.jobs = max(1, jobs)
        self.reportPaths = reportPaths
        self.showsProgress = showsProgress
        self.timeZones = timeZones
        self.vocabularyOverrides = vocabularyOverrides
        self.birthdays = birthdays
        self.leapDay = leapDay
        self.subscriptions = subscriptions
        self.force = force
    }

    /// One job per core the machine offers.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

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
    /// Inputs skipped because they could not be read (lenient mode), with the reason.
    public var failedInputs: [CalendarError] = []
    /// The files written (or, in a dry run, that would be written), with their sizes.
    public var outputs: [OutputFile] = []
    /// What merging did, when merging.
    public var merge: MergeSummary?
    /// The full account of the run (what `--report` writes).
    public var report: ConversionReport?
    /// A dry run against a server: what would be created, updated, skipped, and why.
    public var plan: [String] = []

    /// One output file.
    public struct OutputFile: Sendable, Equatable {
        /// The destination path.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int
    }

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
