import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import JCalCoding
import JSONCoding
import XCTest

@testable import JCalFormat

/// The jCal reader's shapes of input, its streaming, and its errors.
final class JCalReaderTests: XCTestCase {
    func read(_ text: String, strict: Bool = true, log: DiagnosticLog = DiagnosticLog()) throws -> [CalendarStreamElement] {
        var reader = JCalFormat().makeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "t.json", strict: strict), log: log)
        var out: [CalendarStreamElement] = []
        while let e = try reader.next() { out.append(e) }
        return out
    }

    func write(_ elements: [CalendarStreamElement]) throws -> String {
        let sink = MemoryByteSink()
        var writer = JCalFormat().makeWriter(sink: sink, options: WriteOptions(destinationName: "-"), log: DiagnosticLog())
        for e in elements { try writer.write(e) }
        try writer.finish()
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    static let one = #"["vcalendar",[["prodid",{},"text","-//A//B//EN"]],[["vevent",[["uid",{},"text","u1"]],[]]]]"#
    static let two = #"["vcalendar",[],[["vtodo",[["uid",{},"text","u2"]],[]]]]"#

    func uids(_ elements: [CalendarStreamElement]) -> [String?] {
        elements.compactMap { if case .entry(let e, _) = $0 { return e.item?.uid } else { return nil } }
    }

    func testSeveralCalendarsAsAnArrayOrOneAfterAnother() throws {
        let asArray = try read("[\(Self.one),\(Self.two)]")
        let asSequence = try read("\(Self.one)\n\(Self.two)\n")
        XCTAssertEqual(asArray.map(\.withoutLine), asSequence.map(\.withoutLine))
        XCTAssertEqual(asArray.count, 6)
        XCTAssertEqual(uids(asArray), ["u1", "u2"])
        // The writer writes several calendars one after another, and reads them back the same.
        XCTAssertEqual(try read(try write(asArray)).map(\.withoutLine), asArray.map(\.withoutLine))
    }

    func testPropertiesAfterTheComponentsComeBack() throws {
        let elements: [CalendarStreamElement] = [
            .beginCalendar(CalendarModel.Calendar(title: "T")),
            .entry(.other(Component(name: "VJOURNAL")), line: 0),
            .endCalendar(trailingProperties: [Property(name: "X-LATE", value: .unknown(type: nil, literal: "1"))]),
        ]
        let text = try write(elements)
        XCTAssertTrue(text.contains(#"["x-calport-trailing",[["x-late",{},"unknown","1"]],[]]"#), text)
        XCTAssertEqual(
            try read(text).map(\.withoutLine),
            elements.map(\.withoutLine).map { e in
                // The title travels as X-WR-CALNAME and comes back with its spelling recorded.
                if case .beginCalendar(var c) = e {
                    c.spellings = ["title": "X-WR-CALNAME"]
                    return .beginCalendar(c)
                }
                return e
            })
    }

    /// A rule with a value out of range is kept as text, in RFC 5545's form as the ICS reader keeps one; it was kept
    /// as the JSON of its object, written into ICS as `RRULE;VALUE=RECUR:{"freq":…}`.
    func testAnInvalidRuleIsKeptInItsRFC5545Text() throws {
        let text =
            #"["vcalendar",[],[["vevent",[["uid",{},"text","a"],["dtstart",{},"date-time","2024-01-01T09:00:00Z"],"#
            + #"["rrule",{},"recur",{"freq":"MONTHLY","bymonthday":[99,2],"until":"2024-06-01T00:00:00Z"}]],[]]]]"#
        let log = DiagnosticLog()
        let ics = String(
            decoding: try JCalTestSupport.convert(Array(text.utf8), from: "jcal", to: "ics", log: log), as: UTF8.self)
        XCTAssertTrue(ics.contains("\r\nRRULE;VALUE=RECUR:FREQ=MONTHLY;BYMONTHDAY=99,2;UNTIL=20240601T000000Z\r\n"), ics)
        XCTAssertEqual(log.diagnostics.count, 1)
        XCTAssertTrue(log.diagnostics.first?.description.contains("BYMONTHDAY value '99' is out of range") == true, "\(log.diagnostics)")
    }

    func testPeriodAsOneStringAsAppendixB2PrintsIt() throws {
        let text = #"["vcalendar",[],[["vevent",[["rdate",{"tzid":"US/Eastern"},"period","2006-01-02T15:00:00/PT2H"]],[]]]]"#
        let elements = try read(text)
        guard case .entry(.event(let e), _) = elements[1] else { return XCTFail("\(elements)") }
        XCTAssertEqual(
            e.recurrenceDates.first?.periods,
            [
                CalendarPeriod(
                    start: CalendarDateTime(
                        date: CalendarDate(year: 2006, month: 1, day: 2), time: TimeOfDay(hour: 15, minute: 0, second: 0),
                        reference: .zone("US/Eastern")),
                    extent: .duration(CalendarDuration(hours: 2)))
            ])
    }

    func testBareComponentIsReadInsideACalendarWhenLenient() throws {
        let text = #"["vevent",[["uid",{},"text","lonely"]],[]]"#
        let log = DiagnosticLog()
        let elements = try read(text, strict: false, log: log)
        XCTAssertEqual(uids(elements), ["lonely"])
        XCTAssertEqual(
            log.diagnostics.map(\.description), ["t.json:1: warning: jCal root is 'vevent', not 'vcalendar'; read as if inside one"])
        XCTAssertThrowsError(try read(text, strict: true))
    }

    func testReaderTakesOneComponentAtATime() throws {
        var text = #"["vcalendar",[],["# + "\n"
        for i in 0..<5000 {
            text +=
                (i > 0 ? ",\n" : "")
                + #"["vevent",[["uid",{},"text","event-\#(i)"],["summary",{},"text","\#(String(repeating: "x", count: 80))"]],[]]"#
        }
        text += "\n]]\n"
        let bytes = Array(text.utf8)
        final class CountingSource: ByteSource {
            let inner: MemoryByteSource
            var consumed = 0
            init(_ b: [UInt8]) { inner = MemoryByteSource(b) }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                let n = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, 4096)]))
                consumed += n
                return n
            }
        }
        let source = CountingSource(bytes)
        var reader = JCalFormat().makeReader(source: source, options: ReadOptions(sourceName: "big"), log: DiagnosticLog())
        _ = try reader.next()
        guard case .entry(let first, let line) = try reader.next() else { return XCTFail("no entry") }
        XCTAssertEqual(first.item?.uid, "event-0")
        XCTAssertEqual(line, 2)
        XCTAssertGreaterThan(bytes.count, 500_000)
        XCTAssertLessThanOrEqual(source.consumed, 64 * 1024)
        var count = 1
        while let e = try reader.next() { if case .entry = e { count += 1 } }
        XCTAssertEqual(count, 5000)
    }

    /// Fixtures/jcal/invalid/<case>.json fails in strict mode with exactly <case>.expected.txt.
    func testInvalidFixtures() throws {
        let dir = JCalTestSupport.fixtures.appendingPathComponent("jcal/invalid")
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        XCTAssertGreaterThan(files.count, 4)
        for file in files {
            let expected = try String(contentsOf: file.deletingPathExtension().appendingPathExtension("expected.txt"), encoding: .utf8)
                .trimmingCharacters(in: .newlines)
            var reader = JCalFormat().makeReader(
                source: MemoryByteSource([UInt8](try Data(contentsOf: file))),
                options: ReadOptions(sourceName: file.lastPathComponent, strict: true), log: DiagnosticLog())
            do {
                while try reader.next() != nil {}
                XCTFail("\(file.lastPathComponent) was read without error")
            } catch let error as CalendarError {
                XCTAssertEqual(error.description, expected)
            }
        }
    }
}

extension CalendarStreamElement {
    /// The element with its source line cleared, for comparing what was read with what was written.
    var withoutLine: CalendarStreamElement {
        if case .entry(let e, _) = self { return .entry(e, line: 0) }
        return self
    }
}
