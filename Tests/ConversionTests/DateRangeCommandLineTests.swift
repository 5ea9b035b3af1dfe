import Foundation
import XCTest

/// `calport convert --start --end --expand --max-occurrences` as a user runs it.
final class DateRangeCommandLineTests: XCTestCase {
    var executable: URL {
        let bundle = Bundle(for: Self.self).bundleURL
        let candidates = [bundle.appendingPathComponent("calport"), bundle.deletingLastPathComponent().appendingPathComponent("calport")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    func calport(_ arguments: [String], stdin: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// A weekly 09:00 meeting in Berlin, named the Outlook way.
    let weekly = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:x\r
        BEGIN:VEVENT\r
        UID:weekly\r
        DTSTAMP:20240101T000000Z\r
        DTSTART;TZID=W. Europe Standard Time:20240318T090000\r
        DTEND;TZID=W. Europe Standard Time:20240318T100000\r
        RRULE:FREQ=WEEKLY\r
        SUMMARY:Weekly\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func lines(_ name: String, _ text: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix(name) }
    }

    func testExpandInUTCKeepsNineOClockBerlinAcrossDaylightSavingTime() throws {
        let run = try calport(
            ["convert", "-", "-f", "ics", "-t", "ics", "--tz", "utc", "--start", "2024-03-20", "--end", "2024-04-05", "--expand"],
            stdin: weekly)
        XCTAssertEqual(run.status, 0, run.stderr)
        // 09:00 CET is 08:00Z; from March 31, 09:00 CEST is 07:00Z.
        XCTAssertEqual(lines("DTSTART", run.stdout), ["DTSTART:20240325T080000Z", "DTSTART:20240401T070000Z"])
        XCTAssertEqual(lines("RECURRENCE-ID", run.stdout), ["RECURRENCE-ID:20240325T080000Z", "RECURRENCE-ID:20240401T070000Z"])
    }

    func testWhenIsReadInTheTzZone() throws {
        // 2024-04-01T09:30 in Berlin is 07:30Z: the 09:00–10:00 occurrence overlaps it.
        let args = ["convert", "-", "-f", "ics", "-t", "ics", "--start", "2024-04-01T09:30", "--end", "2024-04-01T09:45", "--expand"]
        XCTAssertEqual(lines("RECURRENCE-ID", try calport(args + ["--tz", "Europe/Berlin"], stdin: weekly).stdout).count, 1)
        // Read as UTC, 09:30Z is 11:30 in Berlin: nothing.
        XCTAssertEqual(lines("RECURRENCE-ID", try calport(args, stdin: weekly).stdout).count, 0)
    }

    func testLimitWarnsAndBadRangesAreUsageErrors() throws {
        let limited = try calport(["convert", "-", "-f", "ics", "-t", "ics", "--expand", "--max-occurrences", "3"], stdin: weekly)
        XCTAssertEqual(limited.status, 0)
        XCTAssertEqual(lines("RECURRENCE-ID", limited.stdout).count, 3)
        XCTAssertTrue(limited.stderr.contains("-:4: warning: expansion stopped at 3 occurrences"), limited.stderr)
        for bad in [["--start", "yesterday"], ["--start", "2024-05-02", "--end", "2024-05-01"], ["--max-occurrences", "0"]] {
            let run = try calport(["convert", "-", "-f", "ics", "-t", "ics"] + bad, stdin: weekly)
            XCTAssertEqual(run.status, 2, "\(bad): \(run.stderr)")
        }
    }
}
