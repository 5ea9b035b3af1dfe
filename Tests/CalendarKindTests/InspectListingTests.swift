import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// `calport inspect`'s calendar list: type, source, colour and whether the calendar can be
/// modified, right for birthday and subscription calendars.
final class InspectListingTests: XCTestCase {
    func listing(_ url: URL) throws -> String {
        try CalendarInspector().inspect(path: url.path, format: nil, strict: false, log: DiagnosticLog())
            .enumerated().map { $1.listing(number: $0 + 1) }.joined()
    }

    func testBirthdayCalendarListing() throws {
        XCTAssertEqual(
            try listing(KindFacts.fixtures.appendingPathComponent("birthdays/nextcloud-contact-birthdays.ics")),
            """
            1. Contact birthdays
               type: birthday (Birthdays)
               color: #E9D859
               allows modifications: no
               events: 4 (4 birthdays), reminders: 0, recurring: 4, time zones: 0, other components: 0

            """)
    }

    func testSubscriptionListingShowsSourceURLAndRefresh() throws {
        XCTAssertEqual(
            try listing(KindFacts.fixtures.appendingPathComponent("subscriptions/eventkit-subscribed-holidays.json")),
            """
            1. US Holidays
               type: subscription (Subscribed)
               source: Subscribed Calendars (subscribed)
               color: #CC73E1
               allows modifications: no
               subscribed from: webcal://p24-calendars.icloud.com/holiday/US_en.ics
               refresh: every P1W
               events: 1, reminders: 0, recurring: 0, time zones: 0, other components: 0

            """)
    }

    func testAnOrdinaryCalendarWithARefreshHintIsWritable() throws {
        XCTAssertEqual(
            try listing(KindFacts.fixtures.appendingPathComponent("subscriptions/nextcloud-export-refresh-hint-only.ics")),
            """
            1. Personal
               type: local (Local)
               color: #0082C9
               allows modifications: yes
               events: 1, reminders: 0, recurring: 0, time zones: 0, other components: 0

            """)
    }
}
