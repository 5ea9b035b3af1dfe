import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// RFC 7529 rules through conversions: kept unchanged by every format that can hold them, and
/// lowered to exactly the oracle's dates (with a loss warning) for those that cannot.
final class RSCALEConversionTests: XCTestCase {
    static let rules = [
        "RSCALE=CHINESE;FREQ=YEARLY", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=15;BYMONTH=8",
        "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=10;BYMONTH=9,9L;SKIP=BACKWARD", "RSCALE=CHINESE;FREQ=MONTHLY;COUNT=4",
        "RSCALE=HEBREW;FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=5L;SKIP=FORWARD", "RSCALE=HEBREW;FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=5L;SKIP=OMIT",
        "RSCALE=ETHIOPIC;FREQ=MONTHLY;BYMONTH=13", "RSCALE=ISLAMIC-UMALQURA;FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=9",
        "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD", "RSCALE=DANGI;FREQ=YEARLY;UNTIL=20300101;BYMONTHDAY=8;BYMONTH=4",
    ]

    static func calendar(_ rules: [(rule: String, start: String)]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport//tests//EN"]
        for (index, r) in rules.enumerated() {
            lines += [
                "BEGIN:VEVENT", "UID:rscale-\(index)@example.com", "DTSTAMP:20240101T000000Z", "DTSTART;VALUE=DATE:\(r.start)",
                "RRULE:\(r.rule)", "SUMMARY:case \(index)", "END:VEVENT",
            ]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func rrules(_ ics: [UInt8]) -> [String] {
        String(decoding: ics, as: UTF8.self).components(separatedBy: "\r\n").filter { $0.hasPrefix("RRULE") }
    }

    func testRSCALESurvivesICSJCalXCalJSCalendarAndJSON() throws {
        let ics = Array(Self.calendar(Self.rules.map { ($0, "20140208") }).utf8)
        let original = Self.rrules(ics)
        XCTAssertEqual(original, Self.rules.map { "RRULE:" + $0 })
        for hops in [
            ["jcal", "xcal", "jscalendar", "ics"], ["xcal", "ics"], ["jscalendar", "jcal", "ics"], ["json", "ics"],
            ["jcal", "ics"], ["jscalendar", "ics"],
        ] {
            let log = DiagnosticLog()
            let back = try RoundTripCheck.convert(ics, through: hops, log: log)
            XCTAssertEqual(Self.rrules(back), original, "ics → \(hops.joined(separator: " → "))")
            XCTAssertFalse(
                log.diagnostics.contains { $0.message.contains("RSCALE") || $0.message.contains("non-Gregorian") },
                "\(hops): \(log.diagnostics.map(\.message))")
        }
    }

    // MARK: lowering

    struct OracleCase: Decodable {
        var rrule: String
        var dtstart: String
        var dates: [String]
    }

    /// The PyPI oracles' cases (RecurrenceTests/Fixtures/rscale/oracle.py).
    static func oracle() throws -> [String: OracleCase] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RecurrenceTests/Fixtures/rscale/oracle.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("oracle.py needs `make deps` (lunardate, pyluach, convertdate, hijridate)")
        }
        return try JSONDecoder().decode([String: OracleCase].self, from: data)
    }

    static let loweredCases = [
        "chinese-new-year", "mid-autumn", "chinese-leap-6-omit", "chinese-leap-6-backward", "chinese-leap-6-forward",
        "chinese-12-30-forward", "rosh-hashanah", "hebrew-adar-i-14-forward", "purim", "ramadan-civil", "nowruz",
    ]

    func lowered(to format: String, extraArguments: [String]) throws -> (cases: [OracleCase], output: String, stderr: String) {
        let oracle = try Self.oracle()
        let cases = try Self.loweredCases.map { try XCTUnwrap(oracle[$0], $0) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rscale-lowering-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.calendar(cases.map { ($0.rrule, $0.dtstart) }).write(
            to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
        let run = try CommandRunner(directory: directory).calport(["convert", "in.ics", "-t", format, "-o", "out"] + extraArguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        let output = try String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)
        return (cases, output, run.stderr)
    }

    /// The oracle's dates from 2024-01-01 up to 2054-01-01.
    static func window(_ c: OracleCase) -> [String] { c.dates.filter { $0 >= "20240101" && $0 < "20540101" } }

    func testLoweringToICSGivesTheOracleDatesAsRDATEsWithALossWarning() throws {
        let (cases, ics, stderr) = try lowered(to: "ics", extraArguments: ["--lower-rscale", "2024-01-01..2054-01-01"])
        XCTAssertFalse(ics.contains("RRULE"), "never a Gregorian (or any) rule in place of a lunar one")
        let events = ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "BEGIN:VEVENT").dropFirst()
        XCTAssertEqual(events.count, cases.count)
        for (index, (event, c)) in zip(events, cases).enumerated() {
            let lines = event.components(separatedBy: "\r\n")
            let start = lines.first { $0.hasPrefix("DTSTART") }.map { String($0.suffix(8)) }
            let rdates = lines.filter { $0.hasPrefix("RDATE") }.flatMap {
                $0.split(separator: ":")[1].split(separator: ",").map(String.init)
            }
            XCTAssertEqual(([start].compactMap { $0 } + rdates).sorted(), Self.window(c), "case \(index): \(c.rrule)")
            let canonical = try RecurrenceRule(rfc5545: c.rrule).rfc5545Text
            XCTAssertTrue(stderr.contains("RRULE:\(canonical)"), "a loss warning names \(canonical)")
        }
        XCTAssertTrue(stderr.contains("--lower-rscale asks for dates"))
    }

    func testLoweringToCSVGivesTheOracleDatesAsRowsWithALossWarning() throws {
        let (cases, csv, stderr) = try lowered(to: "csv-google", extraArguments: ["--lower-rscale", "2024-01-01..2054-01-01"])
        var rows: [String: [String]] = [:]
        for line in csv.components(separatedBy: "\r\n").dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let parts = cells[1].split(separator: "/").compactMap { Int($0) }  // M/d/yyyy
            rows[cells[0], default: []].append(String(format: "%04d%02d%02d", parts[2], parts[0], parts[1]))
        }
        for (index, c) in cases.enumerated() {
            XCTAssertEqual(rows["case \(index)"]?.sorted(), Self.window(c), "case \(index): \(c.rrule)")
            let canonical = try RecurrenceRule(rfc5545: c.rrule).rfc5545Text
            XCTAssertTrue(stderr.contains("RRULE:\(canonical)"), "a loss warning names \(canonical)")
        }
        XCTAssertTrue(stderr.contains("which csv-google cannot hold"))
        // Without --lower-rscale the window is 30 years from each series' start: New Year from
        // 2024-02-10 up to (not including) 2054-02-10, which holds 2054's (February 8).
        let (_, defaultWindow, _) = try lowered(to: "csv-google", extraArguments: [])
        let newYears = defaultWindow.components(separatedBy: "\r\n").filter { $0.hasPrefix("case 0,") }
        XCTAssertEqual(newYears.count, 31)
        XCTAssertEqual(newYears.last?.split(separator: ",")[1], "2/8/2054")
    }

    func testUnknownRSCALEIsAnErrorUnderStrictElseKeptVerbatimWithAWarning() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rscale-unknown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.calendar([("RSCALE=RUSSIAN;FREQ=YEARLY", "20131025")]).write(
            to: directory.appendingPathComponent("in.ics"), atomically: true, encoding: .utf8)
        let runner = CommandRunner(directory: directory)
        let strict = try runner.calport(["convert", "in.ics", "-t", "ics", "-o", "strict.ics", "--strict"])
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("in.ics:8"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("RSCALE=RUSSIAN names no calendar system"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.ics").path))
        for arguments in [["-t", "ics"], ["-t", "ics", "--expand", "--start", "2013-01-01", "--end", "2020-01-01"], ["-t", "csv-google"]] {
            let run = try runner.calport(["convert", "in.ics", "-o", "out"] + arguments)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("RSCALE=RUSSIAN names no calendar system"), "\(arguments): \(run.stderr)")
            let out = try String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)
            if arguments[1] == "ics" {
                XCTAssertTrue(out.contains("RRULE:RSCALE=RUSSIAN;FREQ=YEARLY"), "kept verbatim, not expanded: \(out)")
                XCTAssertFalse(out.contains("RECURRENCE-ID"))
            }
        }
    }
}
