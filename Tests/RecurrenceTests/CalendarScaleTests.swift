import CalendarModel
import Recurrence
import XCTest

/// ICU's calendars as RFC 7529 §4.2 labels their months: leap months, Hebrew Adar I, names.
final class CalendarScaleTests: XCTestCase {
    private func labels(_ year: CalendarScale.Year) -> [String] {
        year.months.map { "\($0.number)\($0.isLeap ? "L" : "")" }
    }

    func testChineseYearWithLeapNinthMonth() throws {
        let scale = try XCTUnwrap(try CalendarScale.forRSCALE("CHINESE"))
        // 4651 (2014–15) has a leap ninth month from 2014-10-24 (RFC 7529's and libical's 9L cases).
        let year = try XCTUnwrap(scale.year(4651))
        XCTAssertEqual(labels(year), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "9L", "10", "11", "12"])
        XCTAssertEqual(year.firstDay, CalendarDate(year: 2014, month: 1, day: 31).daysSinceEpoch)
        XCTAssertEqual(year.months[9].firstDay, CalendarDate(year: 2014, month: 10, day: 24).daysSinceEpoch)
        XCTAssertEqual(year.months.map(\.length).reduce(0, +), year.length)
        XCTAssertTrue(year.months.allSatisfy { $0.length == 29 || $0.length == 30 })
        let position = try XCTUnwrap(scale.position(ofDay: CalendarDate(year: 2014, month: 11, day: 2).daysSinceEpoch))
        XCTAssertEqual([position.year, position.monthIndex, position.day], [4651, 9, 10])
    }

    func testHebrewAdarIIsFiveL() throws {
        let scale = try XCTUnwrap(try CalendarScale.forRSCALE("hebrew"))
        XCTAssertEqual(labels(try XCTUnwrap(scale.year(5774))), ["1", "2", "3", "4", "5", "5L", "6", "7", "8", "9", "10", "11", "12"])
        XCTAssertEqual(labels(try XCTUnwrap(scale.year(5775))), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"])
        // 5774 began on 2013-09-05 (Rosh Hashanah).
        XCTAssertEqual(try XCTUnwrap(scale.year(5774)).firstDay, CalendarDate(year: 2013, month: 9, day: 5).daysSinceEpoch)
    }

    func testEthiopicThirteenthMonthIsShort() throws {
        let scale = try XCTUnwrap(try CalendarScale.forRSCALE("ETHIOPIC"))
        let year = try XCTUnwrap(scale.year(2005))
        XCTAssertEqual(year.months.count, 13)
        XCTAssertTrue([5, 6].contains(year.months[12].length))
    }

    func testNamesAliasesAndUnknownNames() throws {
        XCTAssertNil(try CalendarScale.forRSCALE("GREGORIAN"))  // the engine's own
        XCTAssertNil(try CalendarScale.forRSCALE("gregory"))
        XCTAssertEqual(try CalendarScale.forRSCALE("ISLAMICC")?.identifier, "islamic-civil")
        for name in RecurrenceRule.calendarScales where name != "gregorian" {
            XCTAssertEqual(try CalendarScale.forRSCALE(name.uppercased())?.identifier, name, "ICU must have \(name)")
        }
        XCTAssertThrowsError(try CalendarScale.forRSCALE("RUSSIAN")) { error in
            XCTAssertEqual((error as? RecurrenceError)?.kind, .unsupported)
        }
    }
}
