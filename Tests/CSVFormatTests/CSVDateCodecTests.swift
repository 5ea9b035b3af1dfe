import CalendarModel
import XCTest

@testable import CSVFormat

/// Dates and times through ICU patterns: the locale's, or given ones; strict about days that do
/// not exist; ISO 8601 always accepted.
final class CSVDateCodecTests: XCTestCase {
    func codec(_ locale: String, date: String? = nil, time: String? = nil, seconds: Bool = true) throws -> CSVDateCodec {
        try CSVDateCodec(locale: locale, dateFormat: date, timeFormat: time, writesSeconds: seconds, place: "test")
    }

    func testLocalePatternsReadAndWrite() throws {
        let us = try codec("en_US")
        XCTAssertEqual(us.date("4/6/1990"), CalendarDate(year: 1990, month: 4, day: 6))
        XCTAssertEqual(us.date("09/07/2009"), CalendarDate(year: 2009, month: 9, day: 7))
        XCTAssertEqual(us.time("7:04 PM"), TimeOfDay(hour: 19, minute: 4, second: 0))
        XCTAssertEqual(us.time("10:00:00 AM"), TimeOfDay(hour: 10, minute: 0, second: 0))
        XCTAssertEqual(us.time("12:00:00 AM"), TimeOfDay(hour: 0, minute: 0, second: 0))
        XCTAssertEqual(us.text(CalendarDate(year: 2024, month: 5, day: 1)), "5/1/2024")
        XCTAssertEqual(us.text(TimeOfDay(hour: 13, minute: 5, second: 0)), "1:05:00 PM")
        let de = try codec("de_DE")
        XCTAssertEqual(de.date("01.05.2024"), CalendarDate(year: 2024, month: 5, day: 1))
        XCTAssertEqual(de.date("1.5.2024"), CalendarDate(year: 2024, month: 5, day: 1))
        XCTAssertEqual(de.text(CalendarDate(year: 2024, month: 5, day: 1)), "01.05.2024")
        XCTAssertEqual(de.text(TimeOfDay(hour: 8, minute: 5, second: 0)), "08:05:00")
        XCTAssertEqual(try codec("ja_JP").date("2024/05/01"), CalendarDate(year: 2024, month: 5, day: 1))
        XCTAssertEqual(try codec("en_GB").date("25/12/2024"), CalendarDate(year: 2024, month: 12, day: 25))
    }

    func testGivenPatternsOverrideTheLocale() throws {
        let c = try codec("en_US", date: "dd.MM.yyyy", time: "HH:mm")
        XCTAssertEqual(c.date("24.12.2024"), CalendarDate(year: 2024, month: 12, day: 24))
        XCTAssertNil(c.date("12/24/2024"))
        XCTAssertEqual(c.time("18:30"), TimeOfDay(hour: 18, minute: 30, second: 0))
        XCTAssertEqual(c.text(TimeOfDay(hour: 7, minute: 0, second: 0)), "07:00")
    }

    func testStrictAboutWhatDoesNotExistAndAcceptsISO() throws {
        let c = try codec("en_US")
        XCTAssertNil(c.date("2/30/2024"))
        XCTAssertNil(c.date("13/1/2024"))
        XCTAssertNil(c.date("5/1/2024 extra"))
        XCTAssertNil(c.time("25:00"))
        XCTAssertEqual(c.date("2024-02-29"), CalendarDate(year: 2024, month: 2, day: 29))
        XCTAssertEqual(c.time("23:59:59"), TimeOfDay(hour: 23, minute: 59, second: 59))
    }

    func testUnknownLocaleAndBadPatternAreUsageErrors() {
        XCTAssertThrowsError(try codec("xx_YY")) { XCTAssertEqual(($0 as? CalendarError)?.kind, .usage) }
        XCTAssertThrowsError(try codec("en_US", date: "dd.MM.yyyy'")) { XCTAssertEqual(($0 as? CalendarError)?.kind, .usage) }
        XCTAssertThrowsError(try codec("en_US", time: "yyyy-MM-ddTHH:mm")) { XCTAssertEqual(($0 as? CalendarError)?.kind, .usage) }
        XCTAssertNoThrow(try codec("en_US", time: "yyyy-MM-dd'T'HH:mm"))
    }
}
