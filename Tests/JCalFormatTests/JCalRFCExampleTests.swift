import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import ICSFormat
import JCalCoding
import JSONCoding
import XCTest

@testable import JCalFormat

/// RFC 7265's own examples, both ways (Fixtures/jcal/rfc7265/README.md says where they come from).
final class JCalRFCExampleTests: XCTestCase {
    static let folder = JCalTestSupport.fixtures.appendingPathComponent("jcal/rfc7265")

    func checkAppendix(_ name: String) throws {
        let ics = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).ics")))
        let rfcJCal = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).rfc.json")))
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("\(name).expected.json"), encoding: .utf8)

        // iCalendar → jCal: exactly the expected bytes, saying what the RFC's jCal says.
        let written = try JCalTestSupport.convert(ics, from: "ics", to: "jcal")
        XCTAssertEqual(String(decoding: written, as: UTF8.self), expected)
        let ours = try JCalTestSupport.jsonValues(written)
        let theirs = try JCalTestSupport.jsonValues(rfcJCal)
        XCTAssertEqual(ours.count, 1)
        XCTAssertTrue(
            JCalTestSupport.propertyOrderFree(ours[0]).isSemanticallyEqual(to: JCalTestSupport.propertyOrderFree(theirs[0])),
            "\(name): calport's jCal\n\(ours[0])\nis not the RFC's\n\(theirs[0])")

        // jCal → iCalendar: the RFC's jCal gives the RFC's iCalendar.
        let back = try JCalTestSupport.convert(rfcJCal, from: "jcal", to: "ics", strict: true)
        let difference = RoundTripCheck.difference(try RoundTripCheck.trees(of: ics), try RoundTripCheck.trees(of: back))
        XCTAssertNil(difference, "\(name): \(difference ?? "")")

        try JCalTestSupport.assertValid(
            [Self.folder.appendingPathComponent("\(name).expected.json"), Self.folder.appendingPathComponent("\(name).rfc.json")],
            schema: "jcal.schema.json")
    }

    func testAppendixB1() throws {
        try checkAppendix("appendix-B.1")
    }

    func testAppendixB2() throws {
        try checkAppendix("appendix-B.2")
    }

    /// Each property example of RFC 7265 reads into the component tree and writes back as the
    /// same jCal; where the RFC gives the iCalendar form, that form converts to the jCal and back.
    func testPropertyExamples() throws {
        let lines = try String(contentsOf: Self.folder.appendingPathComponent("property-examples.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(lines.count, 30)
        for line in lines {
            let example = try XCTUnwrap(try JCalTestSupport.jsonValues(Array(line.utf8)).first?.objectValue)
            let source = example["source"]?.stringValue ?? "?"
            let jcal = try XCTUnwrap(example["jcal"])
            let log = DiagnosticLog()
            let decoder = JCalValueDecoder(file: source, line: 1, strict: true, log: log)
            let property = try decoder.property(jcal, "")
            XCTAssertEqual(log.diagnostics, [], source)
            var out = JSONOutput(sink: MemoryByteSink())
            out.jcalProperty(property)
            let rewritten = try JCalTestSupport.jsonValues(out.bytes)[0]
            XCTAssertTrue(rewritten.isSemanticallyEqual(to: jcal), "\(source): wrote \(rewritten), expected \(jcal)")
            guard let icsLine = example["ics"]?.stringValue else { continue }
            // With the iCalendar form: ICS → jCal gives the example, jCal → ICS gives the line.
            let ics = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n\(icsLine)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            let trees = try RoundTripCheck.trees(of: ics)
            XCTAssertEqual(trees[0].components[0].properties.count, 1, source)
            var reader = ICSReader.componentTreeReader(
                source: MemoryByteSource(ics), options: ReadOptions(sourceName: source), log: DiagnosticLog())
            var fromICS: Property?
            while let e = try reader.next() {
                if case .entry(.other(let c), _) = e { fromICS = c.properties.first }
            }
            var out2 = JSONOutput(sink: MemoryByteSink())
            out2.jcalProperty(try XCTUnwrap(fromICS, source))
            let converted = try JCalTestSupport.jsonValues(out2.bytes)[0]
            XCTAssertTrue(converted.isSemanticallyEqual(to: jcal), "\(source): ICS gave \(converted), expected \(jcal)")
            let sink = MemoryByteSink()
            var writer = ICSWriter(sink: sink)
            try writer.write(.beginCalendar(CalendarModel.Calendar()))
            try writer.write(.entry(.other(Component(name: "VEVENT", properties: [property])), line: 0))
            try writer.write(.endCalendar(trailingProperties: []))
            try writer.finish()
            let difference = RoundTripCheck.difference(trees, try RoundTripCheck.trees(of: sink.bytes))
            XCTAssertNil(difference, "\(source): \(difference ?? "")")
        }
    }
}
