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

    /// The escaper skips eight bytes at a time; specials at every place in and across those
    /// blocks, and a CRLF split between two, must come out as a byte-by-byte escaper writes them.
    func testTextEscapingAtEveryPlaceInAndAcrossEightByteBlocks() {
        func reference(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
                .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\r\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
        }
        for length in 0...20 {
            for special in ["\\", ";", ",", "\n", "\r", "\r\n", "é"] {
                for place in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                    var out: [UInt8] = []
                    ValueCodec.appendEscaped(text, to: &out)
                    XCTAssertEqual(String(decoding: out, as: UTF8.self), reference(text), text.debugDescription)
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
        XCTAssertEqual(CalendarDuration().rfc5545Text, "PT0S")
        XCTAssertEqual(CalendarDuration(isNegative: true, weeks: 2).rfc5545Text, "-P2W")
        XCTAssertEqual(CalendarDuration(days: 1, seconds: 30).rfc5545Text, "P1DT30S")
    }
}
