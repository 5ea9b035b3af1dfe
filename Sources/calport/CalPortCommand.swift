import ArgumentParser
import Conversion
import Foundation

/// The `calport` command: moves calendar data among ICS, CSV, JSON and CalDAV XML.
@main
struct CalPortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calport",
        abstract: "Convert calendar data among ICS, CSV, JSON and CalDAV XML, faithfully.",
        version: CalPortVersion.current,
        subcommands: [ConvertCommand.self, InspectCommand.self, FormatsCommand.self, TimeZoneCommand.self])

    /// Runs the command, reporting usage errors with status 2 (DEVELOPERS.md) rather than
    /// ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}
