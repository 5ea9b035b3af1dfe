import CalendarModel
import Foundation
import JSONFormat
import XCTest

/// Inputs a black-box mutation run found blowing up calport's JSON reader (issue 21).
final class HostileJSONTests: XCTestCase {
    /// A document with 200,000 unknown members: each is counted, the first hundred kept.
    func testManyUnknownMembersAreCountedNotHeld() throws {
        var members = #""uid":"many","title":"Many""#
        for i in 0..<200_000 { members += #","x\#(i)":1"# }
        let document =
            #"{"format":"calport-json","version":1,"calendars":[{"calendar":{"type":"local"},"entries":[{"event":{"#
            + members + "}}]}]}"
        let log = DiagnosticLog()
        var reader = NativeJSONFormat().makeReader(
            source: MemoryByteSource(Array(document.utf8)), options: ReadOptions(sourceName: "many.json"), log: log)
        var events = 0
        while let element = try reader.next() { if case .entry = element { events += 1 } }
        XCTAssertEqual(events, 1)
        XCTAssertEqual(log.warningCount, 200_000)
        XCTAssertEqual(log.diagnostics.count, DiagnosticLog.defaultKeptPerKind)
        XCTAssertEqual(log.suppressed.first?.count, 200_000 - DiagnosticLog.defaultKeptPerKind)
    }

    /// A 65 MiB string was held whole (and a 1 GB one would have been): one item is at most 64 MiB.
    func testAnItemLongerThan64MiBIsAnError() {
        let document =
            #"{"format":"calport-json","version":1,"calendars":[{"calendar":{"type":"local"},"entries":[{"event":{"uid":"big","title":""#
            + String(repeating: "x", count: 65 << 20) + #""}}]}]}"#
        var reader = NativeJSONFormat().makeReader(
            source: MemoryByteSource(Array(document.utf8)), options: ReadOptions(sourceName: "big.json"), log: DiagnosticLog())
        XCTAssertThrowsError(try { while try reader.next() != nil {} }()) { error in
            XCTAssertEqual("\(error)", "big.json:1: error: one value is longer than 64 MiB")
        }
    }
}
