import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Several formats claim `.json`: the extension gives the candidates and the content decides
/// among them, so jCal and JSCalendar files convert without `-f`, and calport's own JSON is
/// still read as itself.
final class JSONContentSniffingTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The ICS a conversion of `input` writes, with `-f` when `format` is given.
    func ics(_ input: URL, format: String? = nil) throws -> String {
        let output = directory.appendingPathComponent("out-\(UUID().uuidString).ics")
        try Converter().run(ConversionRequest(inputs: [input.path], output: output.path, inputFormat: format), log: DiagnosticLog())
        return try String(contentsOf: output, encoding: .utf8)
    }

    func testJCalJSONFilesOfIcalJSConvertWithoutNamingTheFormat() throws {
        let folder = RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/test/parser")
        var converted = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            // ical.js's vCard cases are jCard, which calport does not read.
            guard try String(contentsOf: url, encoding: .utf8).contains("\"vcalendar\"") else { continue }
            XCTAssertEqual(try ics(url), try ics(url, format: "jcal"), name)
            converted += 1
        }
        XCTAssertGreaterThanOrEqual(converted, 20)
    }

    func testRFC8984ExamplesConvertWithoutNamingTheFormat() throws {
        // RFC 8984 §6's examples, kept beside the JSCalendar tests as `.json` files.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("JSCalendarFormatTests/Fixtures/jscalendar/rfc8984")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names.count, 10)
        for name in names {
            let url = folder.appendingPathComponent(name)
            XCTAssertEqual(try ics(url), try ics(url, format: "jscalendar"), name)
        }
    }

    func testAJSCalendarEventWhoseTypeComesLateIsStillRecognized() throws {
        // Members are unordered (RFC 8259 §4): `@type` may follow a long description.
        let description = String(repeating: "Agenda item. ", count: 400)
        let json = """
            {"uid":"late-type-1","title":"Planning","description":"\(description)","start":"2026-03-02T09:00:00",
             "timeZone":"Europe/Berlin","duration":"PT1H","@type":"Event"}
            """
        let url = directory.appendingPathComponent("late.json")
        try Data(json.utf8).write(to: url)
        let out = try ics(url)
        XCTAssertTrue(out.contains("UID:late-type-1"), out)
        XCTAssertTrue(out.contains("DTSTART;TZID=Europe/Berlin:20260302T090000"), out)
    }

    func testCalportJSONInADotJSONFileIsStillCalportJSON() throws {
        let source = directory.appendingPathComponent("one.ics")
        try Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:native-1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260102T100000Z\r\nSUMMARY:Native\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                .utf8
        ).write(to: source)
        let json = directory.appendingPathComponent("native.json")
        // Writing to `.json` still means calport's JSON: the first format claiming the extension.
        try Converter().run(ConversionRequest(inputs: [source.path], output: json.path), log: DiagnosticLog())
        XCTAssertTrue(try String(contentsOf: json, encoding: .utf8).contains("\"calport-json\""))
        XCTAssertEqual(try ics(json), try ics(json, format: "json"))
    }

    func testJSONThatNoCandidateRecognizesGetsTheDefaultFormatsError() throws {
        let url = directory.appendingPathComponent("contacts.json")
        try Data(#"["vcard",[["version",{},"text","4.0"]]]"#.utf8).write(to: url)
        XCTAssertThrowsError(try ics(url)) { error in
            XCTAssertTrue("\(error)".contains("contacts.json:1"), "\(error)")
            XCTAssertTrue("\(error)".contains("-f jcal"), "\(error)")
        }
    }

    /// A format that joins `.json` (as Microsoft Graph's does) is chosen by its content alone:
    /// listing the extension and recognizing its own documents is all it takes.
    func testAFormatJoiningAnExtensionIsChosenByItsContent() throws {
        struct ODataFormat: CalendarFormat {
            var id: String { "odata-test" }
            var fileExtensions: [String] { ["json"] }
            var mediaType: String { "application/json" }
            var summary: String { "test format" }
            var vocabulary: ParticipantVocabulary? { nil }
            func sniff(_ prefix: [UInt8]) -> Bool { String(decoding: prefix, as: UTF8.self).contains("\"@odata.context\"") }
            func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader { fatalError("not read") }
            func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter { fatalError("not written") }
        }
        let converter = Converter(registry: try FormatRegistry(StandardFormats.all + [ODataFormat()]))
        func format(_ text: String) throws -> String {
            let url = directory.appendingPathComponent("\(UUID().uuidString).json")
            try Data(text.utf8).write(to: url)
            return try converter.resolveInputFormat(name: url.path, source: try FileByteSource(path: url.path), explicit: nil).id
        }
        // Graph's events are Graph's (it claims .json before the test format); other OData documents the test format's.
        XCTAssertEqual(
            try format(#"{"@odata.context":"https://graph.microsoft.com/v1.0/$metadata#users('a')/events","value":[]}"#), "graph")
        XCTAssertEqual(
            try format(#"{"@odata.context":"https://graph.microsoft.com/v1.0/$metadata#users('a')/contacts","value":[]}"#), "odata-test")
        XCTAssertEqual(try format(#"["vcalendar",[],[]]"#), "jcal")
        XCTAssertEqual(try format(#"{"@type":"Group","entries":[]}"#), "jscalendar")
        XCTAssertEqual(try format(#"{"format":"calport-json","version":1,"calendars":[]}"#), "json")
        XCTAssertEqual(converter.registry.formats(forExtension: "json").map(\.id), ["json", "jcal", "jscalendar", "graph", "odata-test"])
    }
}
