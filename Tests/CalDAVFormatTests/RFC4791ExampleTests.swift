import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// All 32 request and response examples of RFC 4791, read with `-f caldav`: each multistatus
/// (and the MKCALENDAR body) converts to exactly its golden ICS with the stated number of
/// warnings; every other body is refused with exactly the stated message
/// (Fixtures/rfc4791/expectations.tsv). Each readable one also survives the archive round trip.
final class RFC4791ExampleTests: XCTestCase {
    func testAll32Examples() throws {
        let table = try String(contentsOf: CalDAVTestSupport.fixtures.appendingPathComponent("rfc4791/expectations.tsv"), encoding: .utf8)
        var seen = 0, converted = 0
        for line in table.split(separator: "\n") where !line.hasPrefix("#") {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(cells.count, 4, "bad row: \(line)")
            let (file, outcome, detail, warnings) = (cells[0], cells[1], cells[2], Int(cells[3]))
            seen += 1
            let body = try CalDAVTestSupport.httpBody(CalDAVTestSupport.rfc4791.appendingPathComponent(file))
            switch outcome {
            case "ics":
                let (elements, log) = try CalDAVTestSupport.read(body, name: file)
                XCTAssertEqual(log.diagnostics.count, warnings, "\(file): \(log.diagnostics)")
                let ics = try CalDAVTestSupport.write(elements, format: "ics")
                let golden = try CalDAVTestSupport.bytes(CalDAVTestSupport.fixtures.appendingPathComponent("rfc4791/\(detail)"))
                XCTAssertEqual(String(decoding: ics, as: UTF8.self), String(decoding: golden, as: UTF8.self), file)
                // The archive reads back as the same calendars.
                let archive = try CalDAVTestSupport.write(elements, format: "caldav")
                let again = try CalDAVTestSupport.read(archive, name: "\(file) archive").elements
                XCTAssertEqual(
                    CalDAVTestSupport.comparable(again, original: elements), CalDAVTestSupport.withoutLines(elements),
                    "\(file): archive round trip")
                converted += 1
            case "error":
                XCTAssertThrowsError(try CalDAVTestSupport.read(body, name: file), file) { error in
                    guard let e = error as? CalendarError else { return XCTFail("\(file): \(error)") }
                    XCTAssertEqual(e.diagnostic.message, detail, file)
                    XCTAssertEqual(e.diagnostic.file, file)
                }
            default:
                XCTFail("unknown outcome \(outcome)")
            }
        }
        XCTAssertEqual(seen, 32)
        XCTAssertEqual(converted, 12)
    }

    /// The multiget answer (§7.9.1) reports its missing resource as a warning with its place.
    func testMissingResourceIsAWarningWithItsPlace() throws {
        let body = try CalDAVTestSupport.httpBody(CalDAVTestSupport.rfc4791.appendingPathComponent("28-response.http"))
        let log = try CalDAVTestSupport.read(body, name: "28.xml").log
        XCTAssertEqual(
            log.diagnostics.map(\.description),
            [
                "28.xml:44:/multistatus/response[2]: warning: http://cal.example.com/bernard/work/mtg1.ics: HTTP/1.1 404 Not Found: absent, or removed since the last sync"
            ])
    }

    /// An error inside embedded calendar data names the line of the outer document.
    func testErrorsInCalendarDataCarryTheOuterLine() throws {
        let xml = """
            <?xml version="1.0"?>
            <multistatus xmlns="DAV:"><response><href>/c/a.ics</href><propstat><prop>
            <calendar-data xmlns="urn:ietf:params:xml:ns:caldav">BEGIN:VCALENDAR
            VERSION:2.0
            BEGIN:VEVENT
            UID:a
            DTSTART:2024013
            END:VEVENT
            END:VCALENDAR
            </calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let log = try CalDAVTestSupport.read(Array(xml.utf8), name: "bad.xml").log
        XCTAssertEqual(log.diagnostics.first?.line, 7)
        XCTAssertTrue(log.diagnostics.first?.message.hasPrefix("/c/a.ics: DTSTART") ?? false, "\(log.diagnostics)")
        XCTAssertThrowsError(try CalDAVTestSupport.read(Array(xml.utf8), name: "bad.xml", strict: true)) { error in
            XCTAssertEqual((error as? CalendarError)?.diagnostic.line, 7)
        }
    }
}
