import CalendarTestSupport
import Foundation
import XCTest

/// The options as a user types them: `--birthdays`, `--leap-day`, `--subscriptions`, `--force`,
/// and the exit status and message of a refused write.
final class CalendarKindCommandLineTests: XCTestCase {
    var harness: ConversionHarness!
    var runner: CommandRunner { CommandRunner(directory: harness.directory) }

    override func setUpWithError() throws { harness = try ConversionHarness() }
    override func tearDown() { harness.remove() }

    func fixture(_ name: String) -> String { KindFacts.fixtures.appendingPathComponent(name).path }

    func testARefusedWriteExitsWith73AndForceWrites() throws {
        try FileManager.default.copyItem(
            atPath: fixture("birthdays/apple-birthdays.ics"), toPath: harness.directory.appendingPathComponent("b.ics").path)
        let refused = try runner.calport(["convert", fixture("subscriptions/webcal-feed-with-source.ics"), "-o", "b.ics"])
        XCTAssertEqual(refused.status, 73)
        XCTAssertEqual(
            refused.stderr,
            "b.ics: error: 'Birthdays' is a birthday calendar (its events come from contacts) and does not allow modifications; refusing to write onto it (use --force to write anyway)\n"
        )
        let forced = try runner.calport(["convert", fixture("subscriptions/webcal-feed-with-source.ics"), "-o", "b.ics", "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
    }

    func testBirthdayAndSubscriptionOptions() throws {
        let materialized = try runner.calport([
            "convert", fixture("birthdays/apple-birthdays.ics"), "-t", "ics", "--birthdays", "materialize", "--leap-day", "mar1",
        ])
        XCTAssertEqual(materialized.status, 0, materialized.stderr)
        XCTAssertTrue(materialized.stdout.contains("RRULE:FREQ=YEARLY;BYYEARDAY=60\r\n"))
        let descriptor = try runner.calport([
            "convert", fixture("subscriptions/webcal-feed-with-source.ics"), "-t", "ics", "--subscriptions", "descriptor",
        ])
        XCTAssertEqual(
            descriptor.stdout,
            try String(contentsOfFile: fixture("subscriptions/webcal-feed-with-source.descriptor.expected.ics"), encoding: .utf8))
        let wrong = try runner.calport(["convert", fixture("birthdays/apple-birthdays.ics"), "-t", "ics", "--leap-day", "mar2"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("mar2"), wrong.stderr)
    }

    func testInspectListsTheBirthdayCalendar() throws {
        let run = try runner.calport(["inspect", fixture("birthdays/sabre-vobject-birthdays.ics")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            1. Contact birthdays
               type: birthday (Birthdays)
               color: none
               allows modifications: no
               events: 2 (2 birthdays), reminders: 0, recurring: 2, time zones: 0, other components: 0

            """)
    }
}
