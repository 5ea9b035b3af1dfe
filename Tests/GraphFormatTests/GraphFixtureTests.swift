import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

@testable import GraphFormat

/// Walks Fixtures/: each `<case>.json` converts (through the whole pipeline, as a user runs
/// it) to `<case>.expected.ics`, and Graph → ICS → Graph → ICS says the same as Graph → ICS.
/// Each invalid/<case>.json exits 65 with `<case>.expected.txt` in its message.
final class GraphFixtureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    let runner = CommandRunner(directory: GraphFixtureTests.fixtures)

    static func cases(_ folder: String = "") throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.contains(".expected.") }
            .sorted { $0.path < $1.path }
    }

    func convert(_ input: URL, from: String, to: String, extra: [String] = []) throws -> (String, CommandRunner.Run) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "graph-\(UUID().uuidString).\(to == "ics" ? "ics" : "json")")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try runner.calport(["convert", "-f", from, "-t", to, input.path, "-o", output.path] + extra)
        XCTAssertEqual(run.status, 0, "\(input.lastPathComponent): \(run.stderr)")
        return ((try? String(contentsOf: output, encoding: .utf8)) ?? "", run)
    }

    func write(_ text: String, ext: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString).\(ext)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testGoldenPairs() throws {
        let files = try Self.cases()
        XCTAssertGreaterThanOrEqual(files.count, 6)
        for file in files {
            let expected = try String(contentsOf: file.deletingPathExtension().appendingPathExtension("expected.ics"), encoding: .utf8)
            let (ics, _) = try convert(file, from: "graph", to: "ics")
            XCTAssertEqual(ics, expected, file.lastPathComponent)
        }
    }

    func testGraphToICSToGraphToICSIsStable() throws {
        // Every valid fixture is walked: as many cases as golden ICS files.
        let goldens = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".expected.ics") }
        let files = try Self.cases()
        XCTAssertEqual(files.count, goldens.count)
        for file in files {
            let (first, _) = try convert(file, from: "graph", to: "ics")
            let icsFile = try write(first, ext: "ics")
            defer { try? FileManager.default.removeItem(at: icsFile) }
            let (graph, _) = try convert(icsFile, from: "ics", to: "graph")
            let graphFile = try write(graph, ext: "json")
            defer { try? FileManager.default.removeItem(at: graphFile) }
            let (second, _) = try convert(graphFile, from: "graph", to: "ics")
            let difference = RoundTripCheck.difference(
                try RoundTripCheck.trees(of: Array(first.utf8)), try RoundTripCheck.trees(of: Array(second.utf8)))
            XCTAssertNil(difference, file.lastPathComponent)
        }
    }

    /// calendarView: the master, an occurrence, one moved exception, one occurrence absent from
    /// the window (2024-03-08): one series, one override, no EXDATE; with cancelledOccurrences, the EXDATE.
    func testCalendarViewGivesOneSeriesOneOverrideAndEXDATEOnlyWhenCancelled() throws {
        let (plain, _) = try convert(
            Self.fixtures.appendingPathComponent("calendarview-series-moved-exception-missing-occurrence.json"), from: "graph", to: "ics")
        XCTAssertEqual(plain.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
        XCTAssertEqual(plain.components(separatedBy: "RECURRENCE-ID;TZID=Europe/Berlin:20240306T093000").count - 1, 1)
        XCTAssertEqual(plain.components(separatedBy: "RRULE:FREQ=WEEKLY;COUNT=12;BYDAY=MO,WE,FR").count - 1, 1)
        XCTAssertFalse(plain.contains("EXDATE"))
        let (cancelled, _) = try convert(
            Self.fixtures.appendingPathComponent("calendarview-series-cancelled-occurrence.json"), from: "graph", to: "ics")
        XCTAssertEqual(cancelled.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
        XCTAssertTrue(cancelled.contains("EXDATE;TZID=Europe/Berlin:20240308T093000"))
    }

    /// Instances whose master comes later are held; without a master they are written alone, with a warning.
    func testOccurrencesBeforeTheirMasterAndWithoutOne() throws {
        let source = try String(
            contentsOf: Self.fixtures.appendingPathComponent("calendarview-series-moved-exception-missing-occurrence.json"), encoding: .utf8
        )
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any])
        var values = try XCTUnwrap(object["value"] as? [[String: Any]])
        values.append(values.removeFirst())  // master last
        let reordered = try write(
            String(decoding: try JSONSerialization.data(withJSONObject: ["value": values]), as: UTF8.self), ext: "json")
        defer { try? FileManager.default.removeItem(at: reordered) }
        let (late, _) = try convert(reordered, from: "graph", to: "ics")
        XCTAssertEqual(late.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
        XCTAssertTrue(late.contains("RECURRENCE-ID;TZID=Europe/Berlin:20240306T093000"))

        values.removeLast()  // no master at all
        let orphans = try write(String(decoding: try JSONSerialization.data(withJSONObject: ["value": values]), as: UTF8.self), ext: "json")
        defer { try? FileManager.default.removeItem(at: orphans) }
        let (alone, run) = try convert(orphans, from: "graph", to: "ics")
        XCTAssertEqual(alone.components(separatedBy: "BEGIN:VEVENT").count - 1, 3)
        XCTAssertTrue(run.stderr.contains("series master is not in the input"), run.stderr)
    }

    func testDeltaReportsDeletionsAndTheDeltaLink() throws {
        let (_, run) = try convert(Self.fixtures.appendingPathComponent("delta-removed-and-deltalink.json"), from: "graph", to: "ics")
        XCTAssertTrue(run.stderr.contains("/value/1/@removed: warning: deletion reported by the source: event AAMkADNkNmAB="), run.stderr)
        XCTAssertTrue(
            run.stderr.contains("delta link for the next sync: https://graph.microsoft.com/v1.0/me/calendarView/delta?$deltatoken="))
    }

    func testInvalidInputExits65NamingThePlace() throws {
        let cases: [(String, String)] = [
            (
                "{\"error\": {\"code\": \"ErrorAccessDenied\", \"message\": \"Access is denied.\"}}",
                ":1:/error: error: Graph returned an error, not events: ErrorAccessDenied"
            ),
            (
                "{\"value\": [{\"subject\": \"x\", \"start\": {\"dateTime\": \"tomorrow\", \"timeZone\": \"UTC\"}}]}",
                ":1:/value/0/start/dateTime: error: expected a date-time"
            ),
            ("{\"value\": [{\"displayName\": \"Calendar\", \"color\": \"auto\"}]}", ":1:/value/0: error: not a Graph event"),
            (
                "{\"value\": [{\"subject\": \"x\", \"recurrence\": {\"pattern\": {\"type\": \"hourly\"}, \"range\": {}}}]}",
                "/value/0/recurrence/pattern/type: error: unknown recurrence pattern type"
            ),
            (
                "[{\"Subject\": \"x\", \"Start\": \"Microsoft.Graph.PowerShell.Models.MicrosoftGraphDateTimeZone\"}]",
                "/0/start: error: expected an object, found string (PowerShell: use ConvertTo-Json -Depth 10)"
            ),
            ("{\"value\": [{\"subject\": \"x\"", "unexpected end of input"),
            // PowerShell 5's /Date(milliseconds)/ beyond the years 0000–9999: near Int.min it trapped, at Int.max
            // CREATED had a 13-digit year.
            (#"[{"Subject": "x", "CreatedDateTime": "/Date(-9223372036854775808)/"}]"#, #"/0/createdDateTime: error: not a date-time"#),
            (#"[{"Subject": "x", "CreatedDateTime": "/Date(9223372036854775807)/"}]"#, #"/0/createdDateTime: error: not a date-time"#),
            (#"[{"Subject": "x", "CreatedDateTime": "/Date(253402300800000)/"}]"#, #"/0/createdDateTime: error: not a date-time"#),
        ]
        for (text, message) in cases {
            let input = try write(text, ext: "json")
            defer { try? FileManager.default.removeItem(at: input) }
            let run = try runner.calport(["convert", "-f", "graph", "-t", "ics", input.path, "-o", "-"])
            XCTAssertEqual(run.status, 65, text)
            XCTAssertTrue(run.stderr.contains(message), "\(text): \(run.stderr)")
        }
    }

    func testBatchBodiesHoldTwentyRequestsEach() throws {
        var values: [[String: Any]] = []
        for i in 0..<45 {
            values.append([
                "subject": "Event \(i)", "iCalUId": "uid-\(i)", "type": "singleInstance",
                "start": ["dateTime": "2024-06-01T10:00:00.0000000", "timeZone": "UTC"],
                "end": ["dateTime": "2024-06-01T11:00:00.0000000", "timeZone": "UTC"],
            ])
        }
        let input = try write(String(decoding: try JSONSerialization.data(withJSONObject: ["value": values]), as: UTF8.self), ext: "json")
        defer { try? FileManager.default.removeItem(at: input) }
        let (text, _) = try convert(input, from: "graph", to: "graph", extra: ["--graph-batch"])
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        var counts: [Int] = []
        for line in lines {
            let batch = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let requests = try XCTUnwrap(batch["requests"] as? [[String: Any]])
            counts.append(requests.count)
            for r in requests {
                XCTAssertEqual(r["method"] as? String, "POST")
                XCTAssertEqual(r["url"] as? String, "/me/events")
                XCTAssertNotNil(r["body"] as? [String: Any])
            }
            XCTAssertEqual(Set(requests.compactMap { $0["id"] as? String }).count, requests.count)
        }
        XCTAssertEqual(counts, [20, 20, 5])
    }

    func testSniffTakesGraphAndNothingElse() throws {
        for file in try Self.cases() {
            XCTAssertTrue(GraphFormat().sniff(Array(try Data(contentsOf: file))), file.lastPathComponent)
        }
        let others = [
            "{\"format\":\"calport\",\"version\":1,\"calendars\":[]}",
            "[\"vcalendar\",[[\"version\",{},\"text\",\"2.0\"]],[]]",
            "{\"@type\":\"Group\",\"entries\":[{\"@type\":\"Event\",\"start\":\"2024-01-01T10:00:00\"}]}",
            "{\"@type\":\"Event\",\"uid\":\"a\",\"title\":\"x\",\"start\":\"2024-01-01T10:00:00\",\"showWithoutTime\":false}",
            "{\"name\": \"package\", \"version\": \"1.0.0\", \"dependencies\": {}}",
        ]
        for text in others { XCTAssertFalse(GraphFormat().sniff(Array(text.utf8)), text) }
    }
}
