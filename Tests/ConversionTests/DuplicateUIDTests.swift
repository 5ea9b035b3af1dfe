import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Without `--merge`, two inputs that put the same UID (+ RECURRENCE-ID) into one output file
/// keep both items (as documented) and a warning names the UID, both places and `--merge`.
final class DuplicateUIDTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: work) }

    func write(_ name: String, _ lines: [String]) throws -> String {
        let url = work.appendingPathComponent(name)
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: url)
        return url.path
    }

    func event(_ uid: String, _ extra: [String] = []) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z"] + extra + ["END:VEVENT"]
    }

    func calendar(_ events: [[String]]) -> [String] {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN"] + events.flatMap { $0 } + ["END:VCALENDAR"]
    }

    func duplicateWarnings(_ log: DiagnosticLog) -> [Diagnostic] {
        log.diagnostics.filter { $0.message.contains("--merge") }
    }

    func testRFC5546ExamplesSharingAUIDWarnWithBothPlacesAndKeepBoth() throws {
        // RFC 5546 §4.1.1 and §4.1.3 give two different events the same UID.
        let folder = RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc5546/vcalendar")
        let first = folder.appendingPathComponent("001.ics").path
        let second = folder.appendingPathComponent("005.ics").path
        let output = work.appendingPathComponent("both.ics").path
        for jobs in [1, 2] {
            let log = DiagnosticLog()
            try Converter().run(ConversionRequest(inputs: [first, second], output: output, jobs: jobs), log: log)
            let warnings = duplicateWarnings(log)
            XCTAssertEqual(warnings.count, 1, "\(log.diagnostics)")
            let warning = try XCTUnwrap(warnings.first)
            XCTAssertEqual(warning.file, second)
            XCTAssertEqual(warning.line, 5)
            XCTAssertTrue(warning.message.contains("UID 0981234-1234234-23@example.com"), warning.message)
            XCTAssertTrue(warning.message.contains("\(first):5"), warning.message)
            let text = try String(contentsOfFile: output, encoding: .utf8)
            XCTAssertEqual(text.components(separatedBy: "UID:0981234-1234234-23@example.com").count - 1, 2, "both are written")
        }
    }

    func testOverridesOfOneSeriesAreNoDuplicatesButARepeatedOverrideIs() throws {
        let a = try write("a.ics", calendar([event("s@x"), event("s@x", ["RECURRENCE-ID:20260112T100000Z"])]))
        let b = try write("b.ics", calendar([event("s@x", ["RECURRENCE-ID:20260119T100000Z"]), event("s@x", ["RECURRENCE-ID:20260112T100000Z"])]))
        let log = DiagnosticLog()
        try Converter().run(ConversionRequest(inputs: [a, b], output: work.appendingPathComponent("o.ics").path), log: log)
        let warnings = duplicateWarnings(log)
        XCTAssertEqual(warnings.map(\.file), [b])
        XCTAssertEqual(warnings.map(\.line), [10])
        XCTAssertTrue(warnings.first?.message.contains("UID s@x (RECURRENCE-ID 20260112T100000Z)") ?? false, "\(warnings)")
        XCTAssertTrue(warnings.first?.message.contains("\(a):9") ?? false, "\(warnings)")
    }

    func testMergeAndSeparateOutputsDoNotWarn() throws {
        let a = try write("a.ics", calendar([event("same@x")]))
        let b = try write("b.ics", calendar([event("same@x")]))
        let merged = DiagnosticLog()
        try Converter().run(ConversionRequest(inputs: [a, b], output: work.appendingPathComponent("m.ics").path, merge: true), log: merged)
        XCTAssertEqual(duplicateWarnings(merged).count, 0, "\(merged.diagnostics)")
        // One file per input calendar: the two items never meet in one output.
        let apart = DiagnosticLog()
        try Converter().run(
            ConversionRequest(inputs: [a, b], output: work.appendingPathComponent("dir").path, outputFormat: "ics", outputLayout: .directory),
            log: apart)
        XCTAssertEqual(duplicateWarnings(apart).count, 0, "\(apart.diagnostics)")
    }
}
