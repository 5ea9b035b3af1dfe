import CalendarTestSupport
import Foundation
import XCTest

/// Real-world slips calport must neither pass on silently nor let corrupt their neighbours: each
/// case in Fixtures/fidelity converts ICS → ICS, and python's icalendar with the x-wr-timezone
/// package (Tests/Oracles/ics_meaning.py, no code shared with calport) finds the output means
/// what the input does. `<case>.meaning.ics`, where present, is the input as RFC 5545 would have
/// it once the warned repair is made; `<case>.warnings` lists the warnings (line, text) the
/// conversion must give, and no other.
final class FidelityRoundTripTests: XCTestCase {
    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fidelity")
    var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-fidelity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    private func convert(_ name: String, _ extra: [String] = [], output: String) throws -> CommandRunner.Run {
        let input = Self.folder.appendingPathComponent("\(name).ics").path
        return try CommandRunner(directory: workDirectory).calport(["convert", input, "-o", output] + extra)
    }

    /// Runs the oracle on the case's meaning (or input) and an output; fails with its report.
    private func assertSameMeaning(_ name: String, output: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let meaning = Self.folder.appendingPathComponent("\(name).meaning.ics")
        let reference = FileManager.default.fileExists(atPath: meaning.path) ? meaning : Self.folder.appendingPathComponent("\(name).ics")
        XCTAssertNoThrow(
            try PythonOracle.run("ics_meaning.py", [reference.path, workDirectory.appendingPathComponent(output).path]),
            "\(name) \(context)", file: file, line: line)
    }

    private func expectedWarnings(_ name: String) throws -> [String] {
        let url = Self.folder.appendingPathComponent("\(name).warnings")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { row in
            let cells = row.split(separator: "\t", maxSplits: 1)
            return "\(name).ics:\(cells[0]): warning: \(cells[1])"
        }
    }

    func testEachCaseRoundTripsWithNoUnwarnedChange() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".ics") && !$0.hasSuffix(".meaning.ics") }.map { String($0.dropLast(4)) }.sorted()
        XCTAssertEqual(names.count, 6)
        for name in names {
            let run = try convert(name, output: "\(name).out.ics")
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            let warnings = run.stderr.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") }
                .map { $0.replacingOccurrences(of: Self.folder.path + "/", with: "") }
            XCTAssertEqual(warnings, try expectedWarnings(name), name)
            assertSameMeaning(name, output: "\(name).out.ics", "ICS → ICS")
        }
    }

    /// The colon-less property line is skipped, not glued into the line above: the summary
    /// (and, in the second event, DTSTAMP) keep their values, and strict mode refuses the file.
    func testPropertyLineWithoutColonIsSkippedNotJoined() throws {
        let run = try convert("colonless-property-line", output: "out.ics")
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = try String(contentsOf: workDirectory.appendingPathComponent("out.ics"), encoding: .utf8)
        XCTAssertTrue(text.contains("SUMMARY:Budget review\r\n"), text)
        XCTAssertTrue(text.contains("DTSTAMP:20260105T120000Z\r\nDTSTART:20260113T090000Z"), text)
        XCTAssertFalse(text.contains("ORGANIZER"), text)
        let strict = try convert("colonless-property-line", ["--strict"], output: "strict.ics")
        XCTAssertEqual(strict.status, 65, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("colonless-property-line.ics:10"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDirectory.appendingPathComponent("strict.ics").path))
    }

    /// Spaces and quotes in parameters are written as they mean; strict mode refuses the stray spaces.
    func testSpacedAndQuotedParametersAreWrittenValid() throws {
        _ = try convert("parameter-value-with-edge-spaces", output: "edges.ics")
        let edges = try String(contentsOf: workDirectory.appendingPathComponent("edges.ics"), encoding: .utf8)
        XCTAssertTrue(edges.contains("ORGANIZER;CN=\" Jane Doe\":mailto:jane@example.com"), edges)
        XCTAssertTrue(edges.contains("ATTENDEE;CN=\"John Smith \";ROLE=REQ-PARTICIPANT"), edges)
        _ = try convert("quoted-list-with-space-after-comma", output: "list.ics")
        let list = try String(contentsOf: workDirectory.appendingPathComponent("list.ics"), encoding: .utf8)
        XCTAssertTrue(
            list.replacingOccurrences(of: "\r\n ", with: "").contains(
                "DELEGATED-TO=\"mailto:a@example.com\",\"mailto:b@example.com\":mailto:boss@example.com"), list)
        _ = try convert("space-after-closing-quote", output: "quote.ics")
        let quote = try String(contentsOf: workDirectory.appendingPathComponent("quote.ics"), encoding: .utf8)
        XCTAssertTrue(
            quote.replacingOccurrences(of: "\r\n ", with: "").contains(
                "ATTENDEE;CN=\"Doe, John\";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:john@example.com"), quote)
        for name in ["quoted-list-with-space-after-comma", "space-after-closing-quote"] {
            let strict = try convert(name, ["--strict"], output: "strict.ics")
            XCTAssertEqual(strict.status, 65, strict.stderr)
            XCTAssertTrue(strict.stderr.contains("\(name).ics:11"), strict.stderr)
        }
    }

    /// Floating times of an X-WR-TIMEZONE calendar keep their instants when the output moves
    /// zones: DTSTART, DTEND, RECURRENCE-ID, EXDATE and RDATE alike, with one event or a series
    /// (across both Berlin's and New York's daylight-saving changes).
    func testXWRTimeZoneFloatingTimesKeepTheirInstantsInEveryOutputZone() throws {
        for name in ["x-wr-timezone-single-event", "x-wr-timezone-series"] {
            for (mode, arguments) in [("keep", [String]()), ("utc", ["--tz", "utc"]), ("new-york", ["--tz", "America/New_York"])] {
                let output = "\(name).\(mode).ics"
                let run = try convert(name, arguments, output: output)
                XCTAssertEqual(run.status, 0, run.stderr)
                assertSameMeaning(name, output: output, "--tz \(mode)")
            }
        }
        let text = try String(contentsOf: workDirectory.appendingPathComponent("x-wr-timezone-series.new-york.ics"), encoding: .utf8)
        for line in [
            "DTSTART;TZID=America/New_York:20260310T040000", "EXDATE;TZID=America/New_York:20260317T040000",
            "RDATE;TZID=America/New_York:20260402T030000", "RECURRENCE-ID;TZID=America/New_York:20260331T030000",
        ] {
            XCTAssertTrue(text.contains(line + "\r\n"), "\(line) in\n\(text)")
        }
    }
}
