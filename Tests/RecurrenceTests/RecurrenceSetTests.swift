import CalendarModel
import Recurrence
import XCTest

/// The recurrence set: wall-time expansion across DST, RFC 5545 §3.3.5 gaps and overlaps,
/// UNTIL, RDATE/EXDATE, detached occurrences, and the safety limits.
final class RecurrenceSetTests: XCTestCase {
    func testNineOClockStaysNineAcrossDaylightSavingTime() throws {
        // Berlin moves to CEST on 2024-03-31: 09:00 is 08:00Z before, 07:00Z from then on.
        let set = try RecurrenceSet(
            master: T.item("d", T.dt("20240328T090000", "Europe/Berlin"), rules: ["FREQ=DAILY;COUNT=6"]), extent: .duration(.init(hours: 1))
        )
        let occurrences = set.occurrences().occurrences
        XCTAssertEqual(
            occurrences.map(\.start.basicISO),
            ["20240328T090000", "20240329T090000", "20240330T090000", "20240331T090000", "20240401T090000", "20240402T090000"])
        XCTAssertEqual(
            occurrences.map(\.startInstant),
            [
                T.utc("20240328T080000"), T.utc("20240329T080000"), T.utc("20240330T080000"),
                T.utc("20240331T070000"), T.utc("20240401T070000"), T.utc("20240402T070000"),
            ])
        XCTAssertTrue(occurrences.allSatisfy { $0.durationSeconds == 3600 && $0.end.time?.hour == 10 })
    }

    func testNonexistentTimeIsReadWithTheOffsetBeforeTheGap() throws {
        // 2024-03-10 02:30 does not exist in New York: RFC 5545 §3.3.5 reads it with EST
        // (−05:00), i.e. 07:30Z, which is 03:30 EDT.
        let set = try RecurrenceSet(
            master: T.item("g", T.dt("20240309T023000", "America/New_York"), rules: ["FREQ=DAILY;COUNT=3"]), extent: .none)
        let o = set.occurrences().occurrences
        XCTAssertEqual(o.map(\.startInstant), [T.utc("20240309T073000"), T.utc("20240310T073000"), T.utc("20240311T063000")])
        XCTAssertEqual(o[1].start.basicISO, "20240310T033000")
        XCTAssertEqual(o[1].recurrenceID.basicISO, "20240310T023000", "the RECURRENCE-ID keeps the rule's wall time")
    }

    func testRepeatedTimeMeansItsFirstOccurrence() throws {
        // 01:30 happens twice on 2024-11-03 in New York; the first is EDT (05:30Z).
        let set = try RecurrenceSet(
            master: T.item("a", T.dt("20241102T013000", "America/New_York"), rules: ["FREQ=DAILY;COUNT=2"]), extent: .none)
        XCTAssertEqual(set.occurrences().occurrences.map(\.startInstant), [T.utc("20241102T053000"), T.utc("20241103T053000")])
    }

    func testUntilKinds() throws {
        // A UTC UNTIL bounds a zoned start as an instant: 13:00Z is 09:00 EDT, so the 09:00 of
        // that day is the last; 14:00 local is 18:00Z.
        var it = try RecurrenceRuleIterator(
            rule: try RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20240603T130000Z"), start: T.dt("20240601T090000", "America/New_York"))
        XCTAssertEqual(Array(IteratorSequence(it)).map(\.basicISO), ["20240601T090000", "20240602T090000", "20240603T090000"])
        it = try RecurrenceRuleIterator(
            rule: try RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20240603T125959Z"), start: T.dt("20240601T090000", "America/New_York"))
        XCTAssertEqual(Array(IteratorSequence(it)).count, 2)
        // A DATE UNTIL keeps its whole day.
        it = try RecurrenceRuleIterator(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20240603"), start: T.dt("20240601T230000"))
        var starts: [String] = []
        while let next = it.next() { starts.append(next.basicISO) }
        XCTAssertEqual(starts, ["20240601T230000", "20240602T230000", "20240603T230000"])
        XCTAssertEqual(it.stop, .until)
    }

    func testFloatingTimesAreReadInTheFloatingZone() throws {
        let master = T.item("f", T.dt("20240115T090000"), rules: ["FREQ=DAILY;COUNT=1"])
        XCTAssertEqual(try RecurrenceSet(master: master, extent: .none).occurrences().occurrences[0].startInstant, T.utc("20240115T090000"))
        let paris = try RecurrenceSet(master: master, extent: .none, options: .init(floatingTimeZone: "Europe/Paris"))
        XCTAssertEqual(paris.occurrences().occurrences[0].startInstant, T.utc("20240115T080000"))
    }

    func testDatesPeriodsExceptionsOverridesAndCancellations() throws {
        var master = T.item("s", T.dt("20240101T100000Z"), rules: ["FREQ=WEEKLY;COUNT=5"])
        master.exceptionDates = [.init(dates: [T.dt("20240108T100000Z")])]
        master.recurrenceDates = [.init(periods: [CalendarPeriod(start: T.dt("20240103T150000Z"), extent: .duration(.init(hours: 2)))])]
        var moved = T.item("s", T.dt("20240116T120000Z"))
        moved.recurrenceID = T.dt("20240115T100000Z")
        var cancelled = T.item("s", T.dt("20240122T100000Z"))
        cancelled.recurrenceID = T.dt("20240122T100000Z")
        cancelled.status = .cancelled
        let set = try RecurrenceSet(
            master: master, extent: .duration(.init(hours: 1)),
            overrides: [.init(item: moved, extent: .duration(.init(minutes: 30))), .init(item: cancelled, extent: .none)])
        let o = set.occurrences().occurrences
        XCTAssertEqual(o.map(\.start.basicISO), ["20240101T100000Z", "20240103T150000Z", "20240116T120000Z", "20240129T100000Z"])
        XCTAssertEqual(o.map(\.durationSeconds), [3600, 7200, 1800, 3600])
        XCTAssertEqual(o.map(\.source), [.master, .master, .override(0), .master])
        XCTAssertEqual(o[2].recurrenceID.basicISO, "20240115T100000Z")
        // The lazy iterator gives the same set, in recurrence-id order.
        XCTAssertEqual(Array(IteratorSequence(set.makeIterator())).map(\.start.basicISO), o.map(\.start.basicISO))
    }

    func testThisAndFutureMovesEveryLaterInstance() throws {
        let master = T.item("t", T.dt("20240101T100000Z"), rules: ["FREQ=WEEKLY;COUNT=4"])
        var future = T.item("t", T.dt("20240115T113000Z"))
        future.recurrenceID = T.dt("20240115T100000Z")
        future.recurrenceAppliesToFuture = true
        let set = try RecurrenceSet(master: master, extent: .none, overrides: [.init(item: future, extent: .duration(.init(hours: 2)))])
        let o = set.occurrences().occurrences
        XCTAssertEqual(o.map(\.start.basicISO), ["20240101T100000Z", "20240108T100000Z", "20240115T113000Z", "20240122T113000Z"])
        XCTAssertEqual(o.map(\.source), [.master, .master, .override(0), .override(0)])
        XCTAssertEqual(o.last?.durationSeconds, 7200)
        // A moved occurrence is found where it is now, not where its RECURRENCE-ID was.
        XCTAssertEqual(set.occurrences(from: T.utc("20240122T110000"), to: T.utc("20240122T120000")).occurrences.count, 1)
    }

    func testRangeUsesEventKitOverlap() throws {
        let set = try RecurrenceSet(
            master: T.item("r", T.dt("20240101T100000Z"), rules: ["FREQ=DAILY"]), extent: .duration(.init(hours: 2)))
        // [11:00, 11:30) on Jan 5 overlaps the 10:00–12:00 occurrence; [12:00, 13:00) does not.
        XCTAssertEqual(
            set.occurrences(from: T.utc("20240105T110000"), to: T.utc("20240105T113000")).occurrences.map(\.start.basicISO),
            ["20240105T100000Z"])
        XCTAssertEqual(set.occurrences(from: T.utc("20240105T120000"), to: T.utc("20240105T130000")).occurrences.count, 0)
        // Far from DTSTART (no four-year limit), still exact.
        XCTAssertEqual(
            set.occurrences(from: T.utc("21000301T000000"), to: T.utc("21000302T000000")).occurrences.map(\.start.basicISO),
            ["21000301T100000Z"])
    }

    func testUnboundedSecondlyRuleIsBoundedByRangeAndLimit() throws {
        let set = try RecurrenceSet(
            master: T.item("x", T.dt("20240101T000000Z"), rules: ["FREQ=SECONDLY"]), extent: .none, options: .init(maxOccurrences: 1000))
        let window = set.occurrences(from: T.utc("20300601T120000"), to: T.utc("20300601T120010"))
        XCTAssertEqual(window.occurrences.count, 10)
        XCTAssertFalse(window.truncated)
        let open = set.occurrences()
        XCTAssertEqual(open.occurrences.count, 1000)
        XCTAssertTrue(open.truncated)
        XCTAssertTrue(open.warnings.contains { $0.contains("1000 occurrences") }, "\(open.warnings)")
        XCTAssertEqual(Array(IteratorSequence(set.makeIterator())).count, 1000)
    }

    func testRulesThatCanNeverRecurStop() throws {
        for rule in [
            "FREQ=MONTHLY;BYMONTHDAY=30;BYMONTH=2", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=HOURLY;INTERVAL=2;BYHOUR=1",
            "FREQ=DAILY;INTERVAL=7;BYDAY=MO", "FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1;BYSECOND=0",
        ] {
            let set = try RecurrenceSet(master: T.item("n", T.dt("20240102T000000Z"), rules: [rule]), extent: .none)
            let expansion = set.occurrences()
            XCTAssertEqual(expansion.occurrences.map(\.start.basicISO), ["20240102T000000Z"], rule)
            XCTAssertTrue(expansion.warnings.contains { $0.contains("no further instance") }, "\(rule): \(expansion.warnings)")
        }
        XCTAssertTrue(
            try RecurrenceRule(rfc5545: "FREQ=MONTHLY;BYMONTHDAY=30;BYMONTH=2").validationProblems(start: nil).contains {
                $0.contains("never occurs")
            })
    }

    func testLeapDayAndDay31RulesSkipMonthsWithoutThem() throws {
        var it = try RecurrenceRuleIterator(rule: try RecurrenceRule(rfc5545: "FREQ=YEARLY;COUNT=3"), start: T.dt("20240229"))
        XCTAssertEqual(Array(IteratorSequence(it)).map(\.basicISO), ["20240229", "20280229", "20320229"])
        it = try RecurrenceRuleIterator(rule: try RecurrenceRule(rfc5545: "FREQ=MONTHLY;COUNT=4"), start: T.dt("20240131T080000"))
        XCTAssertEqual(
            Array(IteratorSequence(it)).map(\.basicISO), ["20240131T080000", "20240331T080000", "20240531T080000", "20240731T080000"])
    }

    func testGregorianSkipFillsInMissingDays() throws {
        // RFC 7529 §4.3.4: a leap-day anniversary moves to March 1 in common years.
        var it = try RecurrenceRuleIterator(
            rule: try RecurrenceRule(rfc5545: "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD;COUNT=6"), start: T.dt("20120229"))
        XCTAssertEqual(
            Array(IteratorSequence(it)).map(\.basicISO), ["20120229", "20130301", "20140301", "20150301", "20160229", "20170301"])
        it = try RecurrenceRuleIterator(
            rule: try RecurrenceRule(rfc5545: "RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD;COUNT=3"), start: T.dt("20120229"))
        XCTAssertEqual(Array(IteratorSequence(it)).map(\.basicISO), ["20120229", "20130228", "20140228"])
        // Without RSCALE, SKIP means nothing and RFC 5545 omits the missing days.
        it = try RecurrenceRuleIterator(rule: try RecurrenceRule(rfc5545: "FREQ=YEARLY;SKIP=FORWARD;COUNT=2"), start: T.dt("20120229"))
        XCTAssertEqual(Array(IteratorSequence(it)).map(\.basicISO), ["20120229", "20160229"])
        XCTAssertTrue(
            try RecurrenceRule(rfc5545: "FREQ=YEARLY;SKIP=FORWARD").validationProblems(start: nil).contains { $0.contains("SKIP") })
    }

    func testUnknownScaleIsRefusedNotExpandedWrong() {
        XCTAssertThrowsError(
            try RecurrenceSet(master: T.item("h", T.dt("20240101"), rules: ["RSCALE=RUSSIAN;FREQ=YEARLY;BYMONTH=5L"]), extent: .none)
        ) { error in
            XCTAssertEqual((error as? RecurrenceError)?.kind, .unsupported)
            XCTAssertTrue("\(error)".contains("RSCALE=RUSSIAN names no calendar system"), "\(error)")
        }
        XCTAssertNoThrow(try RecurrenceSet(master: T.item("h", T.dt("20240101"), rules: ["RSCALE=HEBREW;FREQ=YEARLY"]), extent: .none))
        XCTAssertNoThrow(try RecurrenceSet(master: T.item("g", T.dt("20240101"), rules: ["RSCALE=GREGORIAN;FREQ=YEARLY"]), extent: .none))
    }

    func testOutOfRangeValuesFromOtherSourcesAreRefused() {
        // A rule built in code (or read from JSON) skips the text parser's checks.
        for rule in [
            RecurrenceRule(frequency: .yearly, daysOfTheYear: [400]), RecurrenceRule(frequency: .monthly, daysOfTheMonth: [0]),
            RecurrenceRule(frequency: .daily, byHour: [24]), RecurrenceRule(frequency: .daily, interval: 0),
            RecurrenceRule(frequency: .yearly, months: [.init(0)]), RecurrenceRule(frequency: .daily, end: .count(0)),
        ] {
            var master = T.item("bad", T.dt("20240101T000000Z"))
            master.recurrenceRules = [rule]
            XCTAssertThrowsError(try RecurrenceSet(master: master, extent: .none), rule.rfc5545Text) { error in
                XCTAssertEqual((error as? RecurrenceError)?.kind, .invalid)
            }
        }
    }

    func testDateStartIgnoresTimePartsAndSaysSo() throws {
        let set = try RecurrenceSet(master: T.item("d", T.dt("20240101"), rules: ["FREQ=DAILY;COUNT=2;BYHOUR=9"]), extent: .none)
        let expansion = set.occurrences()
        XCTAssertEqual(expansion.occurrences.map(\.start.basicISO), ["20240101", "20240102"])
        XCTAssertEqual(expansion.occurrences.map(\.durationSeconds), [86_400, 86_400])
        XCTAssertTrue(expansion.warnings.contains { $0.contains("BYHOUR") }, "\(expansion.warnings)")
    }

    func testValidationNamesEveryConstraint() throws {
        func problems(_ text: String, _ start: CalendarDateTime? = nil) throws -> [String] {
            try RecurrenceRule(rfc5545: text).validationProblems(start: start)
        }
        XCTAssertEqual(try problems("FREQ=DAILY;BYSETPOS=1"), ["BYSETPOS needs another BYxxx part"])
        XCTAssertTrue(try problems("FREQ=MONTHLY;BYWEEKNO=3").contains { $0.contains("BYWEEKNO") })
        XCTAssertTrue(try problems("FREQ=WEEKLY;BYDAY=2MO").contains { $0.contains("ordinals") })
        XCTAssertTrue(try problems("FREQ=DAILY;UNTIL=20240101", T.dt("20230101T090000")).contains { $0.contains("same value type") })
        XCTAssertTrue(
            try problems("FREQ=DAILY;UNTIL=20240101T000000", T.dt("20230101T090000", "Europe/Paris")).contains { $0.contains("UTC") })
        XCTAssertEqual(try problems("FREQ=DAILY;UNTIL=20240101T000000Z", T.dt("20230101T090000", "Europe/Paris")), [])
    }
}
