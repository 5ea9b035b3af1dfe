import CalendarModel
import Conversion
import Foundation
import Recurrence
import XCTest

/// `--birthdays materialize --birthday-calendar chinese|hebrew`: a birthday recurs on its day
/// of birth in that calendar, with the leap-month and short-month rule written out (SKIP), and
/// comes back on the days lunardate and pyluach give.
final class LunarBirthdayTests: XCTestCase {
    func materialized(_ scale: String) throws -> [String: [String]] {
        let harness = try ConversionHarness()
        defer { harness.remove() }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/lunar-birthdays/nextcloud-family-birthdays.ics")
        let output = harness.directory.appendingPathComponent("out.ics")
        var request = ConversionRequest(inputs: [fixture.path], output: output.path, birthdays: .materialize)
        request.birthdayCalendar = scale
        try Converter().run(request, log: DiagnosticLog())
        return ConversionHarness.events(in: String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }

    /// Dates from an oracle script line (lunardate or pyluach), as YYYYMMDD.
    func oracle(_ python: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-W", "ignore", "-c", python]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("needs `make deps` (lunardate, pyluach)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func occurrences(_ lines: [String], through lastYear: Int) throws -> [String] {
        let start = try XCTUnwrap(lines.first { $0.hasPrefix("DTSTART") }.flatMap { CalendarDateTime(basicISO: String($0.suffix(8))) })
        var item = CalendarItem(uid: "b", start: start)
        item.recurrenceRules = try lines.filter { $0.hasPrefix("RRULE:") }.map { try RecurrenceRule(rfc5545: String($0.dropFirst(6))) }
        let end = CalendarDate(year: lastYear + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        return try RecurrenceSet(master: item, extent: .none).occurrences(
            from: CalendarDate(year: 2025, month: 1, day: 1).daysSinceEpoch * 86_400, to: end
        )
        .occurrences.map(\.start.basicISO)
    }

    func testChineseBirthdaysKeepTheirLunarDateLeapMonthAndThirtiethDay() throws {
        let events = try materialized("chinese")
        // 1984-05-17 is the 17th of the 4th month; 2020-05-23 the 1st of the leap 4th month;
        // 1990-01-26 the 30th of the 12th month (lunardate).
        XCTAssertTrue(
            events["mei-birthday@family.example"]!.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=17;BYMONTH=4;SKIP=BACKWARD"))
        XCTAssertTrue(
            events["jun-birthday@family.example"]!.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=4L;SKIP=BACKWARD"))
        XCTAssertTrue(
            events["li-birthday@family.example"]!.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=12;SKIP=BACKWARD"))
        let lunar = "from lunardate import LunarDate as L\ndef d(x): print(x.strftime('%Y%m%d'))\n"
        XCTAssertEqual(
            try occurrences(events["mei-birthday@family.example"]!, through: 2060),
            try oracle(lunar + "[d(L(y,4,17).to_solar_date()) for y in range(2025,2061)]"))
        // Leap 4th month when the year has one (lunardate decides which years have one), else the 4th.
        XCTAssertEqual(
            try occurrences(events["jun-birthday@family.example"]!, through: 2060),
            try oracle(lunar + "[d(L(y,4,1,L.leap_month_for_year(y)==4).to_solar_date()) for y in range(2025,2061)]"))
        // The 30th of the 12th month, or the 29th when the month is short (lunar year y ends in y+1).
        XCTAssertEqual(
            try occurrences(events["li-birthday@family.example"]!, through: 2060),
            try oracle(
                lunar
                    + "def t(y):\n try: return L(y,12,30).to_solar_date()\n except ValueError: return L(y,12,29).to_solar_date()\n"
                    + "[d(t(y)) for y in range(2024,2060) if 2025<=t(y).year<=2060]"))
    }

    func testHebrewBirthdayInAdarIIOfALeapYear() throws {
        // 2019-03-10 is 3 Adar II 5779: RFC 7529's month 6 (Adar in common years, Adar II in leap years).
        let lines = try XCTUnwrap(try materialized("hebrew")["avi-birthday@family.example"])
        XCTAssertTrue(lines.contains("RRULE:RSCALE=HEBREW;FREQ=YEARLY;BYMONTHDAY=3;BYMONTH=6;SKIP=FORWARD"), "\(lines)")
        XCTAssertEqual(
            try occurrences(lines, through: 2060),
            try oracle(
                "from pyluach import dates as h\n"
                    + "[print(h.HebrewDate(y,13 if (7*y+1)%19<7 else 12,3).to_pydate().strftime('%Y%m%d')) for y in range(5785,5821)]"))
    }
}
