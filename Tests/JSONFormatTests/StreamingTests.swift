import CalendarModel
import JSONCoding
import XCTest

@testable import JSONFormat

/// Readers hand on the first item before reading the rest; writers hand bytes to the sink
/// while items still arrive. Proved by counting bytes, not by timing.
final class StreamingTests: XCTestCase {
    static func manyEvents(_ n: Int) -> [CalendarStreamElement] {
        var elements: [CalendarStreamElement] = [.beginCalendar(CalendarModel.Calendar(title: "Big"))]
        for i in 0..<n {
            var e = Event(item: CalendarItem(uid: "event-\(i)", title: "Event number \(i)", start: .day(2024, 1, 1)))
            e.item.notes = String(repeating: "x", count: 100)
            elements.append(.entry(.event(e), line: 0))
        }
        elements.append(.endCalendar(trailingProperties: []))
        return elements
    }

    func assertReaderStreams(_ format: any CalendarFormat) throws {
        let bytes = try NativeJSONRoundTripTests.write(Self.manyEvents(3000), format: format).bytes
        let source = MemoryByteSource(bytes, chunkSize: 4096)
        var reader = format.makeReader(source: source, options: ReadOptions(sourceName: "big"), log: DiagnosticLog())
        guard case .beginCalendar = try reader.next(), case .entry(.event(let first), _) = try reader.next() else {
            return XCTFail("expected a calendar and its first event")
        }
        XCTAssertEqual(first.uid, "event-0")
        // Two elements in, the reader has taken at most its 64 KiB buffer of a ~600 KB input.
        XCTAssertGreaterThan(bytes.count, 500_000)
        XCTAssertLessThanOrEqual(source.consumed, 64 * 1024)
        var count = 1
        while let e = try reader.next() { if case .entry = e { count += 1 } }
        XCTAssertEqual(count, 3000)
        XCTAssertEqual(source.consumed, bytes.count)
    }

    func testDocumentReaderStreams() throws {
        try assertReaderStreams(NativeJSONFormat())
    }

    func testJSONLinesReaderStreams() throws {
        try assertReaderStreams(JSONLinesFormat())
    }

    func testJSONLinesWriterHandsOnBytesBeforeTheEnd() throws {
        let sink = MemoryByteSink()
        var writer = JSONLinesFormat().makeWriter(sink: sink, options: WriteOptions(destinationName: "-"), log: DiagnosticLog())
        let elements = Self.manyEvents(3000)
        for e in elements.prefix(1000) { try writer.write(e) }
        // Before the stream ends, most of what was written has reached the sink already.
        XCTAssertGreaterThan(sink.bytes.count, 100_000)
        for e in elements.dropFirst(1000) { try writer.write(e) }
        try writer.finish()
        XCTAssertGreaterThan(sink.writes, 5)
        XCTAssertEqual(sink.text.split(separator: "\n").count, elements.count)
    }
}

/// The byte-level parser refuses what RFC 8259 refuses.
final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue {
        var p = JSONParser(source: MemoryByteSource(text, chunkSize: 3), sourceName: "t")
        let v = try p.readValue()
        guard try p.isAtEnd() else { throw p.error("content after the value") }
        return v
    }

    func testNumbersKeepTheirText() throws {
        XCTAssertEqual(try parse("-0.5e+10"), .number("-0.5e+10"))
        XCTAssertEqual(try parse("9007199254740993").intValue, 9_007_199_254_740_993)
        for bad in ["01", "1.", "-", ".5", "1e", "+1", "0x10"] {
            XCTAssertThrowsError(try parse(bad), bad)
        }
    }

    func testStringsDecodeEscapesAndSurrogatePairs() throws {
        XCTAssertEqual(try parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#), .string("a\"\\/\u{8}\u{c}\n\r\té😀"))
        XCTAssertThrowsError(try parse("\"tab\there\""))
        XCTAssertThrowsError(try parse(#""\udc00""#))
    }

    func testObjectsKeepMemberOrder() throws {
        let v = try parse(#" { "b" : 1 , "a" : [ true , false , null ] } "#)
        XCTAssertEqual(v.objectValue?.keys, ["b", "a"])
        XCTAssertEqual(v.objectValue?["a"], .array([.bool(true), .bool(false), .null]))
    }

    func testByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try parse("\u{FEFF}[1]"), .array([.number("1")]))
    }

    func testDepthIsLimited() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertThrowsError(try parse(deep)) { error in
            XCTAssertTrue("\(error)".contains("nested deeper"), "\(error)")
        }
    }

    func testOutputEscapesWhatJSONNeeds() {
        final class Null: ByteSink { func write(_ bytes: UnsafeRawBufferPointer) throws {} }
        var out = JSONOutput(sink: Null())
        out.string("q\"b\\c\u{1}\u{1F}é\n")
        XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), #""q\"b\\c\u0001\u001fé\n""#)
    }

    /// JSON text kept inside a string (Graph's extended property) has an escape every few bytes;
    /// the writer copies plain words between them and the parser takes them a word at a time
    /// within its buffer: the text must come back the same whatever the chunks the bytes come in.
    func testDenselyEscapedLongStringsRoundTripWhateverTheChunks() throws {
        final class Null: ByteSink { func write(_ bytes: UnsafeRawBufferPointer) throws {} }
        let text = String(repeating: "[[\"x-a\",{\"tzid\":\"Europe/Berlin\"},\"text\",\"q\\\"b\\\\c\td/é\u{1}\n\"]],", count: 300)
        var out = JSONOutput(sink: Null())
        out.string(text)
        let written = out.bytes
        for chunkSize in [1, 3, 7, 8, 9, 64, 1 << 20] {
            var p = JSONParser(source: MemoryByteSource(written, chunkSize: chunkSize), sourceName: "t")
            XCTAssertEqual(try p.readValue(), .string(text), "chunks of \(chunkSize)")
        }
    }

    /// A string table (`JSONStringTable`) shared by parsers one after another gives what
    /// parsing without it gives: strings of every short length, the same bytes again (found),
    /// others in the slots they take, and invalid UTF-8 refused every time it comes.
    func testAStringTableGivesWhatParsingWithoutOneGives() throws {
        let table = JSONStringTable()
        let long = "abcdefghijklmnopqrstuvwxyz"
        var words = (0...long.count).map { String(long.prefix($0)) }
        words += ["é", "日本", "CONFIRMED", "date-time", "W. Europe Standard Time", "a\"b"] + (0..<3000).map { "x-\($0)" }
        let text = "[" + (words + words.reversed()).map { "\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ",") + "]"
        for round in 0..<2 {
            var plain = JSONParser(bytes: Array(text.utf8), sourceName: "t", line: 1)
            var tabled = JSONParser(bytes: Array(text.utf8), sourceName: "t", line: 1, strings: table)
            XCTAssertEqual(try tabled.readValue(), try plain.readValue(), "round \(round)")
        }
        for bad: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0x61, 0xFF, 0x22]] {
            for _ in 0..<2 {
                var p = JSONParser(bytes: bad, sourceName: "t", line: 1, strings: table)
                XCTAssertThrowsError(try p.readValue()) { XCTAssertTrue("\($0)".contains("UTF-8"), "\($0)") }
            }
        }
    }
}
