import CSVFormat
import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import Recurrence
import XCTest

/// With --expand (the Recurrence module's stage before the writer), csv-outlook gets one row per
/// occurrence instead of the first occurrence and a warning.
final class CSVExpansionTests: XCTestCase {
    func testExpandWritesOneRowPerOccurrence() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("calport-csv-expand-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: output) }
        var request = ConversionRequest(
            inputs: [RoundTripCheck.repositoryRoot.appendingPathComponent("samples/outlook-team-meetings.ics").path],
            output: output.path, outputFormat: "csv-outlook")
        request.recurrence = RecurrenceQuery(expand: true)
        let log = DiagnosticLog()
        try Converter().run(request, log: log)
        XCTAssertFalse(log.diagnostics.contains { $0.message.contains("repeats") })
        let rows = CSVTestHelpers.events(try CSVTestHelpers.read([UInt8](try Data(contentsOf: output)), format: "csv-outlook"))
            .filter { ($0.title ?? "").hasPrefix("Platform team weekly") }
        // Mondays from 8 January to 24 June 2024 (25), less the EXDATE of 1 April; the 11 March
        // occurrence is the moved one, on 12 March.
        XCTAssertEqual(rows.count, 24)
        XCTAssertFalse(rows.contains { $0.start?.date == CalendarDate(year: 2024, month: 4, day: 1) })
        XCTAssertTrue(rows.contains { $0.title == "Platform team weekly (moved)" && $0.start?.date == CalendarDate(year: 2024, month: 3, day: 12) })
        XCTAssertFalse(rows.contains { $0.start?.date == CalendarDate(year: 2024, month: 3, day: 11) })
    }
}
