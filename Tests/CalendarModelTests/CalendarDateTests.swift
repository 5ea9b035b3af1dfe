import CalendarModel
import XCTest

final class CalendarDateTests: XCTestCase {
    func testEpochDayRoundTripsAcrossCenturies() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            XCTAssertEqual(CalendarDate(daysSinceEpoch: days).daysSinceEpoch, days)
        }
        XCTAssertEqual(CalendarDate(year: 1970, month: 1, day: 1).daysSinceEpoch, 0)
        XCTAssertEqual(CalendarDate(year: 2000, month: 3, day: 1).daysSinceEpoch, 11_017)
    }

    func testWeekdaysAndLeapYears() {
        XCTAssertEqual(CalendarDate(year: 1997, month: 9, day: 2).isoWeekday, 2)  // RFC 5545 examples start on a Tuesday
        XCTAssertEqual(CalendarDate(year: 2024, month: 2, day: 29).isValid, true)
        XCTAssertEqual(CalendarDate(year: 2100, month: 2, day: 29).isValid, false)
        XCTAssertEqual(CalendarDate(year: 2000, month: 2, day: 29).isValid, true)
    }

    func testDurationSeconds() {
        XCTAssertEqual(CalendarDuration(isNegative: true, minutes: 15).totalSeconds, -900)
        XCTAssertEqual(CalendarDuration(seconds: 90_061), CalendarDuration(days: 1, hours: 1, minutes: 1, seconds: 1))
        XCTAssertEqual(CalendarDuration(weeks: 1).wholeDays, 7)
    }
}
