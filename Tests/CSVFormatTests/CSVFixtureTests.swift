import CSVFormat
import CalendarModel
import Foundation
import XCTest

/// Walks Fixtures/valid and Fixtures/invalid: each `<case>.csv` is read (with the settings in
/// `<case>.settings`, if any) and must give exactly the events of `<case>.expected.json`
/// (calport's native JSON) and exactly the diagnostics of `<case>.expected.diagnostics` (none
/// when that file is missing). Adding a case is adding files.
final class CSVFixtureTests: XCTestCase {
    func check(folder: String) throws {
        let files = try CSVTestHelpers.cases(folder)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let name = file.lastPathComponent
            let log = DiagnosticLog()
            let elements = try CSVTestHelpers.read([UInt8](try Data(contentsOf: file)), format: "csv", name: name,
                                                   settings: CSVTestHelpers.settings(for: file), log: log)
            let json = String(decoding: try CSVTestHelpers.write(elements, format: "json"), as: UTF8.self)
            let base = file.deletingPathExtension()
            let expectedJSON = try String(contentsOf: base.appendingPathExtension("expected.json"), encoding: .utf8)
            XCTAssertEqual(json, expectedJSON, name)
            let expectedDiagnostics = (try? String(contentsOf: base.appendingPathExtension("expected.diagnostics"), encoding: .utf8)) ?? ""
            let diagnostics = log.diagnostics.map { $0.description + "\n" }.joined()
            XCTAssertEqual(diagnostics, expectedDiagnostics, name)
        }
    }

    func testValidFixturesReadToExactEvents() throws {
        try check(folder: "valid")
    }

    /// Unbalanced quote, short row, bad date and bad time: each named by line, row and column;
    /// every good row (and the repaired short row) is still read.
    func testMalformedFixturesReportRowsAndKeepGoodOnes() throws {
        try check(folder: "invalid")
    }

    /// Under --strict the first bad row stops reading, with its place.
    func testStrictStopsAtTheFirstBadRow() throws {
        let file = CSVTestHelpers.fixtures.appendingPathComponent("invalid/malformed-rows.csv")
        XCTAssertThrowsError(try CSVTestHelpers.read([UInt8](try Data(contentsOf: file)), format: "csv", name: "bad.csv", strict: true)) { error in
            guard let error = error as? CalendarError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .data)
            XCTAssertEqual(error.diagnostic.line, 3)
            XCTAssertEqual(error.diagnostic.location, "2")
            XCTAssertTrue(error.diagnostic.message.contains("row 3"), error.description)
            XCTAssertTrue(error.diagnostic.message.contains("'Start Date'"), error.description)
            XCTAssertTrue(error.diagnostic.message.contains("'5/32/2024' is not a date"), error.description)
        }
    }
}
