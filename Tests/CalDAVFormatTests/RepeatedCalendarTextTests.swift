import CalendarModel
import CalendarTestSupport
import Conversion
import ICSFormat
import XCTest
import XCalFormat

@testable import CalDAVFormat

/// Resources that repeat the same VCALENDAR properties and VTIMEZONE read as if each were read
/// whole, though the reader parses a repeated block only once: entries keep the lines of the
/// document, a warning after a repeated block names the lines of the resource as it is, and a
/// VTIMEZONE that differs from the first of its TZID is still told apart; on one thread and on
/// two (where the scanner reads some resources ahead).
final class RepeatedCalendarTextTests: XCTestCase {
    static let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN"]

    static func zone(offset: String) -> [String] {
        [
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
            "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE",
        ]
    }

    static func event(_ uid: String, extra: [String] = []) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20240101T000000Z", "DTSTART;TZID=Europe/Berlin:20240102T100000", "SUMMARY:Meeting"]
            + extra + ["END:VEVENT"]
    }

    /// A multistatus of the resources' iCalendar lines, and for each resource the document line
    /// its calendar data starts on.
    static func document(_ resources: [[String]]) -> (bytes: [UInt8], firstLines: [Int]) {
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#, #"<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#,
        ]
        var firstLines: [Int] = []
        for (i, resource) in resources.enumerated() {
            lines.append("<d:response><d:href>/cal/\(i).ics</d:href><d:propstat><d:prop><d:getetag>\"e\(i)\"</d:getetag>")
            firstLines.append(lines.count + 1)
            lines.append("<c:calendar-data>" + resource[0] + "&#13;")
            lines += resource.dropFirst().map { $0 + "&#13;" }
            lines.append("</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        }
        lines.append("</d:multistatus>")
        return (Array(lines.joined(separator: "\n").utf8), firstLines)
    }

    /// The document read on `concurrency` threads; with `readAheadLead` 0 the scanner's thread
    /// reads every resource's calendar data (as it does while the reader's thread lags).
    static func read(_ bytes: [UInt8], concurrency: Int, readAheadLead: Int = CalendarDataReadAhead.defaultLead) throws -> (
        elements: [CalendarStreamElement], diagnostics: [Diagnostic]
    ) {
        let log = DiagnosticLog()
        var reader = CalDAVReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: "in.xml", concurrency: concurrency), log: log,
            calendarDataFormats: [ICSFormat(), XCalFormat()], readAheadLead: readAheadLead)
        var out: [CalendarStreamElement] = []
        while let e = try reader.next() { out.append(e) }
        return (out, log.diagnostics)
    }

    func testRepeatedBlocksReadAsIfEachResourceWereReadWhole() throws {
        // Eighteen resources, read ahead on the scanner's thread on two threads (all of them,
        // or those it reaches while the reader lags); the sixteenth has a line that lost its
        // folding space, the next a different zone of the same TZID.
        var resources: [[String]] = []
        for i in 1...18 {
            let extra = i == 16 ? ["LOCATION:Room 1", "and its wing"] : []
            resources.append(
                Self.header + Self.zone(offset: i == 17 ? "+0000" : "+0100") + Self.event("e\(i)", extra: extra) + ["END:VCALENDAR"])
        }
        let (bytes, firstLines) = Self.document(resources)
        let eventLine = Self.header.count + Self.zone(offset: "").count + 1
        let whole = try Self.read(bytes, concurrency: 1)

        var lines: [Int] = []
        var zones = 0
        for element in whole.elements {
            guard case .entry(let entry, let line) = element else { continue }
            if case .timeZone = entry { zones += 1 } else { lines.append(line) }
        }
        XCTAssertEqual(zones, 1)
        XCTAssertEqual(lines, firstLines.map { $0 + eventLine - 1 })

        let messages = whole.diagnostics.map(\.message)
        XCTAssertEqual(whole.diagnostics.count, 2, "\(messages)")
        // The line joined is the resource's own (the LOCATION line, counted with the lines cut
        // out of other resources), and the warning stands on the document's line.
        let location = eventLine + Self.event("").count - 1
        XCTAssertEqual(
            messages.first, "/cal/15.ics: line has no ':'; joined to the line \(location) above it (folding without a leading space)")
        XCTAssertEqual(whole.diagnostics.first?.line, firstLines[15] + location)
        XCTAssertEqual(messages.last, "/cal/16.ics: VTIMEZONE Europe/Berlin differs from the one read before; the first is kept")

        for lead in [0, CalendarDataReadAhead.defaultLead] {
            let threaded = try Self.read(bytes, concurrency: 2, readAheadLead: lead)
            XCTAssertEqual(threaded.elements, whole.elements, "lead \(lead)")
            XCTAssertEqual(threaded.diagnostics, whole.diagnostics, "lead \(lead)")
        }
    }
}
