import CalendarModel
import Conversion
import Foundation
import XCTest

/// The golden table Fixtures/leap-day/cases.txt: February 29 and year-less birthdays under
/// each `--birthdays` and `--leap-day` choice, with the dates python-dateutil expands from
/// the DTSTART and RRULE calport writes, so the rule is checked by an independent reader.
final class LeapDayTests: XCTestCase {
    struct Case {
        var line: Int
        var fixture: String
        var uid: String
        var birthdays: BirthdayHandling
        var leapDay: LeapDayRule?
        var start: String
        var rule: String
        var dates: String
    }

    static func cases() throws -> [Case] {
        let url = KindFacts.fixtures.appendingPathComponent("leap-day/cases.txt")
        return try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n").enumerated().compactMap { index, line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = f.first, !first.hasPrefix("#") else { return nil }
            guard f.count >= 7, let handling = BirthdayHandling(rawValue: f[2]) else {
                throw CalendarError(.data, file: url.path, line: index + 1, "malformed case")
            }
            return Case(
                line: index + 1, fixture: f[0], uid: f[1], birthdays: handling, leapDay: LeapDayRule(rawValue: f[3]), start: f[4],
                rule: f[5], dates: f[6...].joined(separator: " "))
        }
    }

    func expand(start: String, rule: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", KindFacts.fixtures.appendingPathComponent("leap-day/expand.py").path, start, "RRULE:" + rule, "20230101", "20251231",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("python3 with dateutil is needed to expand rules") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "-" : text
    }

    func testEveryLeapDayChoiceGivesTheDatesOfItsRule() throws {
        let harness = try ConversionHarness()
        defer { harness.remove() }
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 20)
        for c in cases {
            let place = "cases.txt:\(c.line)"
            let input = KindFacts.fixtures.appendingPathComponent(c.fixture)
            let ics = try harness.convert(input, to: "ics", birthdays: c.birthdays, leapDay: c.leapDay).text
            guard let event = ConversionHarness.events(in: ics)[c.uid] else {
                XCTFail("\(place): no event \(c.uid) in the output")
                continue
            }
            XCTAssertEqual(ConversionHarness.value("DTSTART", in: event), c.start, place)
            XCTAssertEqual(ConversionHarness.value("RRULE", in: event), c.rule, place)
            XCTAssertEqual(event.filter { $0.hasPrefix("RRULE") }.count, 1, place)
            if c.dates != "?" {
                XCTAssertEqual(try expand(start: c.start, rule: c.rule), c.dates, place)
            }
            if c.birthdays == .materialize {
                // Plain events: an all-day day, and none of the vendors' birthday marks.
                XCTAssertNotNil(ConversionHarness.value("DTEND", in: event), place)
                XCTAssertFalse(
                    event.contains { $0.hasPrefix("X-NEXTCLOUD-BC") || $0.hasPrefix("X-APPLE-OMIT-YEAR") || $0.contains("addressbook://") },
                    place)
                XCTAssertFalse(event.contains { $0.contains("X-APPLE-OMIT-YEAR") }, place)
            }
        }
    }

    func testTheLeapDayRulesSayWhatTheirNamesSay() {
        XCTAssertEqual(LeapDayRule.feb28.observance(in: 2023), CalendarDate(year: 2023, month: 2, day: 28))
        XCTAssertEqual(LeapDayRule.mar1.observance(in: 2023), CalendarDate(year: 2023, month: 3, day: 1))
        XCTAssertNil(LeapDayRule.skip.observance(in: 2023))
        for rule in LeapDayRule.allCases { XCTAssertEqual(rule.observance(in: 2024), CalendarDate(year: 2024, month: 2, day: 29)) }
    }
}
