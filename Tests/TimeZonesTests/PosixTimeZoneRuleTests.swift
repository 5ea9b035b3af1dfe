import CalendarModel
import TimeZones
import XCTest

/// The POSIX TZ strings that end TZif files (RFC 8536 §3.3).
final class PosixTimeZoneRuleTests: XCTestCase {
    func testUSRule() throws {
        let rule = try XCTUnwrap(PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0"))
        XCTAssertEqual(rule.standardOffset, -5 * 3600)
        XCTAssertEqual(rule.daylightOffset, -4 * 3600)
        // 2030: second Sunday of March is the 10th, first Sunday of November the 3rd.
        XCTAssertEqual(
            rule.transitions(in: 2030).map(\.utcSeconds),
            [FixtureSupport.seconds("20300310T070000Z"), FixtureSupport.seconds("20301103T060000Z")])
    }

    func testSouthernHemisphereHalfHourRule() throws {
        // Lord Howe Island: +10:30, +11 in summer, from the first Sunday of October.
        let rule = try XCTUnwrap(PosixTimeZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        XCTAssertEqual(rule.standardAbbreviation, "+1030")
        XCTAssertEqual(rule.standardOffset, 37_800)
        XCTAssertEqual(rule.daylightOffset, 39_600)
        let transitions = rule.transitions(in: 2030)
        // April 7 02:00 +11 ends daylight time; October 6 02:00 +10:30 starts it.
        XCTAssertEqual(
            transitions.map(\.utcSeconds), [FixtureSupport.seconds("20300406T150000Z"), FixtureSupport.seconds("20301005T153000Z")])
        XCTAssertEqual(transitions.map(\.isDaylight), [false, true])
    }

    func testNegativeDaylightSavingOfIreland() throws {
        let rule = try XCTUnwrap(PosixTimeZoneRule("IST-1GMT0,M10.5.0,M3.5.0/1"))
        XCTAssertEqual(rule.standardOffset, 3600)
        XCTAssertEqual(rule.daylightOffset, 0)
        XCTAssertEqual(rule.transitions(in: 2030).count, 2)
    }

    func testFixedAndMalformedStrings() {
        XCTAssertEqual(PosixTimeZoneRule("<-03>3")?.standardOffset, -3 * 3600)
        XCTAssertNil(PosixTimeZoneRule("<-03>3")?.daylightStart)
        XCTAssertNil(PosixTimeZoneRule("EST5EDT,M13.2.0,M11.1.0"))
        XCTAssertNil(PosixTimeZoneRule("5"))
        XCTAssertNil(PosixTimeZoneRule("EST5EDT,M3.2.0"))
    }
}
