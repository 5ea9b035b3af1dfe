import ArgumentParser

/// The `calport` command: moves calendar data among ICS, CSV, JSON and CalDAV XML.
@main
struct CalPortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calport",
        abstract: "Convert calendar data among ICS, CSV, JSON and CalDAV XML, faithfully.",
        subcommands: [ConvertCommand.self, InspectCommand.self, FormatsCommand.self, TimeZoneCommand.self])
}
