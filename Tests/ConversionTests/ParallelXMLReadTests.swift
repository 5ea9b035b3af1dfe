import CalendarModel
import Conversion
import Foundation
import XCTest

/// The XML readers split their work over threads when they may (`--jobs` above 1): libxml2 on a
/// thread of its own (xCal, EWS), the trees on another, and for CalDAV one resource in four
/// parsed on the scanning thread. Whatever the threads, a conversion gives the bytes, the
/// diagnostics in their order and the error that one thread gives. Documents here are several
/// times the 64 KiB chunk the parser hands over.
final class ParallelXMLReadTests: ThreadCountTestCase {
    /// An archive of `count` events: zoned and floating times, attendees, alarms, weekly series
    /// with a moved occurrence, non-ASCII text, characters XML escapes.
    static func archive(_ count: Int) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//parallel XML//EN\r\nX-WR-CALNAME:Parallel\r\n"
        for i in 0..<count {
            let day = String(format: "202605%02d", 1 + i % 28)
            text += "BEGIN:VEVENT\r\nUID:parallel-\(i)@calport.test\r\nDTSTAMP:20260101T000000Z\r\n"
            text += "DTSTART;TZID=Europe/Berlin:\(day)T0900\(String(format: "%02d", i % 60))\r\n"
            text += "DTEND;TZID=Europe/Berlin:\(day)T100000\r\n"
            text += "SUMMARY:Besprechung Nr. \(i) – Übersicht & <Planung>\r\n"
            text += "DESCRIPTION:Line one\\nline two of \(i)\\, with a comma\r\n"
            text += "LOCATION:Raum \(i % 12)\r\n"
            text += "ORGANIZER;CN=Chair \(i % 5):mailto:chair\(i % 5)@example.com\r\n"
            text += "ATTENDEE;CN=Guest \(i);ROLE=OPT-PARTICIPANT;PARTSTAT=TENTATIVE:mailto:guest\(i)@example.com\r\n"
            if i % 5 == 0 { text += "RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO,WE\r\n" }
            text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
            text += "END:VEVENT\r\n"
            if i % 5 == 0 {
                text += "BEGIN:VEVENT\r\nUID:parallel-\(i)@calport.test\r\nDTSTAMP:20260101T000000Z\r\n"
                text += "RECURRENCE-ID;TZID=Europe/Berlin:\(day)T0900\(String(format: "%02d", i % 60))\r\n"
                text += "DTSTART;TZID=Europe/Berlin:\(day)T140000\r\nDTEND;TZID=Europe/Berlin:\(day)T150000\r\n"
                text += "SUMMARY:Moved \(i)\r\nEND:VEVENT\r\n"
            }
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Writes the archive in `format` (one thread) and returns the document.
    func document(_ format: String, events: Int) throws -> URL {
        let ics = directory.appendingPathComponent("archive.ics")
        try Data(Self.archive(events).utf8).write(to: ics)
        let out = directory.appendingPathComponent("archive.\(format).xml")
        try Converter().run(ConversionRequest(inputs: [ics.path], output: out.path, outputFormat: format, jobs: 1), log: DiagnosticLog())
        return out
    }

    func testXCalEWSAndCalDAVReadTheSameOnEveryThreadCount() throws {
        for format in ["xcal", "ews", "caldav"] {
            let document = try document(format, events: 400)
            let size = try FileManager.default.attributesOfItem(atPath: document.path)[.size] as? Int ?? 0
            XCTAssertGreaterThan(size, 4 * 65_536, format)
            let one = convert(document, from: format, jobs: 1, name: "check.ics")
            XCTAssertNil(one.error, format)
            assertSameOnEveryThreadCount(document, from: format)
        }
    }

    /// A document cut off in its middle: the same error after the same output on every count.
    func testATruncatedDocumentFailsAlikeOnEveryThreadCount() throws {
        for format in ["xcal", "ews", "caldav"] {
            let whole = try Data(contentsOf: try document(format, events: 300))
            let cut = directory.appendingPathComponent("cut.\(format).xml")
            try whole.prefix(whole.count * 3 / 5).write(to: cut)
            let one = convert(cut, from: format, jobs: 1, name: "cut-one.ics")
            XCTAssertNotNil(one.error, format)
            assertSameOnEveryThreadCount(cut, from: format)
        }
    }
}
