import CalendarModel
import Conversion
import Foundation
import XCTest

/// Values the xCal reader cannot type are kept as text in RFC 5545's form, as the ICS reader keeps them.
final class XCalInvalidValueTests: XCTestCase {
    /// A rule with a value out of range: its text was taken from the `recur` element alone, which holds none (the
    /// parts are its children), so ICS got `RRULE:` with the rule gone.
    func testAnInvalidRuleIsKeptInItsRFC5545Text() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><components><vevent><properties>
            <uid><text>a</text></uid><dtstart><date-time>2024-01-01T09:00:00Z</date-time></dtstart>
            <rrule><recur><freq>MONTHLY</freq><bymonthday>99</bymonthday><bymonthday>2</bymonthday>
            <until>2024-06-01T00:00:00Z</until></recur></rrule>
            </properties></vevent></components></vcalendar></icalendar>
            """
        let log = DiagnosticLog()
        let ics = String(decoding: try XCalTestSupport.convert(Array(xml.utf8), from: "xcal", to: "ics", log: log), as: UTF8.self)
        XCTAssertTrue(ics.contains("\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=99,2;UNTIL=20240601T000000Z\r\n"), ics)
        XCTAssertEqual(log.diagnostics.count, 1)
        XCTAssertTrue(log.diagnostics.first?.description.contains("BYMONTHDAY value '99' is out of range") == true, "\(log.diagnostics)")
    }
}
