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
}
