import CalendarModel
import XCTest

final class RecurrenceRuleTextTests: XCTestCase {
    func testParsesEveryPartIntoFields() throws {
        let rule = try RecurrenceRule(rfc5545: "FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU,-1MO;BYHOUR=8,9;BYMINUTE=30;UNTIL=20300101T000000Z;WKST=SU")
        XCTAssertEqual(rule.frequency, .yearly)
        XCTAssertEqual(rule.interval, 2)
        XCTAssertEqual(rule.monthsOfTheYear, [1])
        XCTAssertEqual(rule.daysOfTheWeek, [.init(.sunday), .init(.monday, weekNumber: -1)])
        XCTAssertEqual(rule.byHour, [8, 9])
        XCTAssertEqual(rule.firstDayOfTheWeek, .sunday)
        XCTAssertEqual(rule.end, .until(CalendarDateTime(date: .init(year: 2030, month: 1, day: 1), time: .init(hour: 0, minute: 0, second: 0), reference: .utc)))
    }

    func testCanonicalTextRoundTrips() throws {
        for text in ["FREQ=DAILY;COUNT=10", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1SU,-1SU", "FREQ=YEARLY;BYDAY=MO;BYWEEKNO=20",
                     "RSCALE=HEBREW;FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=5L;SKIP=FORWARD", "FREQ=WEEKLY;X-NAME=value"] {
            XCTAssertEqual(try RecurrenceRule(rfc5545: text).rfc5545Text, text)
        }
    }

    func testRejectsInvalidRules() {
        XCTAssertThrowsError(try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=3;UNTIL=20240101"))
        XCTAssertThrowsError(try RecurrenceRule(rfc5545: "FREQ=MONTHLY;BYMONTHDAY=32"))
        XCTAssertThrowsError(try RecurrenceRule(rfc5545: "INTERVAL=2"))
        XCTAssertThrowsError(try RecurrenceRule(rfc5545: "FREQ=FORTNIGHTLY"))
        XCTAssertEqual(try RecurrenceRule(rfc5545: "FREQ=DAILY;BYSETPOS=1").validationProblems, ["BYSETPOS needs another BYxxx part"])
    }
}
