import CalendarModel
import JSONCoding
import XCTest

@testable import JSONFormat

/// model → json/jsonl → model keeps every field; the bytes match the schema.
final class NativeJSONRoundTripTests: XCTestCase {
    static func write(_ elements: [CalendarStreamElement], format: any CalendarFormat) throws -> MemoryByteSink {
        let sink = MemoryByteSink()
        var writer = format.makeWriter(sink: sink, options: WriteOptions(destinationName: "out"), log: DiagnosticLog())
        for e in elements { try writer.write(e) }
        try writer.finish()
        return sink
    }

    static func read(
        _ bytes: [UInt8], format: any CalendarFormat, log: DiagnosticLog = DiagnosticLog(), strict: Bool = true, chunkSize: Int = 7
    )
        throws -> [CalendarStreamElement]
    {
        var reader = format.makeReader(
            source: MemoryByteSource(bytes, chunkSize: chunkSize), options: ReadOptions(sourceName: "in.json", strict: strict), log: log)
        var result: [CalendarStreamElement] = []
        while let e = try reader.next() { result.append(e) }
        return result
    }

    func assertRoundTrip(_ format: any CalendarFormat, file: StaticString = #filePath, line: UInt = #line) throws {
        let original = ModelSamples.fullStream
        let text = try Self.write(original, format: format)
        let log = DiagnosticLog()
        let back = try Self.read(text.bytes, format: format, log: log)
        XCTAssertEqual(log.diagnostics, [], file: file, line: line)
        XCTAssertEqual(back.count, original.count, file: file, line: line)
        for (a, b) in zip(original, back.map(\.withoutLine)) {
            XCTAssertEqual(a, b, file: file, line: line)
            if a != b {
                // Say which entry differs, not just that one does.
                let again = try Self.write([b], format: format).text
                let first = try Self.write([a], format: format).text
                XCTAssertEqual(first, again, file: file, line: line)
            }
        }
        // Writing what was read gives the same bytes: the output is canonical.
        XCTAssertEqual(try Self.write(back, format: format).text, text.text, file: file, line: line)
    }

    func testDocumentKeepsEveryField() throws {
        try assertRoundTrip(NativeJSONFormat())
    }

    func testJSONLinesKeepsEveryField() throws {
        try assertRoundTrip(JSONLinesFormat())
    }

    func testDocumentMatchesSchema() throws {
        let text = try Self.write(ModelSamples.fullStream, format: NativeJSONFormat()).text
        try SchemaValidator.assertValid(text, schema: "calport.schema.json")
        try SchemaValidator.assertValid(text, schema: "calport.schema.json", definition: "document")
    }

    func testJSONLinesMatchSchema() throws {
        let text = try Self.write(ModelSamples.fullStream, format: JSONLinesFormat()).text
        try SchemaValidator.assertValid(text, schema: "calport.schema.json", lines: true, definition: "line")
    }

    func testSchemaRejectsWhatTheReaderRejects() throws {
        // The validator must be able to fail: a misspelt member is not calport JSON.
        let bad = #"{"format":"calport-json","version":1,"calendars":[{"calendar":{"titel":"x"},"entries":[]}]}"#
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-bad-\(UUID().uuidString).json")
        try Data(bad.utf8).write(to: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", SchemaValidator.schema("validate.py").path, SchemaValidator.schema("calport.schema.json").path, dir.path,
        ]
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertThrowsError(try Self.read(Array(bad.utf8), format: NativeJSONFormat(), strict: true))
    }

    func testJSONLinesIsOneElementPerLineNamingItsCalendar() throws {
        let text = try Self.write(ModelSamples.fullStream, format: JSONLinesFormat()).text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, ModelSamples.fullStream.count + 1)  // and a final newline
        XCTAssertEqual(lines.last, "")
        XCTAssertTrue(lines[2].hasPrefix(#"{"calendar":"Work ✓","calendarIndex":0,"event":{"#), String(lines[2]))
        XCTAssertTrue(lines[10].hasPrefix(#"{"calendarIndex":1,"event":{"#), String(lines[10]))
    }

    func testEmptyStreamIsAValidDocument() throws {
        let text = try Self.write([], format: NativeJSONFormat()).text
        XCTAssertEqual(text, "{\"format\":\"calport-json\",\"version\":1,\"calendars\":[\n]}\n")
        XCTAssertEqual(try Self.read(Array(text.utf8), format: NativeJSONFormat()), [])
        try SchemaValidator.assertValid(text, schema: "calport.schema.json")
    }
}
