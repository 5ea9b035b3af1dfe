import CalendarTestSupport
import Foundation
import XCTest

/// Each sample converts to its golden canonical form, and a canonical file converts to itself
/// byte for byte.
final class CanonicalOutputTests: XCTestCase {
    func testSamplesConvertToTheirGoldenCanonicalForm() throws {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
        XCTAssertGreaterThanOrEqual(samples.count, 3)
        for sample in samples {
            let name = sample.deletingPathExtension().lastPathComponent
            let golden = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/canonical/\(name).expected", withExtension: "ics"), name)
            let expected = [UInt8](try Data(contentsOf: golden))
            let output = try RoundTripCheck.convert([UInt8](try Data(contentsOf: sample)), through: ["ics"])
            XCTAssertEqual(String(decoding: output, as: UTF8.self), String(decoding: expected, as: UTF8.self), name)
            XCTAssertTrue(try RoundTripCheck.convert(expected, through: ["ics"]) == expected, "\(name): canonical input must come back byte for byte")
        }
    }

    func testFoldingNeverSplitsAUTF8SequenceAndKeepsLinesWithin75Octets() throws {
        let summary = String(repeating: "日本語のテキスト😀", count: 20)
        let input = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let output = try RoundTripCheck.convert(Array(input.utf8), through: ["ics"])
        let text = try XCTUnwrap(String(validating: output, as: UTF8.self))
        var lines = text.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.removeLast(), "")
        for line in lines {
            XCTAssertLessThanOrEqual(line.utf8.count, 75, line)
            XCTAssertNotNil(String(validating: Array(line.utf8), as: UTF8.self))
        }
        let trees = try RoundTripCheck.trees(of: output)
        XCTAssertTrue(trees[0].components[0].properties.contains { $0.contains(summary) })
    }
}
