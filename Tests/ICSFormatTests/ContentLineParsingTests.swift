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
            try ContentLine.parse($0, line: 1, options: ReadOptions(sourceName: "t.ics"), log: DiagnosticLog())
        }
    }

    func testCommonParameterValuesAreTheWordsAndNothingElse() {
        for word in CommonParameterValue.words {
            XCTAssertEqual(Array(word.utf8).withUnsafeBufferPointer { CommonParameterValue.string($0) }, word)
        }
        for other in ["accepted", "ACCEPTE", "ACCEPTEDX", "TRUE ", " TRUE", "Europe/Berlin", "X", "", "BUSY-UNAVAILABLE", "8BIT\u{0}"] {
            XCTAssertNil(Array(other.utf8).withUnsafeBufferPointer { CommonParameterValue.string($0) }, other)
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
