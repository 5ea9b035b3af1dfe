import ArgumentParser
import CalendarModel
import Conversion

/// `calport inspect`: lists the calendars of a file as an EventKit calendar list does.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", abstract: "List the calendars in a file: title, type, color, writability, counts.")

    @Argument(help: "The file to inspect ('-' for standard input).")
    var input: String

    @Option(name: [.customShort("f"), .customLong("from")], help: "Input format id.")
    var from: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        let log = common.makeLog()
        let calendars: [CalendarOverview]
        do {
            calendars = try CalendarInspector().inspect(path: input, format: from, strict: common.strict, log: log)
        } catch let error as CalendarError {
            throw ExitStatus.report(error)
        }
        for (index, c) in calendars.enumerated() {
            print("\(index + 1). \(c.title ?? "(untitled)")")
            print("   type: \(c.kind.rawValue)\(c.source.map { ", source: \($0.title) (\($0.kind.rawValue))" } ?? "")")
            print("   color: \(c.color ?? "none")")
            print("   allows modifications: \(c.allowsContentModifications ? "yes" : "no")")
            if let url = c.subscriptionURL { print("   subscription: \(url)") }
            print("   events: \(c.events), reminders: \(c.reminders), recurring: \(c.recurringItems), time zones: \(c.timeZones), other components: \(c.otherComponents)")
        }
        if common.strict && log.warningCount > 0 { throw ExitCode(ExitStatus.warningsUnderStrict) }
    }
}
