import CalendarModel
import Foundation
import ICSFormat
import XCTest

/// Inputs a black-box mutation run found crashing calport's ICS path (issue 21).
final class HostileICSTests: XCTestCase {
    /// 200,000 nested components overflowed the stack of the writers (at 10,000) and of every
    /// target: the reader now stops at `ICSReader.maximumDepth`, naming the line, at once.
    func testDeepNestingStopsAtTheDepthLimitWithItsLine() throws {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n"
        text += String(repeating: "BEGIN:X-NEST\r\n", count: 200_000)
        text += String(repeating: "END:X-NEST\r\n", count: 200_000)
        text += "END:VEVENT\r\nEND:VCALENDAR\r\n"
        for concurrency in [1, 2] {
            let started = Double(clock()) / Double(CLOCKS_PER_SEC)
            var reader = ICSReader(
                source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "deep.ics", concurrency: concurrency),
                log: DiagnosticLog())
            XCTAssertThrowsError(try { while try reader.next() != nil {} }()) { error in
                XCTAssertEqual(
                    "\(error)", "deep.ics:\(ICSReader.maximumDepth + 1): error: BEGIN:X-NEST nests components deeper than 64 levels")
            }
            XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 5, "processor seconds")
        }
    }

    /// An Apple structured location's "geo:" with nothing before ";" trapped on `split(...)[0]` (found by reading
    /// the readers for the pattern of the JSCalendar fuzz finding): such a value is now not a structured location
    /// (it stays a property, unchanged), and "geo:lat,lon" still is one.
    func testAppleStructuredLocationGeoURIWithoutCoordinatesIsNoCrash() throws {
        func structuredLocation(_ value: String) throws -> StructuredLocation? {
            let text =
                "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:s\r\nDTSTART:20240101T090000Z\r\n"
                + "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Here:\(value)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            var reader = ICSReader(
                source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "s.ics"), log: DiagnosticLog())
            var events: [Event] = []
            while let element = try reader.next() { if case .entry(.event(let e), _) = element { events.append(e) } }
            XCTAssertEqual(events.map(\.item.uid), ["s"], value)
            return events.first?.item.structuredLocation
        }
        XCTAssertEqual(try structuredLocation("geo:48.5,2.25")?.latitude, 48.5)
        XCTAssertEqual(try structuredLocation("geo:48.5,2.25")?.title, "Here")
        for value in ["geo:", "geo:;", "geo:;u=5", "GEO:;1,2", "geo:1", "geo:,"] { XCTAssertNil(try structuredLocation(value), value) }
    }

    /// A content line of `;A=1` repeated up to the line limit became millions of parameters
    /// (gigabytes as Strings): a line is skipped, with a warning, past 10,000 of them.
    func testALineWithTooManyParametersIsSkippedWithAWarning() throws {
        let parameters = String(repeating: ";X-A=1", count: 10_001)
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:p\r\nDTSTART:20240101T090000Z\r\nSUMMARY\(parameters):Hi\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let log = DiagnosticLog()
        var reader = ICSReader(source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "p.ics"), log: log)
        var events: [Event] = []
        while let element = try reader.next() { if case .entry(.event(let e), _) = element { events.append(e) } }
        XCTAssertEqual(events.first?.item.uid, "p")
        XCTAssertNil(events.first?.item.title)
        let expected = "p.ics:5: warning: SUMMARY has more than 10000 parameters and parameter values; line skipped"
        XCTAssertEqual(log.diagnostics.map(\.description), [expected])
    }

    /// Lenient mode looked ahead for the end of the line after BEGIN:VCALENDAR to see whether it
    /// was folding gone wrong, and read a 1 GB line whole (2 GB of memory): the look-ahead stops
    /// at the line limit, and the line is refused at its line having read little more than that.
    func testAGiantLineIsRefusedWithoutBeingReadWhole() throws {
        let source = EndlessLineSource(prefix: Array("BEGIN:VCALENDAR\r\nX-A:".utf8))
        var reader = ICSReader(source: source, options: ReadOptions(sourceName: "giant.ics"), log: DiagnosticLog())
        XCTAssertThrowsError(try { while try reader.next() != nil {} }()) { error in
            XCTAssertEqual("\(error)", "giant.ics:2: error: line is longer than 67108864 bytes")
        }
        XCTAssertLessThan(source.handedOut, 3 << 26, "bytes read")
    }
}

/// A prefix, then `x` without end: a line longer than any limit, in no memory.
final class EndlessLineSource: ByteSource {
    private let prefix: [UInt8]
    private(set) var handedOut = 0

    init(prefix: [UInt8]) { self.prefix = prefix }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let head = max(0, min(buffer.count, prefix.count - handedOut))
        for i in 0..<head { buffer[i] = prefix[handedOut + i] }
        _ = memset(buffer.baseAddress! + head, Int32(UInt8(ascii: "x")), buffer.count - head)
        handedOut += buffer.count
        return buffer.count
    }
}
