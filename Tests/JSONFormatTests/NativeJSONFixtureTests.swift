import CalendarModel
import Foundation
import XCTest

@testable import JSONFormat

/// Walks Fixtures/<format>/valid and /invalid: adding a case is adding a file.
/// A valid case reads without diagnostics, writes back byte for byte (or as its
/// `<case>.expected.<ext>`), and matches the schema; an invalid case fails in strict mode with
/// exactly the diagnostic in `<case>.expected.txt`.
final class NativeJSONFixtureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func cases(_ folder: String, ext: String) throws -> [URL] {
        let dir = Self.fixtures.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == ext && !$0.lastPathComponent.contains(".expected.") }
            .sorted { $0.path < $1.path }
    }

    func checkValid(format: any CalendarFormat, folder: String, ext: String, lines: Bool) throws {
        let files = try cases(folder, ext: ext)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let input = try Data(contentsOf: file)
            let log = DiagnosticLog()
            let elements = try NativeJSONRoundTripTests.read([UInt8](input), format: format, log: log)
            XCTAssertEqual(log.diagnostics, [], file.lastPathComponent)
            let expectedURL = file.deletingPathExtension().appendingPathExtension("expected.\(ext)")
            let expected = (try? String(contentsOf: expectedURL, encoding: .utf8)) ?? String(decoding: input, as: UTF8.self)
            let written = try NativeJSONRoundTripTests.write(elements, format: format).text
            XCTAssertEqual(written, expected, file.lastPathComponent)
            try SchemaValidator.assertValid(written, schema: "calport.schema.json", lines: lines, definition: lines ? "line" : "document")
        }
    }

    func checkInvalid(format: any CalendarFormat, folder: String, ext: String) throws {
        let files = try cases(folder, ext: ext)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let expected = try String(
                contentsOf: file.deletingPathExtension().appendingPathExtension("expected.txt"), encoding: .utf8
            ).trimmingCharacters(in: .newlines)
            var reader = format.makeReader(
                source: MemoryByteSource([UInt8](try Data(contentsOf: file))),
                options: ReadOptions(sourceName: file.lastPathComponent, strict: true), log: DiagnosticLog())
            do {
                while try reader.next() != nil {}
                XCTFail("\(file.lastPathComponent) was read without error")
            } catch let error as CalendarError {
                XCTAssertEqual(error.description, expected)
                XCTAssertEqual(error.kind, .data)
            }
        }
    }

    func testValidDocuments() throws {
        try checkValid(format: NativeJSONFormat(), folder: "json/valid", ext: "json", lines: false)
    }

    func testValidJSONLines() throws {
        try checkValid(format: JSONLinesFormat(), folder: "jsonl/valid", ext: "jsonl", lines: true)
    }

    func testInvalidDocuments() throws {
        try checkInvalid(format: NativeJSONFormat(), folder: "json/invalid", ext: "json")
    }

    func testInvalidJSONLines() throws {
        try checkInvalid(format: JSONLinesFormat(), folder: "jsonl/invalid", ext: "jsonl")
    }

    func testDateTimeFormsReadAsWallTimeWithVerbatimZone() throws {
        let file = Self.fixtures.appendingPathComponent("json/valid/date-time-forms-keep-zone-and-wall-time.json")
        let elements = try NativeJSONRoundTripTests.read([UInt8](try Data(contentsOf: file)), format: NativeJSONFormat())
        let events = elements.compactMap { e -> Event? in
            if case .entry(.event(let ev), _) = e { return ev }
            return nil
        }
        XCTAssertEqual(events.count, 4)
        XCTAssertEqual(
            events[0].start,
            CalendarDateTime(
                date: .init(year: 2024, month: 3, day: 31), time: .init(hour: 2, minute: 30, second: 0), reference: .zone("Europe/Berlin")))
        XCTAssertEqual(events[0].end?.reference, .zone("/mozilla.org/20050126_1/Europe/Berlin"))
        XCTAssertEqual(events[1].start?.reference, .utc)
        XCTAssertEqual(events[1].duration, CalendarDuration(hours: 1))
        XCTAssertEqual(events[2].start?.reference, .floating)
        XCTAssertEqual(events[3].start, .day(2024, 2, 29))
        XCTAssertTrue(events[3].isAllDay)
    }

    func testUnknownMemberIsAWarningWhenLenient() throws {
        let text =
            "{\"format\":\"calport-json\",\"version\":1,\"calendars\":[\n{\"calendar\":{\"type\":\"local\"},\"entries\":[\n{\"event\":{\"titel\":\"typo\"}}\n]}\n]}\n"
        let log = DiagnosticLog()
        let elements = try NativeJSONRoundTripTests.read(Array(text.utf8), format: NativeJSONFormat(), log: log, strict: false)
        XCTAssertEqual(elements.count, 3)
        XCTAssertEqual(log.diagnostics.map(\.description), ["in.json:3:/event/titel: warning: unknown member 'titel' is ignored"])
    }

    func testEntriesCarryTheLineTheyStartOn() throws {
        let file = Self.fixtures.appendingPathComponent("json/valid/date-time-forms-keep-zone-and-wall-time.json")
        let elements = try NativeJSONRoundTripTests.read([UInt8](try Data(contentsOf: file)), format: NativeJSONFormat())
        let lines = elements.compactMap { e -> Int? in
            if case .entry(_, let line) = e { return line }
            return nil
        }
        XCTAssertEqual(lines, [3, 4, 5, 6])
    }
}
