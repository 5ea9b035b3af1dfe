import CalendarModel
import XCTest

/// `withWallSeconds` is the inverse of `wallSecondsSinceEpoch`, before 1970 too.
final class WallSecondsTests: XCTestCase {
    func testRoundTripsAcrossTheEpochAndCenturies() {
        let template = CalendarDateTime(
            date: .init(year: 2000, month: 1, day: 1), time: .init(hour: 0, minute: 0, second: 0), reference: .utc)
        XCTAssertEqual(template.withWallSeconds(-1).basicISO, "19691231T235959Z")
        XCTAssertEqual(template.withWallSeconds(-86_400).basicISO, "19691231T000000Z")
        for seconds in stride(from: -5_000_000_000, through: 8_000_000_000, by: 7_777_777) {
            XCTAssertEqual(template.withWallSeconds(seconds).wallSecondsSinceEpoch, seconds)
        }
        XCTAssertEqual(CalendarDateTime.day(2024, 2, 29).withWallSeconds(-86_399).basicISO, "19691231", "a DATE stays a DATE")
    }
}
