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
}
