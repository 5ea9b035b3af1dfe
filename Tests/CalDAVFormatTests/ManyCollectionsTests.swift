import CalDAVFormat
import CalendarModel
import Foundation
import XCTest

/// Calendars without an href of their own get one made from their name, numbered when the name
/// is taken. A mutated archive of 63,000 one-line calendars of one name took minutes to write
/// as CalDAV: each was numbered from 1 again (quadratic). The numbering itself is unchanged.
final class ManyCollectionsTests: XCTestCase {
    func testTwentyThousandCalendarsOfOneNameAreNumberedInOrderAndQuickly() throws {
        let count = 20_000
        var ics = ""
        for _ in 0..<count { ics += "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nX-WR-CALNAME:Work\r\nEND:VCALENDAR\r\n" }
        let (elements, _) = try CalDAVTestSupport.read(Array(ics.utf8), format: "ics", name: "many.ics")
        let started = Double(clock()) / Double(CLOCKS_PER_SEC)
        let xml = String(decoding: try CalDAVTestSupport.write(elements, format: "caldav"), as: UTF8.self)
        // Numbered from 1 for each calendar this took minutes; processor time, not wall time.
        XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 20, "processor seconds")
        for href in ["/calendars/work/", "/calendars/work-2/", "/calendars/work-3/", "/calendars/work-\(count)/"] {
            XCTAssertTrue(xml.contains("<D:href>\(href)</D:href>") || xml.contains(">\(href)<"), href)
        }
        XCTAssertFalse(xml.contains("/calendars/work-\(count + 1)/"))
        XCTAssertFalse(xml.contains("/calendars/work-1/"))
    }
}
