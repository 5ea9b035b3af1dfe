import CalDAVFormat
import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A real CalDAV server: Radicale (installed by `make deps`) runs on 127.0.0.1 on a free port
/// with a throw-away storage folder and no authentication. A few hundred events are PUT to it
/// over plain HTTP, its REPORT and PROPFIND answers are converted with the calport binary,
/// and every event comes back with the same UID, instants, title, attendees and recurrence;
/// the subscribed collection comes back as a subscription calendar. The server is stopped in
/// tearDown, which runs whether the test passed or failed.
final class RadicaleRoundTripTests: XCTestCase {
    static let eventCount = 300
    var server: LiveServer?
    var work: URL!

    override func tearDown() {
        server?.stop()
        server = nil
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    func python(_ arguments: [String]) throws -> CalportProcess.Run {
        try CalportProcess.run(URL(fileURLWithPath: LiveServer.python), arguments)
    }

    func startRadicale() throws -> Int {
        let started = try LiveServer(.radicale(users: [:]), folder: work.appendingPathComponent("radicale"))
        server = started
        return started.port
    }

    /// What must survive for one event (a master or a moved occurrence).
    struct Essentials: Equatable, CustomStringConvertible {
        var uid: String?
        var recurrenceID: CalendarDateTime?
        var start: CalendarDateTime?
        var end: CalendarDateTime?
        var title: String?
        var attendees: [String]
        var organizer: String?
        var rules: [RecurrenceRule]
        var exceptions: [CalendarDateTime]

        var description: String { "\(uid ?? "-") \(recurrenceID.map { "\($0)" } ?? "") \(title ?? "")" }

        init(_ e: Event) {
            uid = e.uid
            recurrenceID = e.recurrenceID
            start = e.start
            end = e.effectiveEnd
            title = e.title
            organizer = e.organizer.map { "\($0)" }
            attendees = e.attendees.map { "\($0)" }
            rules = e.recurrenceRules
            exceptions = e.exceptionDates.flatMap(\.dates)
        }
    }

    func events(_ elements: [CalendarStreamElement]) -> [Event] {
        elements.compactMap { e in
            if case .entry(.event(let event), _) = e { return event }
            return nil
        }
    }

    func testEveryEventComesBackThroughCalport() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-radicale-\(UUID().uuidString)")
        let eventsFolder = work.appendingPathComponent("events"), answers = work.appendingPathComponent("answers")
        try FileManager.default.createDirectory(at: eventsFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: answers, withIntermediateDirectories: true)
        let generated = GeneratedEvents.make(count: Self.eventCount)
        for (name, ics) in generated { try Data(ics.utf8).write(to: eventsFolder.appendingPathComponent(name)) }

        let port = try startRadicale()
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Radicale/radicale_harness.py")
        let put = try python([harness.path, "--port", "\(port)", "--events", eventsFolder.path, "--out", answers.path])
        XCTAssertEqual(put.status, 0, put.stderr)
        XCTAssertEqual(put.stdout, "put \(Self.eventCount) events\n")

        // What was PUT, read by the library's ICS reader: the truth to compare with.
        var expected: [String: Essentials] = [:]
        var expectedHref: [String: String] = [:]
        for (name, ics) in generated {
            for event in events(try CalDAVTestSupport.read(Array(ics.utf8), format: "ics", name: name).elements) {
                let e = Essentials(event)
                expected[e.description] = e
                expectedHref[e.description] = "/alice/work/\(name)"
            }
        }
        XCTAssertGreaterThan(expected.count, Self.eventCount)

        // The REPORT answers through the calport binary, to ICS, read back.
        for (answer, count) in [
            ("report-calendar-query.xml", expected.count), ("report-sync-collection.xml", expected.count),
            ("report-calendar-multiget.xml", -1),
        ] {
            let run = try CalportProcess.run(
                ["convert", answers.appendingPathComponent(answer).path, "-t", "ics", "-o", "\(answer).ics"], in: work)
            XCTAssertEqual(run.status, 0, "\(answer): \(run.stderr)")
            let converted = try CalDAVTestSupport.read(
                try CalDAVTestSupport.bytes(work.appendingPathComponent("\(answer).ics")), format: "ics"
            ).elements
            let got = events(converted)
            if count >= 0 { XCTAssertEqual(got.count, count, answer) }
            var seen = Set<String>()
            for event in got {
                let e = Essentials(event)
                XCTAssertTrue(seen.insert(e.description).inserted, "\(answer): \(e) twice")
                guard let want = expected[e.description] else {
                    XCTFail("\(answer): \(e) was never PUT")
                    continue
                }
                XCTAssertEqual(e, want, answer)
                let href = event.properties.first { $0.name == CalDAVProperty.href }?.value
                XCTAssertEqual(href, .unknown(type: nil, literal: expectedHref[e.description]!), "\(answer): \(e)")
                XCTAssertNotNil(event.properties.first { $0.name == CalDAVProperty.etag }, "\(answer): \(e) has no etag")
            }
            if answer == "report-calendar-multiget.xml" {
                XCTAssertTrue(run.stderr.contains("/alice/work/missing.ics: HTTP/1.1 404 Not Found"), run.stderr)
                XCTAssertEqual(Set(got.compactMap(\.uid)).count, 25)
            }
            if answer == "report-sync-collection.xml" {
                let ics = try String(contentsOf: work.appendingPathComponent("\(answer).ics"), encoding: .utf8)
                XCTAssertTrue(ics.contains("X-CALDAV-SYNC-TOKEN:http://radicale.org/ns/sync/"), "no sync token")
            }
        }

        // PROPFIND on the home: calport inspect lists the calendar and the subscription.
        let propfind = answers.appendingPathComponent("propfind-home.xml").path
        let inspect = try CalportProcess.run(["inspect", propfind, "-f", "caldav"], in: work)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(
            inspect.stdout.contains("1. Work – Team Café\n   type: calDAV (CalDAV)\n   color: #1BADF8FF\n   allows modifications: yes\n   events"),
            inspect.stdout)
        XCTAssertTrue(
            inspect.stdout.contains(
                "2. Holidays\n   type: subscription (Subscribed)\n   color: #1C4587FF\n   allows modifications: no\n   subscribed from: webcal://www.example.org/holidays.ics"
            ), inspect.stdout)
        let home = CalDAVTestSupport.calendars(
            try CalDAVTestSupport.read(try CalDAVTestSupport.bytes(URL(fileURLWithPath: propfind))).elements)
        XCTAssertEqual(home.map(\.kind), [.calDAV, .subscription])
        XCTAssertEqual(home.first?.description, "Meetings & deadlines")
        XCTAssertEqual(home.first.flatMap { CalDAVTestSupport.literal($0, CalDAVProperty.order) }, "3")
        XCTAssertEqual(home.first.flatMap { CalDAVTestSupport.literal($0, CalDAVProperty.components) }, "VTODO,VEVENT,VJOURNAL")

        // The server's answer archived and read again: the same calendars.
        let query = try CalDAVTestSupport.read(try CalDAVTestSupport.bytes(answers.appendingPathComponent("report-calendar-query.xml")))
            .elements
        let archive = try CalDAVTestSupport.write(query, format: "caldav")
        XCTAssertEqual(
            CalDAVTestSupport.comparable(try CalDAVTestSupport.read(archive).elements, original: query),
            CalDAVTestSupport.withoutLines(query))
    }
}
