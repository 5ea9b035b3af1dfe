import CalendarModel
import Recurrence
import XCTest

/// Every RRULE example of RFC 5545 §3.8.5.3 with the RFC's own instances
/// (Fixtures/rfc5545-rrule-examples.txt).
final class RFC5545ExampleTests: XCTestCase {
    func testEveryRFCExampleGivesItsInstances() throws {
        let table = try GoldenTable(contentsOf: Fixtures.url("rfc5545-rrule-examples.txt"))
        XCTAssertEqual(table.entries.count, 43, "every example and every alternative rule form is in the table")
        for entry in table.entries {
            let place = "rfc5545-rrule-examples.txt:\(entry.line) \(entry.title)"
            let startText = try XCTUnwrap(entry.fields["DTSTART;TZID=America/New_York"], place)
            var start = try XCTUnwrap(CalendarDateTime(basicISO: startText), place)
            start.reference = .zone("America/New_York")
            var master = CalendarItem(uid: "rfc", title: entry.title, start: start)
            master.recurrenceRules = [try RecurrenceRule(rfc5545: try XCTUnwrap(entry.fields["RRULE"], place))]
            if let ex = entry.fields["EXDATE;TZID=America/New_York"] {
                var exdate = try XCTUnwrap(CalendarDateTime(basicISO: ex))
                exdate.reference = .zone("America/New_York")
                master.exceptionDates = [.init(dates: [exdate])]
            }
            let expected = try XCTUnwrap(entry.fields["INSTANCES"], place).split(separator: ",").map(String.init)
            let isPrefix = entry.fields["PREFIX"] == "YES"
            let set = try RecurrenceSet(master: master, extent: .duration(.init(hours: 1)))
            var iterator = set.makeIterator()
            var got: [String] = []
            while got.count < (isPrefix ? expected.count : expected.count + 1), let occurrence = iterator.next() {
                got.append(occurrence.start.basicISO)
                XCTAssertEqual(occurrence.start.reference, .zone("America/New_York"), place)
                XCTAssertEqual(occurrence.durationSeconds, 3600, place)
            }
            XCTAssertEqual(got, expected, place)
        }
    }

    func testInstantsFollowNewYorkDaylightSavingTime() throws {
        // "Weekly for 10 occurrences": 9:00 EDT (13:00Z) until October 21, then 9:00 EST (14:00Z).
        var master = CalendarItem(
            uid: "w",
            start: CalendarDateTime(
                date: .init(year: 1997, month: 9, day: 2), time: .init(hour: 9, minute: 0, second: 0), reference: .zone("America/New_York"))
        )
        master.recurrenceRules = [try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=10")]
        let occurrences = try RecurrenceSet(master: master, extent: .none).occurrences().occurrences
        XCTAssertEqual(occurrences.count, 10)
        let base = CalendarDate(year: 1997, month: 9, day: 2).daysSinceEpoch * 86_400
        for (week, occurrence) in occurrences.enumerated() {
            let utcHour = week < 8 ? 13 : 14
            XCTAssertEqual(occurrence.startInstant, base + week * 7 * 86_400 + utcHour * 3600, "week \(week)")
            XCTAssertEqual(occurrence.start.time?.hour, 9)
        }
    }
}

/// Every example of RFC 7529 §4.3 with the RFC's own instances
/// (Fixtures/rfc7529-rrule-examples.txt).
final class RFC7529ExampleTests: XCTestCase {
    func testEveryRFC7529ExampleGivesItsInstances() throws {
        let table = try GoldenTable(contentsOf: Fixtures.url("rfc7529-rrule-examples.txt"))
        XCTAssertEqual(table.entries.count, 5)
        for entry in table.entries {
            let place = "rfc7529-rrule-examples.txt:\(entry.line) \(entry.title)"
            let start = try XCTUnwrap(CalendarDateTime(basicISO: try XCTUnwrap(entry.fields["DTSTART;VALUE=DATE"], place)), place)
            var master = CalendarItem(uid: "rfc7529", title: entry.title, start: start)
            master.recurrenceRules = [try RecurrenceRule(rfc5545: try XCTUnwrap(entry.fields["RRULE"], place))]
            let expected = try XCTUnwrap(entry.fields["INSTANCES"], place).split(separator: ",").map(String.init)
            var iterator = try RecurrenceSet(master: master, extent: .none).makeIterator()
            var got: [String] = []
            while got.count < expected.count, let occurrence = iterator.next() { got.append(occurrence.start.basicISO) }
            XCTAssertEqual(got, expected, place)
        }
    }
}
