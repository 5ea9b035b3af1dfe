import CalendarModel
import Conversion
import Foundation
import XCTest

/// `--subscriptions keep|skip|descriptor`: the descriptor is the subscription itself, which a
/// target can subscribe to again.
final class SubscriptionHandlingTests: XCTestCase {
    var harness: ConversionHarness!

    override func setUpWithError() throws { harness = try ConversionHarness() }
    override func tearDown() { harness.remove() }

    func fixture(_ name: String) -> URL { KindFacts.fixtures.appendingPathComponent(name) }

    func testDescriptorWritesTheSubscriptionWithoutItsEvents() throws {
        let out = try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "ics", subscriptions: .descriptor).text
        let expected = try String(contentsOf: fixture("subscriptions/webcal-feed-with-source.descriptor.expected.ics"), encoding: .utf8)
        XCTAssertEqual(out, expected)
    }

    func testDescriptorFromEventKitJSONToICSNamesURLRefreshNameAndColor() throws {
        let out = try harness.convert(fixture("subscriptions/eventkit-subscribed-holidays.json"), to: "ics", subscriptions: .descriptor)
            .text
        XCTAssertFalse(out.contains("BEGIN:VEVENT"))
        XCTAssertTrue(out.contains("SOURCE:webcal://p24-calendars.icloud.com/holiday/US_en.ics\r\n"), out)
        XCTAssertTrue(out.contains("REFRESH-INTERVAL;VALUE=DURATION:P1W\r\n"), out)
        XCTAssertTrue(out.contains("X-WR-CALNAME:US Holidays\r\n"), out)
        XCTAssertTrue(out.contains("X-APPLE-CALENDAR-COLOR:#CC73E1\r\n"), out)
        // Read back, it is a subscription again, with nothing in it.
        let back = harness.directory.appendingPathComponent("descriptor.ics")
        try Data(out.utf8).write(to: back)
        let facts = try KindFacts.facts(of: back)
        XCTAssertEqual(facts.map(\.type), ["subscription"])
        XCTAssertEqual(facts.first?.events, 0)
        XCTAssertEqual(facts.first?.refreshInterval, "P1W")
    }

    func testDescriptorAsJSONKeepsTheSubscriptionFields() throws {
        let out = try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "json", subscriptions: .descriptor).text
        XCTAssertTrue(out.contains("\"type\":\"subscription\""))
        XCTAssertTrue(out.contains("\"subscriptionURL\":\"webcal://calendar.example.org/feeds/bundesliga.ics\""))
        XCTAssertTrue(out.contains("\"refreshInterval\":\"P1D\""))
        XCTAssertFalse(out.contains("\"event\""))
    }

    func testDescriptorAsCalDAVIsASubscribedCollection() throws {
        let out = try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "caldav", subscriptions: .descriptor).text
        XCTAssertTrue(out.contains("<cs:subscribed/>"), out)
        XCTAssertTrue(out.contains("<d:href>webcal://calendar.example.org/feeds/bundesliga.ics</d:href>"), out)
        XCTAssertTrue(out.contains("<ical:refreshrate>P1D</ical:refreshrate>"), out)
        XCTAssertFalse(out.contains("BEGIN:VEVENT"), out)
        // And it reads back as the same subscription.
        let back = harness.directory.appendingPathComponent("descriptor.caldav")
        try Data(out.utf8).write(to: back)
        let facts = try KindFacts.facts(of: back)
        XCTAssertEqual(facts.first?.type, "subscription")
        XCTAssertEqual(facts.first?.subscriptionURL, "webcal://calendar.example.org/feeds/bundesliga.ics")
        XCTAssertEqual(facts.first?.refreshInterval, "P1D")
    }

    func testSkipLeavesSubscriptionsOutAndKeepKeepsTheirEvents() throws {
        let skipped = try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "ics", subscriptions: .skip).text
        XCTAssertEqual(skipped, "")
        let kept = try harness.convert(fixture("subscriptions/webcal-feed-with-source.ics"), to: "ics").text
        XCTAssertTrue(kept.contains("UID:match-2024-03-16-1@calendar.example.org"))
        // A refresh hint alone is no subscription: skip leaves such a calendar alone.
        let hinted = try harness.convert(fixture("subscriptions/nextcloud-export-refresh-hint-only.ics"), to: "ics", subscriptions: .skip)
            .text
        XCTAssertTrue(hinted.contains("SUMMARY:Dentist"))
    }

    func testADescriptorWithoutURLIsWrittenWithAWarning() throws {
        let json = """
            {"format":"calport-json","version":1,"calendars":[
            {"calendar":{"title":"Feed","type":"subscription","allowsContentModifications":false},"entries":[],"trailingProperties":[]}
            ]}
            """
        let input = harness.directory.appendingPathComponent("nourl.json")
        try Data(json.utf8).write(to: input)
        let result = try harness.convert(input, to: "ics", subscriptions: .descriptor)
        XCTAssertTrue(result.text.contains("X-WR-CALNAME:Feed"))
        XCTAssertEqual(
            result.log.diagnostics.map(\.message), ["subscription calendar 'Feed' names no URL; its descriptor cannot be subscribed to"])
    }
}

/// A reader's own kind is kept, and read-only follows from it.
final class StatedKindTests: XCTestCase {
    func testAStatedSubscriptionIsReadOnlyWhateverTheSourceSaid() throws {
        var detection = CalendarKindDetection()
        var calendar = CalendarModel.Calendar(title: "Feed", kind: .subscription, allowsContentModifications: true)
        calendar.subscriptionURL = nil
        var out: [CalendarStreamElement] = []
        try detection.process(.beginCalendar(calendar)) { out.append($0) }
        guard case .beginCalendar(let c) = out.first else { return XCTFail("no calendar") }
        XCTAssertEqual(c.kind, .subscription)
        XCTAssertFalse(c.allowsContentModifications)
        // A stated CalDAV calendar is not re-typed by its events.
        var caldav = CalendarKindDetection()
        out = []
        try caldav.process(.beginCalendar(CalendarModel.Calendar(title: "Work", kind: .calDAV))) { out.append($0) }
        guard case .beginCalendar(let w) = out.first else { return XCTFail("no calendar") }
        XCTAssertEqual(w.kind, .calDAV)
        XCTAssertTrue(w.allowsContentModifications)
    }
}
