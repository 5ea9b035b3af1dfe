import ArgumentParser
import CalendarModel
import Conversion

/// `calport convert`: reads inputs and writes one output in another (or the same) format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert calendars from one format to another.",
        discussion: "Formats are inferred from file extensions, then from the content. '-' is standard input or output.")

    @Argument(help: "Input files ('-' for standard input).")
    var inputs: [String] = ["-"]

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output: String?

    @Option(name: [.customShort("f"), .customLong("from")], help: "Input format id (see `calport formats`).")
    var from: String?

    @Option(name: [.customShort("t"), .customLong("to")], help: "Output format id (see `calport formats`).")
    var to: String?

    @OptionGroup var common: CommonOptions

    @OptionGroup(title: "Birthday and subscription calendars") var kinds: CalendarKindOptions

    @OptionGroup(title: "Participant words") var vocabulary: VocabularyOptions

    @OptionGroup(title: "Time zones") var timeZones: TimeZoneArguments

    @OptionGroup(title: "Date range") var dateRange: DateRangeOptions

    @OptionGroup(title: "CSV") var csv: CSVOptions

    func validate() throws {
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read only once") }
        if (output == nil || output == "-") && to == nil {
            throw ValidationError("writing to standard output needs -t FORMAT")
        }
    }

    func run() throws {
        let log = common.makeLog()
        do {
            var request = ConversionRequest(
                inputs: inputs, output: output, inputFormat: from, outputFormat: to, strict: common.strict,
                formatSettings: csv.formatSettings, timeZones: timeZones.options,
                vocabularyOverrides: try vocabulary.mapFile.map { try VocabularyMapFile.load(path: $0) } ?? .none,
                birthdays: kinds.birthdays, leapDay: kinds.leapDay, subscriptions: kinds.subscriptions, force: kinds.force)
            request.recurrence = try dateRange.makeQuery(timeZones: timeZones.options)
            try Converter().run(request, log: log)
        } catch let error as CalendarError {
            throw ExitStatus.report(error)
        }
        if common.strict && log.warningCount > 0 { throw ExitCode(ExitStatus.warningsUnderStrict) }
    }
}
