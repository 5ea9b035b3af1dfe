import CSVFormat
import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// The corpus' real CSV files: hebcal's Outlook-import rows and backdrop's Yahoo/Outlook export.
final class CSVCorpusTests: XCTestCase {
    func testHebcalRowsReadAsUpstreamWroteThem() throws {
        let folder = RoundTripCheck.corpusRoot.appendingPathComponent("hebcal-csv/extracted")
        let log = DiagnosticLog()
        let events = CSVTestHelpers.events(try CSVTestHelpers.read([UInt8](try Data(contentsOf: folder.appendingPathComponent("outlook_style_rows.csv"))), format: "csv", log: log))
        XCTAssertEqual(log.diagnostics, [])
        // rows.jsonl holds the same rows, one per line, as upstream's test expects them.
        let upstream = try String(contentsOf: folder.appendingPathComponent("rows.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(events.count, upstream.count)
        XCTAssertEqual(events.first?.title, "Candle lighting")
        XCTAssertEqual(events.first?.start, CalendarDateTime(date: CalendarDate(year: 1990, month: 4, day: 6), time: TimeOfDay(hour: 19, minute: 4, second: 0)))
        XCTAssertEqual(events.first?.location, "Chicago")
        let erev = try XCTUnwrap(events.first { $0.title == "Erev Pesach" })
        XCTAssertTrue(erev.isAllDay)
        XCTAssertEqual(erev.effectiveEnd, .day(1990, 4, 10))
        XCTAssertEqual(erev.notes, "Passover; the Feast of Unleavened Bread")
        XCTAssertEqual(erev.availability, .busy)
        XCTAssertTrue(events.contains { ($0.title ?? "").unicodeScalars.contains { (0x0590...0x05FF).contains($0.value) } }, "Hebrew subjects survive")
    }

    func testYahooExportReadsTimedAndAllDayEvents() throws {
        let file = RoundTripCheck.corpusRoot.appendingPathComponent("backdrop-date/Yahoo.csv")
        let log = DiagnosticLog()
        let events = CSVTestHelpers.events(try CSVTestHelpers.read([UInt8](try Data(contentsOf: file)), format: "csv", log: log))
        XCTAssertEqual(log.diagnostics, [])
        XCTAssertEqual(events.count, 15)
        XCTAssertEqual(events.filter(\.isAllDay).count, 10)
        let labor = try XCTUnwrap(events.first { $0.title == "Labor Day" })
        XCTAssertEqual(labor.start, .day(2009, 9, 7))
        let drupal = try XCTUnwrap(events.first { $0.title == "Do It With Drupal" })
        XCTAssertEqual(drupal.effectiveEnd, CalendarDateTime(date: CalendarDate(year: 2008, month: 12, day: 10), time: TimeOfDay(hour: 17, minute: 0, second: 0)))
    }
}
