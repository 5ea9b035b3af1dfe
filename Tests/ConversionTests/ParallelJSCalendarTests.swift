import CalendarModel
import Conversion
import Foundation
import XCTest

/// JSCalendar spreads its work over threads when it may (`--jobs` above 1): the reader scans a
/// Group's entries on one thread and parses and decodes them on workers; the writer encodes
/// and checks items on workers. Whatever the threads, a conversion gives the bytes, the
/// diagnostics in their order and the error that one thread gives.
final class ParallelJSCalendarTests: ThreadCountTestCase {
    /// Two calendars: the XML tests' archive of events, then one with a time zone and tasks.
    static func archive(_ count: Int) -> String {
        var text = ParallelXMLReadTests.archive(count)
        text += "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//parallel JSCalendar//EN\r\n"
        for i in 0..<40 {
            text += "BEGIN:VTODO\r\nUID:task-\(i)@calport.test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Task \(i)\r\n"
            text += "DUE;VALUE=DATE:202607\(String(format: "%02d", 1 + i % 28))\r\nX-CALPORT-TEST:\(i)\r\nEND:VTODO\r\n"
            if i == 20 {
                text += "BEGIN:VTIMEZONE\r\nTZID:Test/Zone\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
                text += "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
            }
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// The archive as JSCalendar, written on one thread.
    func document(events: Int) throws -> Data {
        let ics = directory.appendingPathComponent("archive.ics")
        try Data(Self.archive(events).utf8).write(to: ics)
        let out = directory.appendingPathComponent("archive.json")
        try Converter().run(ConversionRequest(inputs: [ics.path], output: out.path, outputFormat: "jscalendar", jobs: 1), log: DiagnosticLog())
        return try Data(contentsOf: out)
    }

    func testWritingGivesTheSameBytesOnEveryThreadCount() throws {
        let ics = directory.appendingPathComponent("archive.ics")
        try Data(Self.archive(300).utf8).write(to: ics)
        let one = assertSameOnEveryThreadCount(ics, from: "ics", to: "jscalendar")
        XCTAssertNil(one.error)
        XCTAssertGreaterThan(one.output?.count ?? 0, 4 * 65_536)
    }

    /// Entries with members calport does not read warn; their warnings come in the entries' order.
    func testReadingGivesTheSameElementsAndWarningsOnEveryThreadCount() throws {
        var text = String(decoding: try document(events: 300), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"title\":\"Besprechung Nr. 1", with: "\"x\":1,\"title\":\"Besprechung Nr. 1")
        let input = directory.appendingPathComponent("warned.json")
        try Data(text.utf8).write(to: input)
        let one = assertSameOnEveryThreadCount(input, from: "jscalendar", to: "ics")
        XCTAssertNil(one.error)
        XCTAssertGreaterThan(one.diagnostics.count, 10)
    }

    /// A document cut off in its middle, or with a broken or non-object entry: the same error
    /// after the same output and warnings on every count.
    func testABrokenDocumentFailsAlikeOnEveryThreadCount() throws {
        let whole = try document(events: 300)
        let text = String(decoding: whole, as: UTF8.self)
        let broken = [
            "cut": String(decoding: whole.prefix(whole.count * 3 / 5), as: UTF8.self),
            "literal": text.replacingOccurrences(of: "\"title\":\"Besprechung Nr. 150 ", with: "\"title\":tru,\"x\":\"Besprechung Nr. 150 "),
            "bracket": text.replacingOccurrences(of: "\"title\":\"Besprechung Nr. 151 ", with: "\"title\":[1},\"x\":\"Besprechung Nr. 151 "),
            "scalar": text.replacingOccurrences(of: ",\n{\"@type\":\"Event\",\"uid\":\"parallel-152@", with: ",\n42,{\"@type\":\"Event\",\"uid\":\"parallel-152@"),
            "comma": text.replacingOccurrences(of: "},\n{\"@type\":\"Event\",\"uid\":\"parallel-153@", with: "}\n{\"@type\":\"Event\",\"uid\":\"parallel-153@"),
        ]
        for (name, document) in broken {
            XCTAssertNotEqual(document, text, name)
            let input = directory.appendingPathComponent("\(name).json")
            try Data(document.utf8).write(to: input)
            let one = convert(input, from: "jscalendar", to: "ics", jobs: 1, name: "check.ics")
            XCTAssertNotNil(one.error, name)
            assertSameOnEveryThreadCount(input, from: "jscalendar", to: "ics")
        }
    }
}
