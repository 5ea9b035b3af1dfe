import CalendarModel
import Foundation
import TimeZones
import XCTest

/// VTIMEZONEs written from current tz data give, read back as RFC 5545 rules, the offsets
/// Foundation's `TimeZone` gives — before 2037 (dated onsets) and after (RRULEs).
final class TimeZoneDefinitionBuilderTests: XCTestCase {
    let zones = [
        "America/New_York", "Europe/Berlin", "America/Mexico_City", "Africa/Cairo", "Asia/Almaty", "Australia/Lord_Howe",
        "Europe/Dublin", "America/Sao_Paulo", "Asia/Tokyo", "America/Nuuk", "America/Asuncion", "Pacific/Chatham",
    ]

    func testDefinitionsAgreeWithFoundationFrom1970To2060() throws {
        let builder = TimeZoneDefinitionBuilder()
        for zone in zones {
            let definition = try XCTUnwrap(builder.definition(zone: zone, tzid: zone, fromYear: 1970))
            let rules = try XCTUnwrap(VTimeZoneRules(definition), zone)
            let foundation = try XCTUnwrap(TimeZone(identifier: zone))
            var t = FixtureSupport.seconds("19700101T000000Z")
            let end = FixtureSupport.seconds("20600101T000000Z")
            while t < end {
                let expected = foundation.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
                XCTAssertEqual(rules.offset(utcSeconds: t), expected, "\(zone) at \(Date(timeIntervalSince1970: TimeInterval(t)))")
                if rules.offset(utcSeconds: t) != expected { break }
                t += 6 * 3600 + 17
            }
        }
    }

    func testMexicoCityHasNoDaylightTimeAfter2022() throws {
        let definition = try XCTUnwrap(
            TimeZoneDefinitionBuilder().definition(zone: "America/Mexico_City", tzid: "America/Mexico_City", fromYear: 2020))
        XCTAssertFalse(definition.components.contains { $0.property("RRULE") != nil })
        let rules = try XCTUnwrap(VTimeZoneRules(definition))
        XCTAssertEqual(rules.offset(utcSeconds: FixtureSupport.seconds("20300715T000000Z")), -6 * 3600)
    }

    func testCurrentRuleIsWrittenAsRRULE() throws {
        let definition = try XCTUnwrap(TimeZoneDefinitionBuilder().definition(zone: "Europe/Berlin", tzid: "Europe/Berlin", fromYear: 2000))
        let rules = definition.components.compactMap { c -> RecurrenceRule? in
            if case .recurrence(let r)? = c.property("RRULE")?.value { return r }
            return nil
        }
        XCTAssertEqual(rules.count, 2)
        XCTAssertEqual(Set(rules.map(\.monthsOfTheYear)), [[3], [10]])
        XCTAssertTrue(rules.allSatisfy { $0.daysOfTheWeek == [RecurrenceRule.DayOfWeek(.sunday, weekNumber: -1)] })
    }
}
