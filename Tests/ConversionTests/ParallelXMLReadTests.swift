import CalendarModel
import Conversion
import Foundation
import XCTest

/// The XML readers split their work over threads when they may (`--jobs` above 1): libxml2 on a
/// thread of its own (xCal, EWS), the trees on another, and for CalDAV the calendar data of
/// the resources the reader lags behind on parsed on the scanning thread. Whatever the threads, a conversion gives the bytes, the
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

    /// Under `--strict` an early warning is an error while the threads have batches in hand: the
    /// reader is dropped with its queue full, and its threads must stop cleanly. The release
    /// binary crashed this way (SIGILL in libdispatch's semaphore disposal, in 8 of 12 runs of an
    /// xCal file with --strict) before the prefetcher's queue was guarded by one condition instead
    /// of semaphores; the debug build's timing did not show it, so this is a guard, not a proof.
    func testAStrictErrorEarlyInALargeDocumentEndsTheRunCleanlyEveryTime() throws {
        for format in ["xcal", "ews", "caldav"] {
            let whole = try String(contentsOf: try document(format, events: 400), encoding: .utf8)
            // An error near the start (under --strict for xCal's foreign element in its first text
            // value; EWS's first Start is not a date; a CalDAV resource's DTSTART is garbage).
            let damage: [String: (String, String)] = [
                "xcal": ("</text>", "</text><foo xmlns=\"urn:x\">bar</foo>"),
                "ews": ("<t:Start>[^<]*<", "<t:Start>garbage<"),
                "caldav": ("BEGIN:VEVENT", "BEGIN:VEVENT&#13;\nDTSTART:garbage"),
            ]
            guard let (pattern, replacement) = damage[format], let at = whole.firstRange(of: try Regex(pattern)) else {
                return XCTFail("\(format): no place for the damage")
            }
            let text = whole.replacingCharacters(in: at, with: replacement)
            let early = directory.appendingPathComponent("early.\(format).xml")
            try Data(text.utf8).write(to: early)
            let output = directory.appendingPathComponent("early.ics")
            for run in 0..<20 {
                var failure: Error?
                do {
                    try Converter().run(
                        ConversionRequest(
                            inputs: [early.path], output: output.path, inputFormat: format, outputFormat: "ics", strict: true, jobs: 2),
                        log: DiagnosticLog())
                } catch {
                    failure = error
                }
                XCTAssertNotNil(failure, "\(format), run \(run): no error")
                XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(format), run \(run)")
            }
        }
    }

    /// An EWS CreateItem request of `count` items whose mapping warns (an unknown busy word, an
    /// unknown zone, an attendee without a mailbox), builds zones from definitions (the request's
    /// TimeZoneContext, an item's own, met again later) and, at `badItem`, fails.
    static func ewsRequest(_ count: Int, badItem: Int? = nil) -> String {
        let t = "http://schemas.microsoft.com/exchange/services/2006/types"
        func definition(_ element: String, id: String, bias: Int) -> String {
            """
            <t:\(element) Id="\(id)"><t:Periods><t:Period Bias="PT\(bias)H" Name="Standard" Id="S"/>\
            <t:Period Bias="PT\(bias - 1)H" Name="Daylight" Id="D"/></t:Periods><t:TransitionsGroups><t:TransitionsGroup Id="0">\
            <t:RecurringDayTransition><t:To Kind="Period">D</t:To><t:TimeOffset>PT2H</t:TimeOffset><t:Month>10</t:Month>\
            <t:DayOfWeek>Sunday</t:DayOfWeek><t:Occurrence>1</t:Occurrence></t:RecurringDayTransition>\
            <t:RecurringDayTransition><t:To Kind="Period">S</t:To><t:TimeOffset>PT3H</t:TimeOffset><t:Month>3</t:Month>\
            <t:DayOfWeek>Sunday</t:DayOfWeek><t:Occurrence>-1</t:Occurrence></t:RecurringDayTransition></t:TransitionsGroup>\
            </t:TransitionsGroups><t:Transitions><t:Transition><t:To Kind="Group">0</t:To></t:Transition></t:Transitions></t:\(element)>
            """
        }
        var text = """
            <?xml version="1.0" encoding="utf-8"?>
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" \
            xmlns:m="http://schemas.microsoft.com/exchange/services/2006/messages" xmlns:t="\(t)">
            <s:Header><t:TimeZoneContext>\(definition("TimeZoneDefinition", id: "Contoso Context Time", bias: 4))</t:TimeZoneContext></s:Header>
            <s:Body><m:CreateItem><m:Items>

            """
        for i in 0..<count {
            let day = String(format: "2026-05-%02d", 1 + i % 28)
            text += "<t:CalendarItem><t:Subject>Item \(i) – Übersicht &amp; Plan</t:Subject><t:UID>item-\(i)@calport.test</t:UID>"
            if i % 17 == 0 { text += "<t:RequiredAttendees><t:Attendee><t:ResponseType>Accept</t:ResponseType></t:Attendee></t:RequiredAttendees>" }
            if i % 7 == 0 { text += "<t:LegacyFreeBusyStatus>Sometimes\(i)</t:LegacyFreeBusyStatus>" }
            text += "<t:Start>\(i == badItem ? "not a date" : "\(day)T09:00:00")</t:Start><t:End>\(day)T10:00:00</t:End>"
            if i % 13 == 0 {
                text += "<t:Recurrence><t:WeeklyRecurrence><t:Interval>1</t:Interval><t:DaysOfWeek>Monday</t:DaysOfWeek>"
                text += "</t:WeeklyRecurrence><t:EndDateRecurrence><t:StartDate>\(day)</t:StartDate><t:EndDate>2026-08-01</t:EndDate>"
                text += "</t:EndDateRecurrence></t:Recurrence>"
                text += definition("StartTimeZone", id: "Contoso Harbour Time \(i % 3)", bias: 3)
            } else if i % 11 == 0 {
                text += "<t:StartTimeZone Id=\"Nowhere Standard Time \(i)\"/>"
            }
            text += "</t:CalendarItem>\n"
        }
        return text + "</m:Items></m:CreateItem></s:Body></s:Envelope>\n"
    }

    /// EWS maps items on worker threads once their zones are resolved in order: the zones built,
    /// the VTIMEZONEs sent, the warnings and a failing item come out as on one thread.
    func testEWSItemsMappedOnWorkersGiveWhatOneThreadGives() throws {
        let whole = directory.appendingPathComponent("request.xml")
        try Data(Self.ewsRequest(300).utf8).write(to: whole)
        let one = convert(whole, from: "ews", jobs: 1, name: "request-one.ics")
        XCTAssertNil(one.error)
        let text = String(decoding: one.output ?? [], as: UTF8.self)
        XCTAssertTrue(text.contains("TZID:Contoso Context Time") && text.contains("TZID:Contoso Harbour Time 2"), "built zones sent")
        XCTAssertTrue(one.diagnostics.contains { $0.contains("Sometimes294") }, "the last busy word warned about")
        XCTAssertTrue(one.diagnostics.contains { $0.contains("Nowhere Standard Time 297") }, "the last unknown zone warned about")
        assertSameOnEveryThreadCount(whole, from: "ews")

        let failing = directory.appendingPathComponent("failing.xml")
        try Data(Self.ewsRequest(300, badItem: 200).utf8).write(to: failing)
        let failed = convert(failing, from: "ews", jobs: 1, name: "failing-one.ics")
        XCTAssertTrue(failed.error?.contains("not a date") ?? false, failed.error ?? "no error")
        assertSameOnEveryThreadCount(failing, from: "ews")
    }
}
