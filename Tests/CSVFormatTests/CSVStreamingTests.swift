import CSVFormat
import CalendarModel
import Conversion
import XCTest

/// Rows stream both ways: the reader hands on the first event after reading a bounded prefix,
/// and the writer hands bytes to the sink while events still arrive. Proved by counting bytes.
final class CSVStreamingTests: XCTestCase {
    /// A source that serves generated rows and counts what it handed out.
    final class GeneratedRows: ByteSource {
        private var pending: [UInt8]
        private var next = 0
        let rows: Int
        private(set) var served = 0

        init(header: String, rows: Int) {
            pending = Array((header + "\r\n").utf8)
            self.rows = rows
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            while pending.count < buffer.count && next < rows {
                pending += Array("Event \(next),5/\(next % 28 + 1)/2024,9:00 AM,5/\(next % 28 + 1)/2024,10:00 AM,False,\"\(String(repeating: "notes ", count: 20))\",Room \(next)\r\n".utf8)
                next += 1
            }
            let n = min(buffer.count, pending.count)
            for i in 0..<n { buffer[i] = pending[i] }
            pending.removeFirst(n)
            served += n
            return n
        }
    }

    func testReaderStreamsRows() throws {
        let source = GeneratedRows(header: "Subject,Start Date,Start Time,End Date,End Time,All day event,Description,Location", rows: 20_000)
        var reader = CSVFormat(.outlook).makeReader(source: source, options: ReadOptions(sourceName: "big.csv"), log: DiagnosticLog())
        guard case .beginCalendar = try reader.next(), case .entry(.event(let first), _) = try reader.next() else {
            return XCTFail("expected a calendar and its first event")
        }
        XCTAssertEqual(first.title, "Event 0")
        // The input is ~3.5 MB; one event in, the reader holds at most a few 64 KiB chunks.
        XCTAssertLessThanOrEqual(source.served, 3 * 64 * 1024)
        var count = 1
        while let e = try reader.next() { if case .entry = e { count += 1 } }
        XCTAssertEqual(count, 20_000)
        XCTAssertGreaterThan(source.served, 3_000_000)
    }

    /// A sink that counts writes.
    final class CountingSink: ByteSink {
        private(set) var bytes = 0
        private(set) var writes = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            self.bytes += bytes.count
            writes += 1
        }
    }

    func testWriterHandsOnBytesBeforeTheEnd() throws {
        for id in ["csv", "csv-outlook"] {
            let sink = CountingSink()
            var writer = StandardFormats.registry.format(id: id)!.makeWriter(sink: sink, options: WriteOptions(destinationName: "-"), log: DiagnosticLog())
            try writer.write(.beginCalendar(Calendar(title: "Big")))
            for i in 0..<5_000 {
                var e = Event(item: CalendarItem(uid: "e\(i)", title: "Event \(i)", start: .day(2024, 1, 1)))
                e.item.notes = String(repeating: "x", count: 100)
                try writer.write(.entry(.event(e), line: i))
                if i == 2_000 {
                    // Before the stream ends, most of what was written has reached the sink.
                    XCTAssertGreaterThan(sink.bytes, 200_000, id)
                }
            }
            try writer.write(.endCalendar(trailingProperties: []))
            try writer.finish()
            XCTAssertGreaterThan(sink.writes, 5, id)
        }
    }
}
