import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import ICalendarData
import XCTest

@testable import ICSFormat

/// The ICS writer writes events and reminders straight from the typed model to bytes; jCal and
/// xCal write the component the mapper builds from the same walk. Both must say the same.
final class DirectWritingTests: XCTestCase {
    func testWritingEntriesDirectlyGivesTheBytesOfWritingTheirMappedComponents() throws {
        let mapper = ICalendarMapper()
        var compared = 0
        for (name, url) in CorpusRoundTripTests.corpusFiles() {
            let bytes = [UInt8](try Data(contentsOf: url))
            var reader = ICSReader(
                source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: DiagnosticLog(), mapper: mapper)
            // Files that cannot be read are CorpusRoundTripTests' concern; what was read counts.
            while let element = try? reader.next() {
                guard case .entry(let entry, _) = element else { continue }
                var direct = ICSContentLines()
                mapper.emit(entry, to: &direct)
                var generic = ICSContentLines()
                generic.component(mapper.component(from: entry))
                if direct.bytes != generic.bytes {
                    XCTFail(
                        "\(name): direct\n\(String(decoding: direct.bytes, as: UTF8.self))\ngeneric\n\(String(decoding: generic.bytes, as: UTF8.self))"
                    )
                }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000)
    }

    /// Every value type, derived parameters (TZID, VALUE, ENCODING, RANGE, RELATED), quoting,
    /// caret encoding, escaping and folding of multi-byte text, against the output of the
    /// writer before it wrote typed fields directly.
    func testEdgeCasesWriteAsBefore() throws {
        let input = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/writing/edge-cases", withExtension: "ics"))
        let golden = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/writing/edge-cases.expected", withExtension: "ics"))
        let output = try RoundTripCheck.convert([UInt8](try Data(contentsOf: input)), through: ["ics"])
        XCTAssertEqual(String(decoding: output, as: UTF8.self), String(decoding: try Data(contentsOf: golden), as: UTF8.self))
    }

    func testAParticipantUnderAPropertyOfAnotherTypeDeclaresItsValueType() {
        let participant = Participant(name: "A", url: "mailto:a@example.com", extraParameters: [Parameter("X-Y", "z")])
        let words = ParticipantWords(type: nil, role: "CHAIR", status: nil)
        var lines = ICSContentLines()
        lines.participant(TypedName("X-PERSON"), participant, words: words)
        XCTAssertEqual(
            String(decoding: lines.bytes, as: UTF8.self), "X-PERSON;VALUE=CAL-ADDRESS;CN=A;ROLE=CHAIR;X-Y=z:mailto:a@example.com\r\n")
    }

    /// The escaper skips eight bytes at a time and jumps to the first special among them;
    /// specials alone and several together at every place in and across those blocks, and a
    /// CRLF split between two, must come out as a byte-by-byte escaper writes them.
    func testTextEscapingAtEveryPlaceInAndAcrossEightByteBlocks() {
        func reference(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
                .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\r\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
        }
        for length in 0...20 {
            for special in ["\\", ";", ",", "\n", "\r", "\r\n", "é", ",;", "a\\b,c", "\r\r\n\n;"] {
                for place in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                    var out = ICSOutputBuffer(capacity: 1)
                    ValueCodec.appendEscaped(text, to: &out)
                    XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), reference(text), text.debugDescription)
                }
            }
        }
    }

    func testNumbersAndDatesWriteAsStringsSpellThem() {
        for n in [0, 7, 10, -1, -42, 1234567890, Int.max, Int.min] {
            var bytes: [UInt8] = []
            bytes.appendDecimal(n)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(n))
        }
        XCTAssertEqual(CalendarDateTime(date: CalendarDate(year: 12345, month: 1, day: 2)).basicISO, "123450102")
        XCTAssertEqual(
            CalendarDateTime(date: CalendarDate(year: 7, month: 1, day: 2), time: TimeOfDay(hour: 3, minute: 4, second: 5), reference: .utc)
                .basicISO, "00070102T030405Z")
        // The writer's buffer takes a date-time in one piece (two words); an array digit by digit.
        let time = TimeOfDay(hour: 23, minute: 59, second: 7)
        let cases: [(CalendarDateTime, String)] = [
            (.day(2024, 2, 29), "20240229"),
            (CalendarDateTime(date: CalendarDate(year: 999, month: 12, day: 1), time: time), "09991201T235907"),
            (CalendarDateTime(date: CalendarDate(year: 2024, month: 1, day: 2), time: time, reference: .utc), "20240102T235907Z"),
            (CalendarDateTime(date: CalendarDate(year: 2024, month: 1, day: 2), time: time, reference: .zone("Europe/Paris")), "20240102T235907"),
            (CalendarDateTime(date: CalendarDate(year: 12345, month: 1, day: 2), time: time, reference: .utc), "123450102T235907Z"),
            (CalendarDateTime(date: CalendarDate(year: -1, month: 1, day: 2)), "-10102"),
        ]
        for (value, text) in cases {
            var out = ICSOutputBuffer(capacity: 1)
            out.append(UInt8(ascii: "<"))
            value.appendBasicISO(to: &out)
            XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), "<" + text)
            XCTAssertEqual(value.basicISO, text)
        }
        XCTAssertEqual(CalendarDuration().rfc5545Text, "PT0S")
        XCTAssertEqual(CalendarDuration(isNegative: true, weeks: 2).rfc5545Text, "-P2W")
        XCTAssertEqual(CalendarDuration(days: 1, seconds: 30).rfc5545Text, "P1DT30S")
    }

    /// Writers look up a name's default value type without copying the table's long entries;
    /// it must agree with the readers' `info(_:)` for every name, long or short, known or not.
    func testTheWritersDefaultTypeLookupAgreesWithTheTable() {
        let names =
            Array(PropertyTable.definitions.keys) + [
                "X-APPLE-STRUCTURED-LOCATION", "X-MICROSOFT-CDO-INTENDEDSTATUS", "X-APPLE-CALENDAR-COLOZ", "STYLED-DESCRIPTIOX",
                "X-FOO", "ATTENDEE", "",
            ]
        for name in names {
            XCTAssertEqual(PropertyTable.defaultType(name), PropertyTable.info(name).defaultType, name)
            XCTAssertEqual(TypedName(name).defaultType, PropertyTable.info(name).defaultType, name)
        }
    }

    /// Lines are folded in place; multi-byte characters at every place around the cuts of
    /// lines with several folds must come out as folding a copy of the line does.
    func testFoldingInPlaceAtEveryPlaceOfAMultiByteCharacter() {
        func reference(_ line: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            var from = 0
            var limit = 75
            while line.count - from > limit {
                var cut = from + limit
                while cut > from + 1, line[cut] & 0xC0 == 0x80 { cut -= 1 }
                out += line[from..<cut] + [0x0D, 0x0A, 0x20]
                from = cut
                limit = 74
            }
            return out + line[from...] + [0x0D, 0x0A]
        }
        for length in [60, 74, 75, 76, 150, 230] {
            for special in ["é", "€", "😀"] {
                for place in stride(from: 0, through: length, by: 1) {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                    var lines = ICSContentLines()
                    lines.begin("VEVENT")
                    let before = lines.bytes.count
                    lines.property(TypedName("SUMMARY"), [], .text(text))
                    XCTAssertEqual(Array(lines.bytes[before...]), reference(Array("SUMMARY:\(text)".utf8)), "\(length) \(place)")
                }
            }
        }
    }

    /// The output buffer grows from any capacity, and a copy writes into storage of its own:
    /// what one writes after the copy is not seen by the other.
    func testTheOutputBufferGrowsAndCopiesDoNotShareWrites() {
        var lines = ICSContentLines()
        lines.out = ICSOutputBuffer(capacity: 1)
        lines.begin("VEVENT")
        var copy = lines
        lines.property(TypedName("SUMMARY"), [], .text(String(repeating: "é", count: 100)))
        copy.end("VEVENT")
        XCTAssertEqual(String(decoding: copy.bytes, as: UTF8.self), "BEGIN:VEVENT\r\nEND:VEVENT\r\n")
        XCTAssertEqual(lines.bytes.count, 14 + 8 + 200 + 2 * 3 + 2)
        XCTAssertTrue(String(decoding: lines.bytes, as: UTF8.self).hasPrefix("BEGIN:VEVENT\r\nSUMMARY:éé"))
        lines.out.removeAll()
        XCTAssertEqual(lines.bytes, [])
        lines.end("X")
        XCTAssertEqual(String(decoding: lines.bytes, as: UTF8.self), "END:X\r\n")
        XCTAssertEqual(String(decoding: copy.bytes, as: UTF8.self), "BEGIN:VEVENT\r\nEND:VEVENT\r\n")
    }

    /// Parameter values are copied in one piece unless they need quotes or caret encoding;
    /// each special character takes the path that handles it.
    func testParameterValuesAreQuotedAndCaretEncodedAsNeeded() {
        let cases: [(String, String)] = [
            ("Ann Lee", "Ann Lee"), ("Lee, Ann", "\"Lee, Ann\""), ("a:b", "\"a:b\""), ("a;b", "\"a;b\""),
            ("say \"hi\"", "say ^'hi^'"), ("a^b", "a^^b"), ("two\nlines", "two^nlines"), ("cr\r\nlf", "cr^nlf"),
            ("x, \"y\"", "\"x, ^'y^'\""), ("Zoë", "Zoë"), ("", ""),
        ]
        for (value, written) in cases {
            var lines = ICSContentLines()
            lines.participant(
                TypedName("ATTENDEE"), Participant(name: value, url: "mailto:a@example.com"),
                words: ParticipantWords(type: nil, role: nil, status: nil))
            XCTAssertEqual(String(decoding: lines.bytes, as: UTF8.self), "ATTENDEE;CN=\(written):mailto:a@example.com\r\n", value)
        }
        var lines = ICSContentLines()
        lines.property(Property(name: "X-P", parameters: [Parameter(name: "X-L", values: ["a", "", "b"])], value: .text(["v"])))
        XCTAssertEqual(String(decoding: lines.bytes, as: UTF8.self), "X-P;VALUE=TEXT;X-L=a,\"\",b:v\r\n")
    }
}
