import CalendarModel
import Conversion
import Foundation
import XCTest

/// Converting onto a calendar that does not allow modifications fails, as EventKit refuses to
/// save into one, and leaves it untouched, unless forced.
final class ReadOnlyTargetTests: XCTestCase {
    var harness: ConversionHarness!

    override func setUpWithError() throws { harness = try ConversionHarness() }
    override func tearDown() { harness.remove() }

    func fixture(_ name: String) -> URL { KindFacts.fixtures.appendingPathComponent(name) }

    /// Puts a copy of a fixture where the output goes.
    func existingOutput(_ fixtureName: String, as name: String) throws -> URL {
        let url = harness.directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: fixture(fixtureName), to: url)
        return url
    }

    func testWritingOntoABirthdayCalendarIsRefusedAndLeavesItAlone() throws {
        let target = try existingOutput("birthdays/apple-birthdays.ics", as: "target.ics")
        let before = try Data(contentsOf: target)
        XCTAssertThrowsError(
            try harness.convert(fixture("birthdays/ordinary-calendar-with-a-copied-birthday.ics"), to: "ics", output: "target.ics")
        ) { error in
            let e = error as? CalendarError
            XCTAssertEqual(e?.kind, .cannotCreateOutput)
            XCTAssertEqual(e?.diagnostic.file, target.path)
            XCTAssertEqual(
                e?.diagnostic.message,
                "'Birthdays' is a birthday calendar (its events come from contacts) and does not allow modifications; refusing to write onto it (use --force to write anyway)"
            )
        }
        XCTAssertEqual(try Data(contentsOf: target), before)
    }

    func testWritingOntoASubscriptionNamesItsURL() throws {
        _ = try existingOutput("subscriptions/eventkit-subscribed-holidays.json", as: "holidays.json")
        XCTAssertThrowsError(try harness.convert(fixture("birthdays/sabre-vobject-birthdays.ics"), to: "json", output: "holidays.json")) {
            error in
            XCTAssertEqual(
                (error as? CalendarError)?.diagnostic.message,
                "'US Holidays' is a subscription calendar (webcal://p24-calendars.icloud.com/holiday/US_en.ics) and does not allow modifications; refusing to write onto it (use --force to write anyway)"
            )
        }
    }

    func testForceWritesAnywayAndWritableTargetsNeedNoForce() throws {
        let target = try existingOutput("birthdays/apple-birthdays.ics", as: "target.ics")
        let written = try harness.convert(
            fixture("birthdays/ordinary-calendar-with-a-copied-birthday.ics"), to: "ics", output: "target.ics", force: true)
        XCTAssertTrue(written.text.contains("X-WR-CALNAME:Family"))
        XCTAssertEqual(String(decoding: try Data(contentsOf: target), as: UTF8.self), written.text)
        // Now the target is an ordinary calendar: writing onto it again needs no force.
        XCTAssertNoThrow(try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "ics", output: "target.ics"))
        // A refresh hint alone is no subscription, so no refusal either.
        _ = try existingOutput("subscriptions/nextcloud-export-refresh-hint-only.ics", as: "personal.ics")
        XCTAssertNoThrow(try harness.convert(fixture("birthdays/sabre-vobject-birthdays.ics"), to: "ics", output: "personal.ics"))
    }

    func testAnOutputThatIsNoCalendarIsNotJudged() throws {
        let url = harness.directory.appendingPathComponent("notes.ics")
        try Data("just some text\n".utf8).write(to: url)
        XCTAssertNil(ReadOnlyTarget(converter: Converter()).readOnlyCalendar(at: url.path, format: nil))
        XCTAssertNoThrow(try harness.convert(fixture("birthdays/sabre-vobject-birthdays.ics"), to: "ics", output: "notes.ics"))
    }

    /// The check reads at most its byte budget of an existing output, so an output of another
    /// shape (read and held whole before) costs no more than a small one: a subscription whose
    /// SOURCE comes after 200 KB of header is judged with a 1 MiB budget and not with 64 KiB.
    func testTheCheckReadsNoMoreThanItsBudgetOfTheExistingOutput() throws {
        let feed = try String(contentsOf: fixture("subscriptions/webcal-feed-with-source.ics"), encoding: .utf8)
        let padding = (0..<2_000).map { "X-PADDING-\($0):" + String(repeating: "p", count: 90) + "\r\n" }.joined()
        let padded = feed.replacingOccurrences(of: "NAME:Bundesliga", with: padding + "NAME:Bundesliga")
        XCTAssertGreaterThan(padded.utf8.count, 190_000)
        let url = harness.directory.appendingPathComponent("feed.ics")
        try Data(padded.utf8).write(to: url)
        let check = ReadOnlyTarget(converter: Converter())
        XCTAssertEqual(check.readOnlyCalendar(at: url.path, format: nil, byteBudget: 1 << 20)?.title, "Bundesliga")
        XCTAssertNil(check.readOnlyCalendar(at: url.path, format: nil, byteBudget: 64 << 10))
        XCTAssertEqual(check.readOnlyCalendar(at: url.path, format: nil)?.kind, .subscription)
    }
}
