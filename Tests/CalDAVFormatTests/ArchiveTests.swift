import CalDAVFormat
import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// The multistatus archive: one response per collection and per object resource, written the
/// same way every time, and read back as the same calendars.
final class ArchiveTests: XCTestCase {
    func fixture(_ path: String) throws -> [UInt8] {
        try CalDAVTestSupport.bytes(CalDAVTestSupport.fixtures.appendingPathComponent(path))
    }

    /// Every CalDAV fixture: read, archived, read again: the same elements.
    func testEveryFixtureReadsBackTheSame() throws {
        for path in [
            "propfind/home-with-subscription-shared-and-missing-properties.xml", "propfind/sabre-read-only-share-without-resourcetype.xml",
            "report/sync-collection-with-removal-and-token.xml", "report/multiget-with-xcal-calendar-data.xml",
        ] {
            let first = try CalDAVTestSupport.read(try fixture(path)).elements
            for settings in [[:], ["calendar-data": "xcal"]] {
                let archive = try CalDAVTestSupport.write(first, format: "caldav", settings: settings)
                let again = try CalDAVTestSupport.read(archive, name: "archive").elements
                XCTAssertEqual(
                    CalDAVTestSupport.comparable(again, original: first), CalDAVTestSupport.withoutLines(first), "\(path) \(settings)")
            }
        }
    }

    /// The archive of RFC 4791 Appendix B's collection, byte for byte.
    func testArchiveLayout() throws {
        let body = try CalDAVTestSupport.httpBody(CalDAVTestSupport.rfc4791.appendingPathComponent("32-response.http"))
        let archive = try CalDAVTestSupport.write(try CalDAVTestSupport.read(body).elements, format: "caldav")
        let golden = try fixture("archive/rfc4791-appendix-b.expected.xml")
        XCTAssertEqual(String(decoding: archive, as: UTF8.self), String(decoding: golden, as: UTF8.self))
    }

    /// ICS → archive → ICS over the samples and the corpus's CalDAV-related calendars: what
    /// the calendars say survives, X-CALDAV-* bookkeeping aside; components sharing a UID
    /// land in one resource.
    func testICSCalendarsSurviveTheArchive() throws {
        var files = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
        files += RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc4791"))
        files += RoundTripCheck.icsFiles(
            under: RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc5545-icalendar-2.0-bis"))
        files += RoundTripCheck.icsFiles(under: CalDAVTestSupport.sabreDAV)
        XCTAssertGreaterThan(files.count, 150)
        var checked = 0
        for url in files {
            let bytes = try CalDAVTestSupport.bytes(url)
            guard let before = try? RoundTripCheck.trees(of: bytes, name: url.lastPathComponent) else { continue }
            let calendar = try CalDAVTestSupport.read(bytes, format: "ics", name: url.lastPathComponent).elements
            let archive = try CalDAVTestSupport.write(calendar, format: "caldav")
            let back = try CalDAVTestSupport.write(try CalDAVTestSupport.read(archive, name: "archive").elements, format: "ics")
            let after = try RoundTripCheck.trees(of: back).map { tree -> RoundTripCheck.CalendarTree in
                var t = tree
                t.properties.removeAll { $0.hasPrefix("X-CALDAV-") }
                t.components = t.components.map(Self.withoutCalDAV)
                return t
            }
            if let d = RoundTripCheck.difference(before.map(Self.sorted), after.map(Self.sorted)) {
                XCTFail("\(url.path): \(d)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150)
    }

    /// Resources regroup components by UID, so compare components in a stable order.
    static func sorted(_ t: RoundTripCheck.CalendarTree) -> RoundTripCheck.CalendarTree {
        var s = t
        s.components.sort { $0.description < $1.description }
        // A VTIMEZONE repeated in the input is archived once per resource and read back once.
        var seen = Set<String>()
        s.components = s.components.filter { $0.name != "VTIMEZONE" || seen.insert($0.description).inserted }
        return s
    }

    static func withoutCalDAV(_ c: RoundTripCheck.ComponentTree) -> RoundTripCheck.ComponentTree {
        var out = c
        out.properties.removeAll { $0.hasPrefix("X-CALDAV-") }
        return out
    }

    func testHrefsComeFromUIDsAndEtagsFromContent() throws {
        let ics =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:Team Plans\r\nBEGIN:VEVENT\r\nUID:a b/c@example.com\r\nDTSTART:20240101T090000Z\r\nSUMMARY:One\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nUID:t1\r\nSUMMARY:Two\r\nEND:VTODO\r\nBEGIN:VEVENT\r\nUID:a b/c@example.com\r\nRECURRENCE-ID:20240102T090000Z\r\nDTSTART:20240102T100000Z\r\nSUMMARY:One moved\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let elements = try CalDAVTestSupport.read(Array(ics.utf8), format: "ics").elements
        let archive = String(decoding: try CalDAVTestSupport.write(elements, format: "caldav"), as: UTF8.self)
        let hrefs = archive.components(separatedBy: "<d:href>").dropFirst().map { $0.components(separatedBy: "<")[0] }
        XCTAssertEqual(
            hrefs, ["/calendars/team-plans/", "/calendars/team-plans/a%20b%2Fc@example.com.ics", "/calendars/team-plans/t1.ics"])
        XCTAssertEqual(archive.components(separatedBy: "<d:getetag>").count - 1, 2)
        // The same content gives the same etag; the event's two components share a resource.
        XCTAssertEqual(archive, String(decoding: try CalDAVTestSupport.write(elements, format: "caldav"), as: UTF8.self))
        let back = try CalDAVTestSupport.read(Array(archive.utf8)).elements
        let items = back.compactMap { e -> CalendarItem? in
            if case .entry(let entry, _) = e { return entry.item }
            return nil
        }
        XCTAssertEqual(items.map(\.title), ["One", "One moved", "Two"])
        XCTAssertEqual(CalDAVTestSupport.calendars(back).first?.title, "Team Plans")
    }
    /// A calendar larger than what the writer keeps in memory (its spool goes to a file), with
    /// each series' override far behind its master: every resource holds its UID's items, in
    /// the order the resources first appeared, and the same calendar gives the same archive.
    func testItemsOfOneUIDFarApartShareOneResourceWhenTheSpoolIsAFile() throws {
        let filler = String(repeating: "Lorem ipsum <dolor> & sit amet, \u{00E9}t\u{00E9} \u{6771}\u{4EAC}. ", count: 40)
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:Big\r\n"
        func event(_ uid: Int, _ title: String, override: Bool) -> String {
            "BEGIN:VEVENT\r\nUID:u\(uid)\r\n" + (override ? "RECURRENCE-ID:20240108T090000Z\r\n" : "")
                + "DTSTART:20240101T090000Z\r\n" + (override ? "" : "RRULE:FREQ=WEEKLY\r\n") + "SUMMARY:\(title)\r\nDESCRIPTION:"
                + filler + "\r\nEND:VEVENT\r\n"
        }
        let count = 600
        for uid in 0..<count { ics += event(uid, "m\(uid)", override: false) }
        for uid in stride(from: 0, to: count, by: 7).reversed() { ics += event(uid, "o\(uid)", override: true) }
        ics += "END:VCALENDAR\r\n"
        // More than the 1 MiB the writer keeps in memory before its spool file.
        XCTAssertGreaterThan(ics.utf8.count, 1 << 20)
        let elements = try CalDAVTestSupport.read(Array(ics.utf8), format: "ics").elements
        let archive = try CalDAVTestSupport.write(elements, format: "caldav")
        XCTAssertEqual(archive, try CalDAVTestSupport.write(elements, format: "caldav"))
        let text = String(decoding: archive, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "<d:response>").count - 1, count + 1)
        let back = try CalDAVTestSupport.read(archive).elements
        let titles = back.compactMap { e -> String? in
            if case .entry(let entry, _) = e { return entry.item?.title }
            return nil
        }
        var expected: [String] = []
        for uid in 0..<count {
            expected.append("m\(uid)")
            if uid % 7 == 0 { expected.append("o\(uid)") }
        }
        XCTAssertEqual(titles, expected)
    }
}
