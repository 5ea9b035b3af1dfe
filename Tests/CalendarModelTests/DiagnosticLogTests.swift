import CalendarModel
import XCTest

/// The log keeps the first diagnostics of each kind and counts the rest (issue 21: a million
/// unknown members printed a million warnings and held 470 MB of them).
final class DiagnosticLogTests: XCTestCase {
    func testManyWarningsOfOneKindKeepTheFirstHundredAndCountTheRest() {
        var printed = 0
        let log = DiagnosticLog { _ in printed += 1 }
        for i in 0..<200_000 { log.warning(file: "many.json", line: 1, location: "/x\(i)", "unknown member 'x\(i)' is ignored") }
        log.warning(file: "many.json", line: 2, "a different warning")
        XCTAssertEqual(log.diagnostics.count, DiagnosticLog.defaultKeptPerKind + 1)
        XCTAssertEqual(printed, DiagnosticLog.defaultKeptPerKind + 1)
        XCTAssertEqual(log.warningCount, 200_001)
        XCTAssertEqual(log.suppressed.count, 1)
        XCTAssertEqual(log.suppressed.first?.count, 200_000 - DiagnosticLog.defaultKeptPerKind)
        XCTAssertEqual(log.suppressed.first?.example.message, "unknown member 'x0' is ignored")
        XCTAssertEqual(
            log.suppressionNotes.map(\.description),
            ["many.json: warning: 199900 more like this were not listed: unknown member 'x0' is ignored"])
    }

    func testKindsDifferByWordingNotByNumbersOrQuotedText() {
        func kind(_ message: String, field: String? = nil) -> String {
            Diagnostic(severity: .warning, file: "f", message: message, lostField: field).kind
        }
        XCTAssertEqual(kind("row 3 has 2 cells"), kind("row 41 has 17 cells"))
        XCTAssertEqual(kind("unknown member 'a'"), kind("unknown member 'bcd'"))
        XCTAssertEqual(kind("can't read \"x\""), kind("can't read \"y\""))
        XCTAssertNotEqual(kind("unknown member 'a'"), kind("unknown value 'a'"))
        XCTAssertNotEqual(kind("lost", field: "url"), kind("lost", field: "geo"))
    }

    func testAnUnboundedLogKeepsEverything() {
        let log = DiagnosticLog(keptPerKind: nil)
        for i in 0..<1000 { log.warning(file: "f", "w \(i)") }
        XCTAssertEqual(log.diagnostics.count, 1000)
        XCTAssertTrue(log.suppressed.isEmpty)
    }
}
