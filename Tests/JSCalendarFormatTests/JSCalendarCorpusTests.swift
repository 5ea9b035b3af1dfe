import CalendarModel
import CalendarTestSupport
import Foundation
import JSONCoding
import XCTest

/// ICS → JSCalendar → ICS over every .ics file in samples/ and ../shared/corpus/.
/// With calport's vendor members the round trip loses nothing (RoundTripCheck). Without them —
/// JSCalendar as any other program reads it — titles, times, recurrence, participants, alerts
/// and locations survive; what does not is listed, by kind, in
/// Fixtures/jscalendar/documented-losses.txt (and docs/jscalendar.md), and the test fails on
/// any loss of a kind not listed there.
final class JSCalendarCorpusTests: XCTestCase {
    static func documentedLosses() throws -> [String: String] {
        let text = try String(
            contentsOf: JSCalendarTestSupport.fixtures.appendingPathComponent("jscalendar/documented-losses.txt"), encoding: .utf8)
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    func testEveryCorpusFileRoundTripsThroughJSCalendar() throws {
        let files = JSCalendarTestSupport.corpusFiles()
        XCTAssertGreaterThan(files.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        let documented = try Self.documentedLosses()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-jscal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var written: [URL] = []
        var checked = 0
        var lossesSeen: [String: String] = [:]
        for (index, (name, url)) in files.enumerated() {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let before = try? RoundTripCheck.trees(of: bytes, name: name) else { continue }
            do {
                let jscal = try JSCalendarTestSupport.convert(bytes, from: "ics", to: "jscalendar")
                let file = dir.appendingPathComponent("\(index).json")
                try Data(jscal).write(to: file)
                written.append(file)
                // With the vendor members: nothing lost.
                let back = try JSCalendarTestSupport.convert(jscal, from: "jscalendar", to: "ics")
                if let difference = RoundTripCheck.difference(before, try RoundTripCheck.trees(of: back, name: "\(name) after jscalendar"))
                {
                    XCTFail("\(name) through jscalendar: \(difference)")
                }
                // Without them: what JSCalendar itself keeps.
                let plain = JSCalendarTestSupport.text(
                    try JSCalendarTestSupport.jsonValues(jscal).map(JSCalendarTestSupport.withoutVendorMembers))
                let original = try JSCalendarTestSupport.read(bytes, format: "ics")
                let seen = try JSCalendarTestSupport.read(plain, format: "jscalendar")
                let plainICS = try JSCalendarTestSupport.convert(plain, from: "jscalendar", to: "ics")
                let losses =
                    JSCalendarLossCheck.losses(from: original, to: seen)
                    + (try JSCalendarLossCheck.propertyLosses(original: bytes, plain: plainICS))
                for loss in losses where lossesSeen[loss.kind] == nil {
                    lossesSeen[loss.kind] = "\(name): \(loss.detail)"
                }
                checked += 1
            } catch {
                XCTFail("\(name) through jscalendar failed: \(error)")
            }
        }
        XCTAssertGreaterThan(checked, 700)
        for (kind, example) in lossesSeen.sorted(by: { $0.key < $1.key }) where documented[kind] == nil {
            XCTFail("undocumented JSCalendar loss '\(kind)', e.g. \(example)")
        }
        for kind in documented.keys where lossesSeen[kind] == nil {
            XCTFail("documented loss '\(kind)' no longer occurs in the corpus: remove it from documented-losses.txt")
        }
        try JSCalendarTestSupport.assertValid(written, schema: "jscalendar.schema.json")
    }
}
