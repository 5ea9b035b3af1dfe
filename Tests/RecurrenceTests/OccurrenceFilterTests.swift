import CalendarModel
import Conversion
import Foundation
import Recurrence
import XCTest

/// The date-range stage end to end: ICS in, `--start/--end` (and `--expand`) through the
/// conversion pipeline, ICS out.
final class OccurrenceFilterTests: XCTestCase {
    /// A Berlin stand-up every weekday at 09:00 across the 2024-03-31 DST change, with an
    /// EXDATE (Apr 1), a cancelled occurrence (Mar 29) and a moved one (Apr 3 at 10:00) written
    /// after the other events; a one-off in range, one out of range, and an all-day event.
    let input = Fixtures.url("query/standup-with-exceptions.ics").path

    func convert(_ query: RecurrenceQuery) throws -> (text: String, log: DiagnosticLog) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("calport-query-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: output) }
        var request = ConversionRequest(inputs: [input], output: output.path, outputFormat: "ics")
        request.recurrence = query
        let log = DiagnosticLog()
        try Converter().run(request, log: log)
        return (try String(contentsOf: output, encoding: .utf8), log)
    }

    /// The values of one property, in output order.
    func values(_ name: String, in text: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }.map {
            String($0[$0.index(after: $0.firstIndex(of: ":")!)...])
        }
    }

    func testRangeKeepsWholeSeriesAndOverlappingItems() throws {
        let query = try RecurrenceQuery(startText: "2024-03-28", endText: "2024-04-04", expand: false)
        let (text, _) = try convert(query)
        XCTAssertEqual(values("UID", in: text), ["one-off", "holiday", "standup", "standup", "standup"])
        XCTAssertEqual(values("RRULE", in: text).count, 1, "the series is written as a series")
    }

    func testExpandWritesEachOccurrenceSortedWithRecurrenceIDs() throws {
        let query = try RecurrenceQuery(startText: "2024-03-28", endText: "2024-04-04", expand: true)
        let (text, log) = try convert(query)
        XCTAssertEqual(log.diagnostics, [])
        // Sorted by start instant: the all-day Good Friday (floating, read as UTC midnight)
        // comes before Friday's 09:00 Berlin, which is cancelled.
        XCTAssertEqual(
            values("DTSTART", in: text),
            [
                "20240328T090000",  // Thu, CET
                "20240329",  // Good Friday
                "20240402T090000",  // Tue, CEST (Mon Apr 1 is an EXDATE)
                "20240402T120000Z",  // lunch talk
                "20240403T100000",  // the moved stand-up
            ])
        XCTAssertEqual(values("UID", in: text), ["standup", "holiday", "standup", "one-off", "standup"])
        XCTAssertEqual(values("RECURRENCE-ID", in: text), ["20240328T090000", "20240402T090000", "20240403T090000"])
        XCTAssertEqual(values("DTEND", in: text).prefix(1), ["20240328T091500"])
        XCTAssertEqual(values("RRULE", in: text), [])
        XCTAssertEqual(values("SUMMARY", in: text).last, "Stand-up (moved)")
    }

    func testExpandWithoutRangeHitsTheLimitAndWarns() throws {
        let query = try RecurrenceQuery(startText: nil, endText: nil, expand: true, maxOccurrences: 50)
        let (text, log) = try convert(query)
        XCTAssertEqual(values("UID", in: text).filter { $0 == "standup" }.count, 50)
        let warning = try XCTUnwrap(log.diagnostics.first { $0.message.contains("50 occurrences") })
        XCTAssertEqual(warning.file, input)
        XCTAssertEqual(warning.line, 4, "the warning points at the series' VEVENT")
    }

    func testItemsWithoutDatesAreOutsideEveryRange() throws {
        var reminder = Reminder(item: CalendarItem(uid: "todo", title: "No date"))
        reminder.percentComplete = 0
        let log = DiagnosticLog()
        var filter = OccurrenceFilter(
            query: try RecurrenceQuery(startText: "2024-01-01", endText: "2024-02-01", expand: false), log: log, sourceName: "mem")
        var out: [CalendarStreamElement] = []
        for element: CalendarStreamElement in [
            .beginCalendar(Calendar()), .entry(.reminder(reminder), line: 3), .endCalendar(trailingProperties: []),
        ] {
            try filter.process(element) { out.append($0) }
        }
        XCTAssertEqual(out.count, 2)
    }

    func testSeriesWithoutUIDIsStillExpanded() throws {
        var event = Event(item: T.item("", T.dt("20240101T090000Z"), rules: ["FREQ=DAILY;COUNT=3"]))
        event.uid = nil
        event.duration = CalendarDuration(minutes: 30)
        var filter = OccurrenceFilter(query: RecurrenceQuery(expand: true), log: DiagnosticLog(), sourceName: "mem")
        var out: [CalendarStreamElement] = []
        for element: CalendarStreamElement in [
            .beginCalendar(Calendar()), .entry(.event(event), line: 7), .endCalendar(trailingProperties: []),
        ] {
            try filter.process(element) { out.append($0) }
        }
        let starts = out.compactMap { element -> String? in
            if case .entry(.event(let e), _) = element { return e.start?.basicISO }
            return nil
        }
        XCTAssertEqual(starts, ["20240101T090000Z", "20240102T090000Z", "20240103T090000Z"])
    }
}
