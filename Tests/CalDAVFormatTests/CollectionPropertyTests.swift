import CalDAVFormat
import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// What collection properties become: the calendar's title, colour, kind, writability,
/// subscription and the X-CALDAV-* properties, field by field.
final class CollectionPropertyTests: XCTestCase {
    func fixture(_ path: String) throws -> [UInt8] {
        try CalDAVTestSupport.bytes(CalDAVTestSupport.fixtures.appendingPathComponent(path))
    }

    func testHomeWithSubscriptionSharedCalendarAndMissingProperties() throws {
        let (elements, log) = try CalDAVTestSupport.read(
            try fixture("propfind/home-with-subscription-shared-and-missing-properties.xml"), name: "home.xml")
        let calendars = CalDAVTestSupport.calendars(elements)
        // The home and the inbox are collections but not calendars.
        XCTAssertEqual(calendars.map(\.title), ["Work", "Jewish holidays", "Bob's team"])

        let work = calendars[0]
        XCTAssertEqual(work.kind, .calDAV)
        XCTAssertEqual(work.description, "Meetings & deadlines")
        XCTAssertEqual(work.color, "#1BADF8FF")
        XCTAssertTrue(work.allowsContentModifications)
        XCTAssertEqual(work.defaultTimeZone, "Europe/Berlin")
        XCTAssertEqual(CalDAVTestSupport.literal(work, CalDAVProperty.href), "/calendars/users/alice/work/")
        XCTAssertEqual(CalDAVTestSupport.literal(work, CalDAVProperty.ctag), "\"ctag-1234\"")
        XCTAssertEqual(CalDAVTestSupport.literal(work, CalDAVProperty.syncToken), "http://example.com/ns/sync/1234")
        XCTAssertEqual(CalDAVTestSupport.literal(work, CalDAVProperty.order), "1")
        XCTAssertEqual(CalDAVTestSupport.literal(work, CalDAVProperty.components), "VEVENT,VTODO")
        // The calendar-timezone arrives as the calendar's VTIMEZONE entry.
        guard case .entry(.timeZone(let zone), _) = elements[1] else { return XCTFail("no VTIMEZONE after Work: \(elements[1])") }
        XCTAssertEqual(zone.components.map(\.name), ["STANDARD", "DAYLIGHT"])

        let holidays = calendars[1]
        XCTAssertEqual(holidays.kind, .subscription)
        XCTAssertFalse(holidays.allowsContentModifications)
        XCTAssertEqual(holidays.subscriptionURL, "webcal://www.example.org/holidays.ics")
        XCTAssertEqual(holidays.refreshInterval, CalendarDuration(weeks: 1))
        XCTAssertEqual(CalDAVTestSupport.literal(holidays, CalDAVProperty.order), "19")

        let shared = calendars[2]
        XCTAssertEqual(shared.kind, .calDAV)
        XCTAssertFalse(shared.allowsContentModifications, "read and read-current-user-privilege-set only")
        XCTAssertEqual(CalDAVTestSupport.literal(shared, CalDAVProperty.shared), "sharee")

        // 404 and 403 propstats are warnings with their place, not failures.
        XCTAssertEqual(
            log.diagnostics.map { "\($0.line ?? 0) \($0.location ?? "") \($0.message)" },
            [
                "16 /multistatus/response[2] /calendars/users/alice/work/: refreshrate, source not returned (HTTP/1.1 404 Not Found)",
                "80 /multistatus/response[4] /calendars/users/alice/bobs-team/: getctag not returned (HTTP/1.1 403 Forbidden)",
            ])
    }

    func testSabreReadOnlyMarkerAndCollectionWithoutResourceType() throws {
        let calendars = CalDAVTestSupport.calendars(
            try CalDAVTestSupport.read(try fixture("propfind/sabre-read-only-share-without-resourcetype.xml")).elements)
        XCTAssertEqual(calendars.count, 1)
        XCTAssertEqual(calendars[0].title, "Shared with me")
        XCTAssertFalse(calendars[0].allowsContentModifications)
        XCTAssertEqual(CalDAVTestSupport.literal(calendars[0], CalDAVProperty.ctag), "http://sabre.io/ns/sync/7")
    }

    /// sabre/dav's subscription tests create the same subscription with MKCALENDAR and with
    /// extended MKCOL; both bodies describe one subscription calendar.
    func testSabreSubscriptionBodiesReadAsSubscriptions() throws {
        for name in ["testMKCALENDAR_1.xml", "testMKCOL_1.xml"] {
            let url = CalDAVTestSupport.sabreDAV.appendingPathComponent("tests/Sabre/CalDAV/Subscriptions/CreateSubscriptionTest/\(name)")
            let calendars = CalDAVTestSupport.calendars(try CalDAVTestSupport.read(try CalDAVTestSupport.bytes(url)).elements)
            XCTAssertEqual(calendars.count, 1, name)
            let c = try XCTUnwrap(calendars.first)
            XCTAssertEqual(c.kind, .subscription, name)
            XCTAssertEqual(c.title, "Jewish holidays", name)
            XCTAssertEqual(c.description, "Foo", name)
            XCTAssertEqual(c.color, "#1C4587FF", name)
            XCTAssertEqual(c.subscriptionURL, "webcal://www.example.org/", name)
            XCTAssertEqual(c.refreshInterval, CalendarDuration(weeks: 1), name)
            XCTAssertFalse(c.allowsContentModifications, name)
            XCTAssertEqual(CalDAVTestSupport.literal(c, CalDAVProperty.order), "19", name)
        }
    }

    /// `calport inspect -f caldav` lists the collections of a PROPFIND body like any calendars.
    func testInspectListsTheCollections() throws {
        let path = CalDAVTestSupport.fixtures.appendingPathComponent("propfind/home-with-subscription-shared-and-missing-properties.xml")
            .path
        let overview = try CalendarInspector().inspect(path: path, format: "caldav", strict: false, log: DiagnosticLog())
        XCTAssertEqual(overview.map(\.title), ["Work", "Jewish holidays", "Bob's team"])
        XCTAssertEqual(overview.map(\.kind), [.calDAV, .subscription, .calDAV])
        XCTAssertEqual(overview.map(\.allowsContentModifications), [true, false, false])
        XCTAssertEqual(overview.map(\.color), ["#1BADF8FF", "#1C4587FF", "#FF2968"])
        XCTAssertEqual(overview.map(\.timeZones), [1, 0, 0])
    }

    func testSyncCollectionKeepsTheTokenAndReportsTheRemoval() throws {
        let (elements, log) = try CalDAVTestSupport.read(try fixture("report/sync-collection-with-removal-and-token.xml"), name: "sync.xml")
        guard case .endCalendar(let trailing)? = elements.last else { return XCTFail("no end") }
        XCTAssertEqual(
            trailing, [Property(name: CalDAVProperty.syncToken, value: .unknown(type: nil, literal: "http://example.com/ns/sync/1235"))])
        XCTAssertEqual(log.diagnostics.map(\.line), [26])
        XCTAssertTrue(log.diagnostics[0].message.contains("test2.ics: HTTP/1.1 404 Not Found"))
        // A sync answer with no changes still carries its token.
        let empty = #"<multistatus xmlns="DAV:"><sync-token>tok-2</sync-token></multistatus>"#
        let quiet = try CalDAVTestSupport.read(Array(empty.utf8)).elements
        XCTAssertEqual(quiet.count, 2)
        XCTAssertEqual(
            quiet.last,
            .endCalendar(trailingProperties: [Property(name: CalDAVProperty.syncToken, value: .unknown(type: nil, literal: "tok-2"))]))
    }

    func testXCalCalendarDataNestedOrAsText() throws {
        let elements = try CalDAVTestSupport.read(try fixture("report/multiget-with-xcal-calendar-data.xml")).elements
        let items = elements.compactMap { e -> CalendarItem? in
            if case .entry(let entry, _) = e { return entry.item }
            return nil
        }
        XCTAssertEqual(items.map(\.uid), ["nested@example.com", "text@example.com"])
        XCTAssertEqual(
            items[0].start,
            CalendarDateTime(
                date: CalendarDate(year: 2024, month: 5, day: 2), time: TimeOfDay(hour: 9, minute: 30, second: 0),
                reference: .zone("Europe/Paris")))
        XCTAssertEqual(items[0].recurrenceRules.first?.rfc5545Text, "FREQ=WEEKLY;COUNT=3;BYDAY=TH")
        XCTAssertEqual(items[1].title, "xCal as text & escaped")
        XCTAssertEqual(items[1].properties.first { $0.name == CalDAVProperty.etag }?.value, .unknown(type: nil, literal: "\"t-1\""))
    }

    /// Radicale answers with default namespaces and no prefixes at all.
    func testDefaultNamespacesWithoutPrefixes() throws {
        let xml = """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:"><response><href>/alice/cal/</href><propstat><prop>\
            <resourcetype><collection /><C:calendar xmlns:C="urn:ietf:params:xml:ns:caldav" /></resourcetype>\
            <displayname>Radicale</displayname><calendar-color xmlns="http://apple.com/ns/ical/">#ff0000</calendar-color>\
            </prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let c = CalDAVTestSupport.calendars(try CalDAVTestSupport.read(Array(xml.utf8)).elements)
        XCTAssertEqual(c.map(\.title), ["Radicale"])
        XCTAssertEqual(c.map(\.color), ["#ff0000"])
        XCTAssertEqual(c.map(\.kind), [.calDAV])
    }
}

/// Without `-f`, a `.xml` file is recognized by its content: CalDAV bodies and xCal documents.
final class SniffingTests: XCTestCase {
    func testCalDAVAndXCalAreToldApartByContent() throws {
        let registry = StandardFormats.registry
        let rfc = try CalDAVTestSupport.httpBody(CalDAVTestSupport.rfc4791.appendingPathComponent("32-response.http"))
        XCTAssertEqual(registry.format(sniffing: rfc)?.id, "caldav")
        XCTAssertEqual(registry.format(sniffing: Array(#"<?xml version='1.0'?><multistatus xmlns="DAV:"/>"#.utf8))?.id, "caldav")
        let mkcol = try CalDAVTestSupport.bytes(
            CalDAVTestSupport.sabreDAV.appendingPathComponent("tests/Sabre/CalDAV/Subscriptions/CreateSubscriptionTest/testMKCOL_1.xml"))
        XCTAssertEqual(registry.format(sniffing: mkcol)?.id, "caldav")
        let xcal = try CalDAVTestSupport.bytes(
            RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc6321-xcal/appendix-B.1-xcal.xml"))
        XCTAssertEqual(registry.format(sniffing: xcal)?.id, "xcal")
        XCTAssertNil(registry.format(sniffing: Array(#"<?xml version="1.0"?><D:propfind xmlns:D="DAV:"/>"#.utf8)))
    }
}
