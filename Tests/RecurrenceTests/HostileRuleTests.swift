import CalendarModel
import Foundation
import Recurrence
import XCTest

/// Rules a black-box mutation run found crashing or hanging (issue 21): each ends, and fast.
final class HostileRuleTests: XCTestCase {
    /// Processor seconds used so far: what a bound on work measures on a busy machine.
    func cpuSeconds() -> Double { Double(clock()) / Double(CLOCKS_PER_SEC) }

    /// Seconds since 1970 of a wall time, by plain arithmetic.
    func wall(_ text: String) -> Int { T.utc(text) }

    /// INTERVAL=Int.max overflowed the period stepping in every frequency: the series is DTSTART
    /// alone, since the second period lies past 9999-12-31.
    func testHugeIntervalIsDTSTARTAloneInEveryFrequency() throws {
        for freq in ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"] {
            let rule = try RecurrenceRule(rfc5545: "FREQ=\(freq);INTERVAL=9223372036854775807")
            var iterator = try RecurrenceRuleIterator(rule: rule, start: T.dt("20240105T093000"))
            XCTAssertEqual(iterator.next()?.basicISO, "20240105T093000", freq)
            XCTAssertNil(iterator.next(), freq)
            // And within a date range (the skip the range stage makes first, which may leave
            // instances before the range for the caller to drop).
            var skipping = try RecurrenceRuleIterator(rule: rule, start: T.dt("20240105T093000"))
            skipping.skip(to: T.dt("20300101T000000"))
            XCTAssertTrue(Array(skipping).allSatisfy { $0.basicISO == "20240105T093000" }, freq)
        }
    }

    /// The same in a lunar calendar, whose months are stepped one by one.
    func testHugeIntervalInAChineseMonthlyRuleEnds() throws {
        let rule = try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=MONTHLY;INTERVAL=9223372036854775807")
        let started = cpuSeconds()
        let all = Array(try RecurrenceRuleIterator(rule: rule, start: T.dt("20240210")))
        XCTAssertEqual(all.map(\.basicISO), ["20240210"])
        for interval in [100_000, 139_999] {
            let long = try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=MONTHLY;INTERVAL=\(interval)")
            XCTAssertEqual(Array(try RecurrenceRuleIterator(rule: long, start: T.dt("20240210"))).map(\.basicISO), ["20240210"])
        }
        XCTAssertLessThan(cpuSeconds() - started, 20)
    }

    /// FREQ=SECONDLY;COUNT=2147483647 from 1900 asked about 2024 walked four billion seconds;
    /// now it lands on the instance by arithmetic, with the instance's number counted.
    func testCountSeriesBegunLongAgoSkipsToTheWindowAtOnce() throws {
        let rule = try RecurrenceRule(rfc5545: "FREQ=SECONDLY;COUNT=2147483647")
        var iterator = try RecurrenceRuleIterator(rule: rule, start: T.dt("19000101T000000"))
        let started = cpuSeconds()
        iterator.skip(to: T.dt("19600101T000000"))
        // The last instance, 2^31 − 2 seconds after the first, is 1968-01-20T03:14:06.
        XCTAssertEqual(iterator.next()?.basicISO, "19600101T000000")
        iterator.skip(to: T.dt("20240101T000000"))  // a second skip is ignored: counting has begun
        XCTAssertEqual(iterator.next()?.basicISO, "19600101T000001")
        var late = try RecurrenceRuleIterator(rule: rule, start: T.dt("19000101T000000"))
        late.skip(to: T.dt("20240101T000000"))
        XCTAssertNil(late.next(), "the series ended in 1968")
        XCTAssertEqual(late.stop, .count)
        XCTAssertLessThan(cpuSeconds() - started, 1)

        // Through the set, with a range, as `--start/--end` asks.
        let set = try RecurrenceSet(
            master: T.item("s", T.dt("19000101T000000"), rules: ["FREQ=SECONDLY;COUNT=2147483647"]), extent: .none)
        let window = set.occurrences(from: wall("19680120T031400"), to: wall("19680120T031500"))
        XCTAssertEqual(window.occurrences.first?.start.basicISO, "19680120T031400")
        XCTAssertEqual(window.occurrences.last?.start.basicISO, "19680120T031406", "the 2147483647th instance is the last")
        // The set skips to two days before the range (its margin for zone shifts) and walks those.
        XCTAssertLessThan(cpuSeconds() - started, 30)
    }

    /// The arithmetic skip lands where walking every instance lands, with as many left.
    func testCountSkipAgreesWithWalking() throws {
        let cases: [(rule: String, start: String, to: String)] = [
            ("FREQ=MINUTELY;INTERVAL=7;COUNT=40000", "20200101T000000", "20200215T101010"),
            ("FREQ=HOURLY;INTERVAL=5;COUNT=3000", "20200101T013000", "20200601T000000"),
            ("FREQ=SECONDLY;INTERVAL=13;COUNT=90000", "20200101T000001", "20200102T000000"),
            ("FREQ=DAILY;INTERVAL=3;COUNT=500", "20200101", "20210301"),
            ("FREQ=WEEKLY;INTERVAL=2;COUNT=200", "20200102T080000", "20221224T000000"),
            ("FREQ=MONTHLY;INTERVAL=5;COUNT=100", "20200115T080000", "20300115T080000"),
            ("FREQ=MONTHLY;COUNT=100", "20200128T230000", "20231231T000000"),
            ("FREQ=YEARLY;INTERVAL=3;COUNT=50", "20200228T120000", "20500101T000000"),
            ("FREQ=DAILY;COUNT=10", "20200101T000000", "20300101T000000"),
        ]
        for c in cases {
            let rule = try RecurrenceRule(rfc5545: c.rule)
            let target = T.dt(c.to).wallSecondsSinceEpoch
            let walked = Array(try RecurrenceRuleIterator(rule: rule, start: T.dt(c.start))).filter { $0.wallSecondsSinceEpoch >= target }
            var skipping = try RecurrenceRuleIterator(rule: rule, start: T.dt(c.start))
            skipping.skip(to: T.dt(c.to))
            XCTAssertEqual(Array(skipping).map(\.basicISO), walked.map(\.basicISO), c.rule)
        }
    }
}
