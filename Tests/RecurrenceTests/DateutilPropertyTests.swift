import CalendarModel
import Foundation
import Recurrence
import XCTest

/// Compares the expansion with python-dateutil's, an independent implementation, on 400
/// generated rules (Fixtures/dateutil/dateutil_cases.jsonl; regenerate with
/// Fixtures/dateutil/generate_dateutil_cases.py, whose docstring lists what it leaves out).
final class DateutilPropertyTests: XCTestCase {
    struct Case: Decodable {
        var id: String
        var dtstart: String
        var rrule: String
        var expected: [String]
        var complete: Bool
    }

    func testExpansionAgreesWithDateutil() throws {
        let data = try Data(contentsOf: Fixtures.url("dateutil/dateutil_cases.jsonl"))
        var compared = 0
        var instances = 0
        var rangeChecks = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let c = try JSONDecoder().decode(Case.self, from: Data(line))
            let place = "\(c.id) DTSTART:\(c.dtstart) RRULE:\(c.rrule)"
            let start = try XCTUnwrap(CalendarDateTime(basicISO: c.dtstart), place)
            var iterator = try RecurrenceRuleIterator(
                rule: try RecurrenceRule(rfc5545: c.rrule), start: start, startAlwaysOccurs: false)
            var got: [String] = []
            while got.count < c.expected.count + (c.complete ? 1 : 0), let next = iterator.next() {
                got.append(next.basicISO)
            }
            XCTAssertEqual(got, c.expected, place)
            compared += 1

            // A range query that starts mid-series skips ahead (no COUNT: nothing to count)
            // and must give the same tail.
            let rule = try RecurrenceRule(rfc5545: c.rrule)
            if case .until = rule.end, c.complete, c.expected.count >= 3 {
                let middle = c.expected.count / 2
                let from = try XCTUnwrap(CalendarDateTime(basicISO: c.expected[middle])).wallSecondsSinceEpoch
                var master = CalendarItem(uid: c.id, start: start)
                master.recurrenceRules = [rule]
                let set = try RecurrenceSet(master: master, extent: .none, options: .init(startAlwaysOccurs: false))
                XCTAssertEqual(
                    set.occurrences(from: from).occurrences.map(\.start.basicISO), Array(c.expected[middle...]),
                    "\(place) from \(c.expected[middle])")
                rangeChecks += 1
            }
            instances += got.count
        }
        XCTAssertEqual(compared, 400)
        XCTAssertGreaterThan(rangeChecks, 100)
        XCTAssertGreaterThan(instances, 5000)
    }
}
