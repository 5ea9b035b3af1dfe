import CalendarModel
import TimeZones
import XCTest

/// A file's own VTIMEZONE evaluated as rules (RFC 5545 §3.6.5), with RFC 5545 §3.3.5's reading
/// of nonexistent and repeated local times.
final class VTimeZoneRulesTests: XCTestCase {
    func testOutlookStyleRulesWithGapAndRepeat() throws {
        // US rules of 1987–2006: first Sunday of April, last Sunday of October, 02:00.
        let rules = try XCTUnwrap(VTimeZoneRules(try FixtureSupport.definition("eastern-pre-2007")))
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20050418T090000")), FixtureSupport.seconds("20050418T130000Z"))
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20050115T090000")), FixtureSupport.seconds("20050115T140000Z"))
        // 2005-04-03 02:30 does not exist: read with the offset before the gap (-05:00).
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20050403T023000")), FixtureSupport.seconds("20050403T073000Z"))
        // 2005-10-30 01:30 happens twice: the first (-04:00) is meant.
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20051030T013000")), FixtureSupport.seconds("20051030T053000Z"))
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20051030T020000")), FixtureSupport.seconds("20051030T070000Z"))
    }

    func testRDateOnlyDefinitionAndBackwardJump() throws {
        // python-icalendar issue 722: +10 → +12 on 2024-01-01, back to +10 at 08:00 on 2024-05-05.
        let rules = try XCTUnwrap(VTimeZoneRules(try FixtureSupport.definition("mytimezone")))
        XCTAssertEqual(rules.offset(utcSeconds: FixtureSupport.seconds("20240301T000000Z")), 12 * 3600)
        XCTAssertEqual(rules.offset(utcSeconds: FixtureSupport.seconds("20240601T000000Z")), 10 * 3600)
        // 07:30 on May 5 happens twice (06:00–08:00 repeats); the first is at +12.
        XCTAssertEqual(rules.utcSeconds(wallSeconds: FixtureSupport.seconds("20240505T073000")), FixtureSupport.seconds("20240504T193000Z"))
    }

    func testUntilEndsARule() throws {
        // US--Fictitious-Eastern has daylight time only until 1998.
        let rules = try XCTUnwrap(VTimeZoneRules(try FixtureSupport.definition("us-fictitious-eastern")))
        XCTAssertEqual(rules.offset(utcSeconds: FixtureSupport.seconds("19970701T000000Z")), -4 * 3600)
        XCTAssertEqual(rules.offset(utcSeconds: FixtureSupport.seconds("19990701T000000Z")), -5 * 3600)
    }

    func testNoObservanceIsNoRules() {
        XCTAssertNil(VTimeZoneRules(Component(name: "VTIMEZONE", properties: [Property(name: "TZID", value: .text(["X"]))])))
        XCTAssertNil(VTimeZoneRules(Component(name: "VEVENT")))
    }
}
