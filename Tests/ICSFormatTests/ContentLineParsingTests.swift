import CalendarModel
import ICalendarData
@testable import ICSFormat
import XCTest

/// `ContentLine.parse` shares Strings where it can (table names, the words of enumerated
/// parameters) and skips lookups it knows would fail; what it makes must equal the general path.
final class ContentLineParsingTests: XCTestCase {
    func parse(_ text: String) throws -> ContentLine {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer {
            // The value's bytes are the array's: made a String before it goes.
            try ContentLine.parse($0, line: 1, options: ReadOptions(sourceName: "t.ics"), log: DiagnosticLog()).materializingValue()
        }
    }

    /// The validator that lets values stay bytes agrees with the standard library's repair.
    func testUTF8ValidationAgreesWithTheStandardLibrary() {
        var samples: [[UInt8]] = [
            [], Array("plain ASCII, long enough for a word or two".utf8), Array("Jürgen 東京 🇯🇵 é".utf8),
            [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
            Array("abcdefgh".utf8) + [0xC3, 0xA9] + Array("ijklmnopq".utf8), Array("abcdefg".utf8) + [0xE2, 0x82],
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let alphabet: [UInt8] = [0x41, 0x5C, 0x80, 0xA0, 0xBF, 0xC2, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5]
            samples.append((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for bytes in samples {
            let valid = Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
            bytes.withUnsafeBufferPointer { b in
                XCTAssertEqual(ContentLine.isValidUTF8(b), valid, "\(bytes)")
                let ascii = ContentLine.firstNonASCII(b)
                XCTAssertEqual(ascii, bytes.firstIndex { $0 >= 0x80 } ?? bytes.count, "\(bytes)")
                XCTAssertEqual(ContentLine.isValidUTF8(b, from: ascii), valid, "\(bytes)")
            }
        }
    }

    /// Values kept as bytes (ASCII, or text with escapes) and values made Strings while parsing
    /// (other text, repaired text) read the same, and invalid UTF-8 is still repaired with a
    /// warning at its line, or rejected under `--strict`.
    func testValuesReadTheSameAsBytesOrStrings() throws {
        let decoder = PropertyDecoder(options: ReadOptions(sourceName: "t.ics"), log: DiagnosticLog())
        for (text, expected) in [
            ("SUMMARY:Plain", "Plain"), ("SUMMARY:Jürgen", "Jürgen"), ("SUMMARY:a\\, b\\nc", "a, b\nc"),
            ("SUMMARY:Jürgen\\, 東京\\;", "Jürgen, 東京;"), ("SUMMARY:CONFIRMED", "CONFIRMED"), ("SUMMARY:", ""),
        ] {
            var line = try parse(text)
            XCTAssertEqual(try decoder.property(from: line).value, .text([expected]), text)
            guard case .text(let value)? = decoder.scalar(from: &line) else { return XCTFail(text) }
            XCTAssertEqual(value, expected, text)
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBufferPointer {
                var borrowed = try ContentLine.parse($0, line: 1, options: ReadOptions(sourceName: "t.ics"), log: DiagnosticLog())
                XCTAssertEqual(borrowed.value, String(text.drop { $0 != ":" }.dropFirst()), text)
                guard case .text(let value)? = decoder.scalar(from: &borrowed) else { return XCTFail(text) }
                XCTAssertEqual(value, expected, text)
            }
        }
        let invalid: [UInt8] = Array("SUMMARY:a\\,b".utf8) + [0xC3, 0x28]
        let log = DiagnosticLog()
        let repaired = try invalid.withUnsafeBufferPointer {
            try ContentLine.parse($0, line: 7, options: ReadOptions(sourceName: "t.ics"), log: log).materializingValue()
        }
        XCTAssertEqual(repaired.value, "a\\,b\u{FFFD}(")
        XCTAssertEqual(log.diagnostics.map(\.line), [7])
        XCTAssertThrowsError(
            try invalid.withUnsafeBufferPointer {
                try ContentLine.parse($0, line: 7, options: ReadOptions(sourceName: "t.ics", strict: true), log: DiagnosticLog())
            })
    }

    func testCommonWordsAreTheWordsAndNothingElse() {
        for word in CommonWord.words {
            XCTAssertEqual(Array(word.utf8).withUnsafeBufferPointer { CommonWord.string($0) }, word)
        }
        for other in ["accepted", "ACCEPTE", "ACCEPTEDX", "TRUE ", " TRUE", "Europe/Berlin", "X", "", "BUSY-UNAVAILABLE", "8BIT\u{0}"] {
            XCTAssertNil(Array(other.utf8).withUnsafeBufferPointer { CommonWord.string($0) }, other)
        }
    }

    func testNamesAndParametersReadTheSameOnEveryPath() throws {
        let line = try parse("x-foo;partstat=accepted;RSVP=TRUE;CN=\"A^'B\";ROLE=CHAIR,REQ-PARTICIPANT;X-Q=TRUE^n;X-R=^^END:v")
        XCTAssertEqual(line.name, "X-FOO")
        XCTAssertEqual(line.info.id, .other)
        XCTAssertNil(line.info.defaultType)
        XCTAssertEqual(
            line.parameters,
            [
                Parameter("PARTSTAT", "accepted"), Parameter("RSVP", "TRUE"), Parameter("CN", "A\"B"),
                Parameter(name: "ROLE", values: ["CHAIR", "REQ-PARTICIPANT"]), Parameter("X-Q", "TRUE\n"), Parameter("X-R", "^END"),
            ])
        XCTAssertEqual(line.value, "v")
        XCTAssertEqual(try parse("X-FOO:v").info.id, .other)
        XCTAssertEqual(try parse("dtstart:20240101").info.id, .dtstart)
        XCTAssertEqual(try parse("dtstart:20240101").name, "DTSTART")
        XCTAssertEqual(try parse("DTSTART:20240101").info.defaultType, .dateTime)
        XCTAssertEqual(try parse("X-APPLE-STRUCTURED-LOCATION:geo:1,2").info.id, .structuredLocation)
        XCTAssertEqual(try parse("x-apple-structured-location:geo:1,2").info.id, .structuredLocation)
        XCTAssertEqual(try parse("X-APPLE-CALENDAR-COLOR:#FF0000").info.defaultType, .text)
        let known = Array(PropertyTable.definitions.keys) + PropertyID.allCases.filter { $0 != .other }.map(\.rawValue)
        for name in known + ["X-MICROSOFT-CDO-BUSYSTATUS", "X-APPLE-STRUCTURED-LOCATIONS", "X-APPLE-CALENDAR-COLOUR", "X-FOO"] {
            for spelling in [name, name.lowercased()] {
                let line = try parse(spelling + ":1")
                XCTAssertEqual(line.name, name)
                XCTAssertEqual(line.info.id, PropertyTable.info(name).id, spelling)
                XCTAssertEqual(line.info.defaultType, PropertyTable.info(name).defaultType, spelling)
                XCTAssertEqual(line.info.isList, PropertyTable.info(name).isList, spelling)
            }
        }
    }

    /// The reader's shortcut for plain BEGIN and END lines names the component as parsing the
    /// line and upper-casing its value does, and leaves every other line to that path.
    func testPlainStructureLinesNameTheComponentAsParsingWould() throws {
        for text in ["BEGIN:VEVENT", "BEGIN:vevent", "END:X-Foo-1", "END:VCALENDAR", "BEGIN:A"] {
            let plain = try XCTUnwrap(Array(text.utf8).withUnsafeBufferPointer { ICSReader.plainStructureLine($0) }, text)
            let line = try parse(text)
            XCTAssertEqual(plain.begin, line.name == "BEGIN", text)
            XCTAssertEqual(plain.name, line.value.uppercased(), text)
        }
        for text in ["BEGIN:", "END:", "begin:VEVENT", "BEGIN;X=1:A", "BEGIN:V EVENT", "END:V\u{C9}", "BEGIN:VEVENT\u{0}", "BEGINX:A", "EN:D"] {
            XCTAssertNil(Array(text.utf8).withUnsafeBufferPointer { ICSReader.plainStructureLine($0) }, text)
        }
    }
}
