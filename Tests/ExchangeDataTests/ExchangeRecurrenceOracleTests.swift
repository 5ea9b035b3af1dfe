import CalendarModel
import ExchangeData
import Foundation
import Recurrence
import XCTest

/// Every pattern × range combination and each DayOfWeek special value, converted to a rule and
/// expanded by the recurrence engine, gives the days an independent oracle computes from the EWS
/// fields with Exchange's own semantics (Fixtures/oracle/generate_exchange_cases.py, which walks
/// the calendar day by day and builds no RRULE); and the rule comes back unchanged through
/// rule → Exchange → rule.
final class ExchangeRecurrenceOracleTests: XCTestCase {
    struct Case: Decodable {
        struct Pattern: Decodable {
            var kind: String
            var interval: Int?
            var daysOfWeek: [String]?
            var dayOfMonth: Int?
            var month: Int?
            var index: String?
            var firstDayOfWeek: String?
        }
        struct Range: Decodable {
            var kind: String
            var startDate: String
            var endDate: String?
            var numberOfOccurrences: Int?
        }
        var id: String
        var pattern: Pattern
        var range: Range
        var time: String?
        var zone: String?
        var expected: [String]
        var utc: [String]?
        var complete: Bool
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testEveryPatternAndRangeAgreesWithTheOracle() throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("oracle/exchange_cases.jsonl"))
        var compared = 0
        var instants = 0
        var kinds: Set<String> = []
        var specials: Set<String> = []
        var ranges: Set<String> = []
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let c = try JSONDecoder().decode(Case.self, from: Data(line))
            let recurrence = try XCTUnwrap(Self.recurrence(c), c.id)
            let rangeStart = try XCTUnwrap(Self.date(c.range.startDate))
            let start = try Self.start(date: rangeStart, time: c.time, zone: c.zone)
            let place = "\(c.id) \(c.pattern) \(c.range)"

            let rule = recurrence.recurrenceRule(start: start)
            let first = try XCTUnwrap(recurrence.firstOccurrence(start: start), place)
            var iterator = try RecurrenceRuleIterator(rule: rule, start: first)
            var got: [CalendarDateTime] = []
            while got.count < c.expected.count + (c.complete ? 1 : 0), let next = iterator.next() { got.append(next) }
            XCTAssertEqual(got.map(\.basicISO), c.expected, "\(place) RRULE:\(rule.rfc5545Text) from \(first.basicISO)")
            if let utc = c.utc, case .zone(let zone) = start.reference {
                let clock = TimeZoneDatabaseClock.shared
                let gotUTC = got.prefix(utc.count).compactMap { clock.utcSeconds(zone: zone, wallSeconds: $0.wallSecondsSinceEpoch) }.map {
                    CalendarDateTime(date: CalendarDate(daysSinceEpoch: 0), time: TimeOfDay(hour: 0, minute: 0, second: 0), reference: .utc)
                        .withWallSeconds($0).basicISO
                }
                XCTAssertEqual(gotUTC, utc, place)
                instants += utc.count
            }

            // rule → Exchange → rule is exact.
            let back = try ExchangeRecurrence(rule: rule, start: first)
            XCTAssertEqual(back.recurrenceRule(start: first).rfc5545Text, rule.rfc5545Text, place)
            compared += 1
            kinds.insert(c.pattern.kind)
            ranges.insert(c.range.kind)
            for word in c.pattern.daysOfWeek ?? [] where ["Day", "Weekday", "WeekendDay"].contains(word) { specials.insert(word) }
        }
        XCTAssertEqual(compared, 1232)
        XCTAssertEqual(kinds.count, 6)
        XCTAssertEqual(ranges, ["noEnd", "endDate", "numbered"])
        XCTAssertEqual(specials, ["Day", "Weekday", "WeekendDay"])
        XCTAssertGreaterThan(instants, 4000)
    }

    static func recurrence(_ c: Case) -> ExchangeRecurrence? {
        guard let kind = ExchangeRecurrence.Pattern.Kind(rawValue: c.pattern.kind),
            let rangeKind = ExchangeRecurrence.Range.Kind(rawValue: c.range.kind),
            let startDate = date(c.range.startDate)
        else { return nil }
        let days = (c.pattern.daysOfWeek ?? []).compactMap { ExchangeDayOfWeek(ews: $0) }
        let pattern = ExchangeRecurrence.Pattern(
            kind: kind, interval: c.pattern.interval ?? 1, month: c.pattern.month, dayOfMonth: c.pattern.dayOfMonth,
            daysOfWeek: days, index: c.pattern.index.flatMap { ExchangeWeekIndex(word: $0) },
            firstDayOfWeek: c.pattern.firstDayOfWeek.flatMap { RecurrenceRule.Weekday(ews: $0) })
        let range = ExchangeRecurrence.Range(
            kind: rangeKind, startDate: startDate, endDate: c.range.endDate.flatMap(date),
            numberOfOccurrences: c.range.numberOfOccurrences)
        return ExchangeRecurrence(pattern: pattern, range: range)
    }

    static func date(_ text: String) -> CalendarDate? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return CalendarDate(year: parts[0], month: parts[1], day: parts[2])
    }

    static func start(date: CalendarDate, time: String?, zone: String?) throws -> CalendarDateTime {
        guard let time else { return CalendarDateTime(date: date) }
        let digits = Array(time.utf8).map { Int($0) - 48 }
        let timeOfDay = TimeOfDay(
            hour: digits[0] * 10 + digits[1], minute: digits[2] * 10 + digits[3], second: digits[4] * 10 + digits[5])
        let reference: TimeReference =
            switch zone {
            case nil: .floating
            case "UTC"?: .utc
            case let zone?: .zone(zone)
            }
        return CalendarDateTime(date: date, time: timeOfDay, reference: reference)
    }
}
