import CalendarTestSupport
import Foundation
import XCTest

/// Runs the built `calport` binary as a user would: exit codes, diagnostics on stderr, and
/// output files that are never harmed by a failed run.
final class CommandLineTests: XCTestCase {
    var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    func calport(_ arguments: [String], stdin: Data? = nil) throws -> CommandRunner.Run {
        try CommandRunner(directory: workDirectory).calport(arguments, stdin: stdin)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = workDirectory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    let truncated = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Half"
    let valid = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240101T090000Z\r\nSUMMARY:Whole\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    func testAFailedConversionLeavesTheExistingOutputUntouched() throws {
        let input = try write("truncated.ics", truncated)
        let output = try write("existing.ics", "precious content\n")
        let run = try calport(["convert", input, "-o", output, "--strict"])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("truncated.ics:4: error: input ends inside BEGIN:VEVENT"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "precious content\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workDirectory.path).filter { $0.contains("calport-") }
        XCTAssertEqual(leftovers, [], "temporary files must be removed")
    }

    /// A FIFO (or /dev/null, /dev/stdout) as `-o` or `--report` is written as it is: renaming a
    /// temporary file over it would replace the device or pipe with a regular file.
    func testADeviceOrPipeOutputIsWrittenInPlaceAndStaysWhatItWas() throws {
        let input = try write("valid.ics", valid)
        for (option, name) in [("-o", "out.fifo"), ("--report", "report.fifo")] {
            let fifo = workDirectory.appendingPathComponent(name).path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            // The read end, open before calport runs and without blocking: its small output fits
            // the pipe's buffer, and a calport that renamed over the pipe leaves it empty.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            XCTAssertGreaterThanOrEqual(reader, 0)
            defer { close(reader) }
            let arguments = option == "-o" ? ["convert", input, "-o", fifo, "-t", "ics"] : ["convert", input, "-o", "out.ics", "--report", fifo, "--report-format", "json"]
            let run = try calport(arguments)
            XCTAssertEqual(run.status, 0, run.stderr)
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while case let n = read(reader, &chunk, chunk.count), n > 0 { received += chunk[0..<n] }
            let text = String(decoding: received, as: UTF8.self)
            XCTAssertTrue(text.contains(option == "-o" ? "SUMMARY:Whole" : "\"outputs\""), "\(name): \(text)")
            var info = stat()
            XCTAssertEqual(stat(fifo, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "\(name) is no longer a pipe")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workDirectory.path).filter { $0.contains("calport-") }
        XCTAssertEqual(leftovers, [])
    }

    func testLenientModeRepairsWarnsAndWrites() throws {
        let input = try write("truncated.ics", truncated)
        let run = try calport(["convert", input, "-o", "out.ics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("truncated.ics:4: warning:"), run.stderr)
        XCTAssertTrue(try String(contentsOfFile: workDirectory.appendingPathComponent("out.ics").path, encoding: .utf8).contains("SUMMARY:Half"))
    }

    func testStrictModeWithWarningsExitsOne() throws {
        let input = try write("dates.ics", valid.replacingOccurrences(of: "DTSTART:20240101T090000Z", with: "DTSTART:20240101"))
        let run = try calport(["convert", input, "-o", "out.ics", "--strict"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("dates.ics:6: warning: DTSTART holds a DATE without VALUE=DATE"), run.stderr)
    }

    func testExitCodesForMissingInputUsageAndUnwritableOutput() throws {
        XCTAssertEqual(try calport(["convert", "no-such-file.ics", "-o", "out.ics"]).status, 66)
        XCTAssertEqual(try calport(["convert", "--bogus"]).status, 2)
        XCTAssertEqual(try calport(["convert", try write("a.ics", valid), "-t", "no-such-format"]).status, 2)
        XCTAssertEqual(try calport(["convert", try write("b.ics", valid), "-o", "/nonexistent-dir/out.ics"]).status, 73)
    }

    func testReadsStandardInputAndSniffsTheFormat() throws {
        let run = try calport(["convert", "-", "-t", "ics"], stdin: Data(valid.utf8))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("SUMMARY:Whole\r\n"))
    }

    func testInspectListsCalendarsLikeAnEventKitCalendarList() throws {
        let sample = RoundTripCheck.repositoryRoot.appendingPathComponent("samples/apple-personal.ics").path
        let run = try calport(["inspect", sample])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("1. Personal"))
        XCTAssertTrue(run.stdout.contains("color: #FF2968"))
        XCTAssertTrue(run.stdout.contains("allows modifications: yes"))
        XCTAssertTrue(run.stdout.contains("events: 2, reminders: 2"))
    }

    func testFormatsListsEveryRegisteredFormat() throws {
        let run = try calport(["formats"])
        XCTAssertTrue(run.stdout.contains("ics\ttext/calendar"), run.stdout)
    }
}
