import CSVFormat
import CalendarModel
import Foundation
import XCTest

/// What the writers put in cells: layouts, languages, all-day ends, recurring events, BOM.
final class CSVWriterTests: XCTestCase {
    func stream(_ events: [Event]) -> [CalendarStreamElement] {
        [.beginCalendar(Calendar(title: "Test"))] + events.map { .entry(.event($0), line: 1) } + [.endCalendar(trailingProperties: [])]
    }

    func allDay(_ title: String, from: CalendarDate, days: Int) -> Event {
        var e = Event(item: CalendarItem(title: title, start: CalendarDateTime(date: from)))
        e.end = CalendarDateTime(date: from.adding(days: days))
        return e
    }

    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    func testGoogleAllDayEndIsInclusiveAndOutlookExclusive() throws {
        let events = [allDay("Trip", from: CalendarDate(year: 2024, month: 7, day: 1), days: 3)]
        XCTAssertEqual(lines(try CSVTestHelpers.write(stream(events), format: "csv-google"))[1], "Trip,7/1/2024,,7/3/2024,,True,,,False")
        XCTAssertTrue(lines(try CSVTestHelpers.write(stream(events), format: "csv-outlook"))[1].hasPrefix("Trip,7/1/2024,12:00:00 AM,7/4/2024,12:00:00 AM,True,"))
    }

    func testLocaleChoosesHeaderLanguageWordsAndPatterns() throws {
        var e = Event(item: CalendarItem(title: "Besprechung", start: CalendarDateTime(date: CalendarDate(year: 2024, month: 5, day: 6), time: TimeOfDay(hour: 14, minute: 0, second: 0))))
        e.end = CalendarDateTime(date: CalendarDate(year: 2024, month: 5, day: 6), time: TimeOfDay(hour: 15, minute: 0, second: 0))
        e.priority = 1
        e.classification = .private
        let out = lines(try CSVTestHelpers.write(stream([e]), format: "csv-outlook", settings: [CSVSettings.localeKey: "de_DE"]))
        XCTAssertTrue(out[0].hasPrefix("Betreff,Beginnt am,Beginnt um,Endet am,Endet um,Ganztägiges Ereignis,"), out[0])
        XCTAssertTrue(out[1].hasPrefix("Besprechung,06.05.2024,14:00:00,06.05.2024,15:00:00,Aus,Aus,"), out[1])
        XCTAssertTrue(out[1].hasSuffix(",Hoch,Ein,,Privat,3"), out[1])
    }

    func testRecurringEventsKeepTheRuleOnlyInTheFlatLayout() throws {
        var e = Event(item: CalendarItem(uid: "r", title: "Weekly", start: CalendarDateTime(date: CalendarDate(year: 2024, month: 1, day: 1), time: TimeOfDay(hour: 9, minute: 0, second: 0))))
        e.item.recurrenceRules = [try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=3")]
        let log = DiagnosticLog()
        XCTAssertEqual(lines(try CSVTestHelpers.write(stream([e]), format: "csv-outlook", log: log)).count, 2)
        XCTAssertTrue(log.diagnostics.contains { $0.message.contains("repeats") && $0.message.contains("--expand") })
        let flat = try CSVTestHelpers.write(stream([e]), format: "csv")
        XCTAssertEqual(CSVTestHelpers.events(try CSVTestHelpers.read(flat, format: "csv"))[0].recurrenceRules, e.item.recurrenceRules)
    }

    func testByteOrderMarkOnRequest() throws {
        let bytes = try CSVTestHelpers.write(stream([]), format: "csv-google", settings: [CSVSettings.byteOrderMarkKey: "true"])
        XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF])
        XCTAssertEqual(lines(Array(bytes.dropFirst(3))), ["Subject,Start Date,Start Time,End Date,End Time,All Day Event,Description,Location,Private"])
    }

    func testNaiveTimesAreReadInTheGivenZone() throws {
        let csv = Array("Subject,Start Date,Start Time,End Date,End Time\nCall,5/1/2024,9:00 AM,5/1/2024,10:00 AM\n".utf8)
        let floating = CSVTestHelpers.events(try CSVTestHelpers.read(csv, format: "csv-outlook"))[0]
        XCTAssertEqual(floating.start?.reference, .floating)
        let zoned = CSVTestHelpers.events(try CSVTestHelpers.read(csv, format: "csv-outlook", settings: [CSVSettings.timeZoneKey: "Europe/Berlin"]))[0]
        XCTAssertEqual(zoned.start?.reference, .zone("Europe/Berlin"))
        XCTAssertEqual(zoned.end?.reference, .zone("Europe/Berlin"))
    }

    /// With --csv-tz, UTC and zoned times are written as that zone's wall time (TimeZones' data).
    func testZonedTimesAreWrittenInTheGivenZone() throws {
        var e = Event(item: CalendarItem(title: "Sync", start: CalendarDateTime(date: CalendarDate(year: 2024, month: 7, day: 2), time: TimeOfDay(hour: 12, minute: 0, second: 0), reference: .utc)))
        e.end = CalendarDateTime(date: CalendarDate(year: 2024, month: 7, day: 2), time: TimeOfDay(hour: 9, minute: 0, second: 0), reference: .zone("America/New_York"))
        let settings = [CSVSettings.timeZoneKey: "Europe/Berlin"]
        let log = DiagnosticLog()
        let out = lines(try CSVTestHelpers.write(stream([e]), format: "csv-google", settings: settings, log: log))
        XCTAssertEqual(out[1], "Sync,7/2/2024,2:00 PM,7/2/2024,3:00 PM,False,,,False")
        XCTAssertEqual(log.diagnostics, [])
        let back = CSVTestHelpers.events(try CSVTestHelpers.read(Array(out.joined(separator: "\r\n").utf8), format: "csv-google", settings: settings))[0]
        XCTAssertEqual(back.start, CalendarDateTime(date: CalendarDate(year: 2024, month: 7, day: 2), time: TimeOfDay(hour: 14, minute: 0, second: 0), reference: .zone("Europe/Berlin")))
        XCTAssertThrowsError(try CSVTestHelpers.write(stream([e]), format: "csv-google", settings: [CSVSettings.timeZoneKey: "Mars/Olympus"])) {
            XCTAssertEqual(($0 as? CalendarError)?.kind, .usage)
        }
    }
}
