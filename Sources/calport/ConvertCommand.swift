import ArgumentParser
import CalendarModel
import Conversion
import Foundation

/// `calport convert`: reads inputs and writes one output in another (or the same) format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert calendars from one format to another.",
        discussion: "Formats are inferred from file extensions, then from the content. '-' is standard input or output.")

    @Argument(help: "Input files, directories (read recursively) and vdir folders ('-' for standard input).")
    var inputs: [String] = ["-"]

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output), or directory for --layout directory|vdir.")
    var output: String?

    @Option(
        help:
            "Output layout: file (one file), directory (one file per calendar) or vdir (one .ics per item). Default: directory when -o names an existing directory or ends in '/', else file."
    )
    var layout: OutputLayout?

    @Flag(help: "Merge items with the same UID (and RECURRENCE-ID) from all inputs, keeping the newest by SEQUENCE, then LAST-MODIFIED.")
    var merge = false

    @Flag(help: "Read everything and show what would be written; write nothing.")
    var dryRun = false

    @Option(
        help:
            "Write a report: counts per calendar and type, warnings with their places, fields the target could not hold, merge choices, what a CalDAV push or pull did. A .html path gets a page to open in a browser; .json (the default) the JSON. Give it twice for both of the same run."
    )
    var report: [String] = []

    @Option(help: "The report's format where its path has no .json or .html extension: json or html.")
    var reportFormat: ReportFormat?

    @Option(name: .shortAndLong, help: "Threads to use: inputs read at the same time, and a reader's or writer's own workers (default: one per core).")
    var jobs: Int?

    @Flag(help: "Never draw the progress bar (it is drawn only when standard error is a terminal).")
    var noProgress = false

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

    @OptionGroup(title: "EWS") var ews: EWSOptions
    @OptionGroup(title: "Microsoft Graph") var graph: GraphOptions
    @OptionGroup(title: "CalDAV servers (an input or -o that starts with http:// or https://)") var calDAV: CalDAVArguments

    func validate() throws {
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read only once") }
        let layout = effectiveLayout
        if let output, CalDAVOptions.isURL(output) {
            if inputs.contains(where: CalDAVOptions.isURL) && inputs.contains(where: { !CalDAVOptions.isURL($0) }) {
                throw ValidationError("a push reads files or URLs, not both")
            }
            return
        }
        if layout == .file && (output == nil || output == "-") && to == nil && !dryRun {
            throw ValidationError("writing to standard output needs -t FORMAT")
        }
        if layout != .file && (output == nil || output == "-") {
            throw ValidationError("--layout \(layout.rawValue) needs -o DIRECTORY")
        }
        if layout != .file && to == nil && layout == .directory {
            throw ValidationError("--layout directory needs -t FORMAT (the files' format)")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        for path in report {
            do { _ = try ReportFormat.resolve(path: path, explicit: reportFormat) } catch let error as CalendarError {
                throw ValidationError(error.diagnostic.message)
            }
        }
        if Set(report).count < report.count { throw ValidationError("--report names the same file twice") }
        if report.isEmpty && reportFormat != nil {
            throw ValidationError("--report-format needs --report FILE")
        }
    }

    /// The layout asked for, or the one the output path implies.
    var effectiveLayout: OutputLayout {
        if let layout { return layout }
        guard let output, output != "-", !CalDAVOptions.isURL(output) else { return .file }
        var isDirectory: ObjCBool = false
        if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return .directory
        }
        return .file
    }

    func run() throws {
        let log = common.makeLog()
        defer { common.printSuppressed(log) }
        let layout = effectiveLayout
        let summary: ConversionSummary
        do {
            var request = ConversionRequest(
                inputs: inputs, output: output, inputFormat: from, outputFormat: to ?? (layout == .vdir ? "ics" : nil),
                strict: common.strict,
                formatSettings: csv.formatSettings.merging(ews.formatSettings) { csv, _ in csv }.merging(graph.formatSettings) { a, _ in a
                }, outputLayout: layout, merge: merge, dryRun: dryRun,
                jobs: jobs ?? ConversionRequest.defaultJobs, reportPaths: report, showsProgress: !noProgress && !common.quiet,
                timeZones: timeZones.options,
                vocabularyOverrides: try vocabulary.mapFile.map { try VocabularyMapFile.load(path: $0) } ?? .none,
                birthdays: kinds.birthdays, leapDay: kinds.leapDay, subscriptions: kinds.subscriptions, force: kinds.force)
            request.recurrence = try dateRange.makeQuery(timeZones: timeZones.options)
            request.reportFormat = reportFormat
            request.commandLine = CommandLine.arguments
            request.lowerRSCALE = try dateRange.loweringWindow()
            request.birthdayCalendar = kinds.birthdayCalendar
            request.calDAV = calDAV.options(jobs: jobs)
            summary = try Converter().run(request, log: log)
        } catch let error as CalendarError {
            throw ExitStatus.report(error)
        }
        if dryRun && !summary.plan.isEmpty {
            for line in summary.plan { print(line) }
        } else if dryRun {
            DryRunPlan(summary: summary).print()
        }
        if !summary.failedInputs.isEmpty {
            let names = summary.failedInputs.map(\.diagnostic.file).joined(separator: ", ")
            FileHandle.standardError.write(Data("calport: \(summary.failedInputs.count) input(s) skipped: \(names)\n".utf8))
            throw ExitCode(ExitStatus.partialBatch)
        }
        if common.strict && log.warningCount > 0 { throw ExitCode(ExitStatus.warningsUnderStrict) }
    }
}
