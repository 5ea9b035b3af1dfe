import ArgumentParser
import CalendarModel
import Conversion
import Foundation

/// Options every reading subcommand shares.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Treat what lenient mode would repair as an error; exit 1 when warnings remain.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print no warnings (errors are still printed).")
    var quiet = false

    /// A log that prints each diagnostic on standard error as it is reported.
    func makeLog() -> DiagnosticLog {
        let quiet = self.quiet
        return DiagnosticLog { diagnostic in
            if quiet && diagnostic.severity == .warning { return }
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
    }

    /// Prints, after a run, how many diagnostics of each kind the log counted but did not keep.
    func printSuppressed(_ log: DiagnosticLog) {
        for note in log.suppressionNotes where !(quiet && note.severity == .warning) {
            FileHandle.standardError.write(Data((note.description + "\n").utf8))
        }
    }
}

/// Exit statuses of sysexits.h, as DEVELOPERS.md lists them.
enum ExitStatus {
    static let warningsUnderStrict: Int32 = 1
    /// A lenient batch that wrote what it could but skipped inputs it could not read.
    static let partialBatch: Int32 = 1
    static let usage: Int32 = 2
    static let dataError: Int32 = 65
    static let inputMissing: Int32 = 66
    static let cannotCreateOutput: Int32 = 73
    static let ioError: Int32 = 74
    static let serverUnreachable: Int32 = 69
    static let serverFailed: Int32 = 75
    static let authentication: Int32 = 77

    /// Prints a failure and returns the exit code it deserves.
    static func report(_ error: CalendarError) -> ExitCode {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        switch error.kind {
        case .data: return ExitCode(dataError)
        case .inputMissing: return ExitCode(inputMissing)
        case .cannotCreateOutput: return ExitCode(cannotCreateOutput)
        case .io: return ExitCode(ioError)
        case .usage: return ExitCode(usage)
        case .serverUnreachable: return ExitCode(serverUnreachable)
        case .serverFailed: return ExitCode(serverFailed)
        case .authentication: return ExitCode(authentication)
        }
    }
}

extension OutputLayout: ExpressibleByArgument {}

extension ReportFormat: ExpressibleByArgument {}
