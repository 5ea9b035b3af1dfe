import ArgumentParser
import CalendarModel
import Conversion

/// `calport inspect`: lists the calendars of a file as an EventKit calendar list does.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", abstract: "List the calendars in a file: title, type, color, writability, counts.")

    @Argument(help: "The file to inspect ('-' for standard input), or a CalDAV URL.")
    var input: String

    @Option(name: [.customShort("f"), .customLong("from")], help: "Input format id.")
    var from: String?

    @OptionGroup var common: CommonOptions

    @OptionGroup var vocabulary: VocabularyOptions

    @Option(help: "Retries of a request to a CalDAV server that failed with 429, 5xx, a timeout or a dropped connection.")
    var retries = 5

    func run() throws {
        let log = common.makeLog()
        defer { common.printSuppressed(log) }
        if CalDAVOptions.isURL(input) {
            var options = CalDAVOptions()
            options.retries = retries
            do {
                print(try CalDAVInspector(options: options).listing(location: input, log: log), terminator: "")
            } catch let error as CalendarError {
                throw ExitStatus.report(error)
            }
            return
        }
        let calendars: [CalendarOverview]
        do {
            let overrides = try vocabulary.mapFile.map { try VocabularyMapFile.load(path: $0) } ?? .none
            calendars = try CalendarInspector().inspect(
                path: input, format: from, strict: common.strict, vocabularyOverrides: overrides, log: log)
        } catch let error as CalendarError {
            throw ExitStatus.report(error)
        }
        for (index, c) in calendars.enumerated() {
            print(c.listing(number: index + 1), terminator: "")
        }
        if common.strict && log.warningCount > 0 { throw ExitCode(ExitStatus.warningsUnderStrict) }
    }
}
