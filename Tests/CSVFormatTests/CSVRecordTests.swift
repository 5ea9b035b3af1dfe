import CalendarModel
import Conversion
import XCTest

@testable import CSVFormat

/// The byte-level reader and writer: RFC 4180 quoting, line ends, delimiters, encodings,
/// recovery, and what writing guards against.
final class CSVRecordTests: XCTestCase {
    func records(_ bytes: [UInt8]) throws -> (rows: [[String]], malformed: [String], reader: CSVRecordReader) {
        let reader = CSVRecordReader(decoder: CSVTextDecoder(source: MemoryByteSource(bytes)))
        var rows: [[String]] = []
        var malformed: [String] = []
        while let item = try reader.next() {
            switch item {
            case .record(let r): rows.append(r.fields.map { CSVRecord.text($0).text })
            case .malformed(let line, let row, let column, _): malformed.append("\(line):\(row):\(column)")
            case .unreadable(let line, let message): malformed.append("\(line): \(message)")
            }
        }
        return (rows, malformed, reader)
    }

    func records(_ text: String) throws -> (rows: [[String]], malformed: [String], reader: CSVRecordReader) {
        try records(Array(text.utf8))
    }

    func testQuotesDoubledQuotesAndEmbeddedLineBreaks() throws {
        let r = try records("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n,,\r\n")
        XCTAssertEqual(r.rows, [["a", "b", "c"], ["x, y", "say \"hi\"", "two\r\nlines"], ["", "", ""]])
        XCTAssertTrue(r.malformed.isEmpty)
    }

    func testLineEndsLFCRAndNoneAtTheEnd() throws {
        XCTAssertEqual(try records("a,b\nc,d\re,f").rows, [["a", "b"], ["c", "d"], ["e", "f"]])
    }

    func testDelimiterComesFromTheHeader() throws {
        XCTAssertEqual(try records("a;b;\"c,d\"\n1;2;3\n").rows, [["a", "b", "c,d"], ["1", "2", "3"]])
        XCTAssertEqual(try records("a\tb\tc\n1\t2,5\t3\n").rows, [["a", "b", "c"], ["1", "2,5", "3"]])
        XCTAssertEqual(try records("a,b\n").reader.delimiter, UInt8(ascii: ","))
    }

    func testUTF16WithAndWithoutMarkAndUTF8Mark() throws {
        let text = "Subject\tStart\nÄrger 🙂\t1\n"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        for (bytes, encoding) in [(le, CSVTextDecoder.Encoding.utf16LE), (be, .utf16BE), (utf8BOM, .utf8)] {
            let r = try records(bytes)
            XCTAssertEqual(r.rows, [["Subject", "Start"], ["Ärger 🙂", "1"]])
            XCTAssertEqual(r.reader.encoding, encoding)
        }
    }

    func testUnbalancedQuoteSkipsOneLineAndKeepsTheRest() throws {
        let r = try records("h1,h2\n\"open,1\n\"next\",\"2\"\nlast,3\n")
        XCTAssertEqual(r.rows, [["h1", "h2"], ["next", "2"], ["last", "3"]])
        XCTAssertEqual(r.malformed, ["2:2:1"])
        let atEnd = try records("h1,h2\nok,1\n\"never closed,2\n")
        XCTAssertEqual(atEnd.rows, [["h1", "h2"], ["ok", "1"]])
        XCTAssertEqual(atEnd.malformed, ["3:3:1"])
    }

    func testStrayQuoteInOneLineIsKeptLiterally() throws {
        let reader = CSVRecordReader(decoder: CSVTextDecoder(source: MemoryByteSource(Array("a,b\n\"x\"y,z\"w\n".utf8))))
        _ = try reader.next()
        guard case .record(let r)? = try reader.next() else { return XCTFail() }
        XCTAssertEqual(r.fields.map { CSVRecord.text($0).text }, ["xy", "z\"w"])
        XCTAssertEqual(r.strayQuoteColumn, 1)
    }

    func testWindows1252FallbackForCellsThatAreNotUTF8() {
        let (text, recoded) = CSVRecord.text([0x47, 0x72, 0xFC, 0xDF, 0x65, 0x20, 0x80])
        XCTAssertEqual(text, "Grüße €")
        XCTAssertTrue(recoded)
        XCTAssertFalse(CSVRecord.text(Array("Grüße".utf8)).wasRecoded)
    }

    func written(_ rows: [[String]], bom: Bool = false) throws -> [UInt8] {
        let sink = MemoryByteSink()
        var writer = CSVRecordWriter(sink: sink, bom: bom)
        for row in rows { try writer.write(row) }
        try writer.flush()
        return sink.bytes
    }

    func testWriterQuotesOnlyWhereNeededWithCRLF() throws {
        let bytes = try written([["plain", "a,b", "say \"x\"", "two\nlines", " padded", ""]])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "plain,\"a,b\",\"say \"\"x\"\"\",\"two\nlines\",\" padded\",\r\n")
        XCTAssertEqual(try written([["a"]], bom: true), [0xEF, 0xBB, 0xBF, UInt8(ascii: "a"), 0x0D, 0x0A])
    }

    func testFormulaCellsAreGuardedAndReadBackUnchanged() throws {
        let cells = ["=SUM(A1:A9)", "+1 555 0100", "-5", "@mention", "'=already guarded", "''+twice", "'plain", "a=b"]
        let text = String(decoding: try written([cells]), as: UTF8.self)
        XCTAssertEqual(text, "'=SUM(A1:A9),'+1 555 0100,'-5,'@mention,''=already guarded,'''+twice,'plain,a=b\r\n")
        let back = try records(Array(text.utf8)).rows[0].map(CSVRecordWriter.removingFormulaGuard)
        XCTAssertEqual(back, cells)
    }

    /// A source that hands out 1 to 7 bytes at a time, so quotes, doubled quotes and CRLF fall on
    /// every possible chunk edge.
    final class TrickleSource: ByteSource {
        private let bytes: [UInt8]
        private var offset = 0
        private var step = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            step = step % 7 + 1
            let n = min(step, buffer.count, bytes.count - offset)
            for i in 0..<n { buffer[i] = bytes[offset + i] }
            offset += n
            return n
        }
    }

    /// Regression: records whose quotes and doubled quotes fall on the edge of a read, read while
    /// the buffer drops what it has consumed, keep every index right (an earlier version shifted
    /// the buffer during a look-ahead and mangled the record at a 64 KiB edge).
    func testRecordsSurviveEveryChunkEdge() throws {
        var text = "a,b,c,d\r\n"
        var expected = [["a", "b", "c", "d"]]
        for i in 0..<12_000 {
            text += "\"row \(i)\",\"say \"\"\(i)\"\"\r\nnext line, with comma\",plain\(i),\"\(i % 7)\"\r\n"
            expected.append(["row \(i)", "say \"\(i)\"\r\nnext line, with comma", "plain\(i)", "\(i % 7)"])
        }
        for source in [TrickleSource(Array(text.utf8)), MemoryByteSource(Array(text.utf8))] as [ByteSource] {
            let reader = CSVRecordReader(decoder: CSVTextDecoder(source: source))
            var rows: [[String]] = []
            while let item = try reader.next() {
                guard case .record(let r) = item else { return XCTFail("malformed at \(rows.count)") }
                rows.append(r.fields.map { CSVRecord.text($0).text })
            }
            XCTAssertEqual(rows.count, expected.count)
            XCTAssertTrue(rows == expected, "first difference at row \(rows.indices.first { $0 < expected.count && rows[$0] != expected[$0] } ?? -1)")
        }
    }
}
