import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest
import XMLSupport

/// sabre/vobject's 100 ICS ⇄ XML pairs (corpus index.jsonl): every xCal document reads as its
/// ICS; where the pair is `reflexive`, the ICS writes as that XML. The pairs in xCard's
/// namespace (RFC 6351) are refused with a message saying so.
final class XCalSabrePairTests: XCTestCase {
    struct Pair: Decodable {
        var test: String
        var xml: String
        var ics: String
        var reflexive: Bool
    }

    func pairs() throws -> [Pair] {
        let index = try String(contentsOf: XCalTestSupport.sabreFolder.appendingPathComponent("index.jsonl"), encoding: .utf8)
        return try index.split(separator: "\n").map { try JSONDecoder().decode(Pair.self, from: Data($0.utf8)) }
    }

    /// Test name → direction ("read" or "write"), from Fixtures/sabre-deviations.txt.
    func deviations() throws -> [String: String] {
        let text = try String(contentsOf: XCalTestSupport.fixtures.appendingPathComponent("sabre-deviations.txt"), encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let cells = line.split(separator: "\t", maxSplits: 2)
            out[String(cells[0])] = String(cells[1])
        }
        return out
    }

    /// Unfolded content lines without VALUE= and ENCODING= parameters, for the deviations.
    static func untypedLines(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
            of: "\n ", with: "")
        return text.split(separator: "\n").map { line in
            guard let colon = line.firstIndex(of: ":") else { return String(line) }
            let head = line[..<colon].split(separator: ";").filter { !$0.hasPrefix("VALUE=") && !$0.hasPrefix("ENCODING=") }
            return head.joined(separator: ";") + line[colon...]
        }.filter { !$0.hasPrefix("VERSION:") && !$0.hasPrefix("PRODID:") }
    }

    func testEveryPair() throws {
        let all = try pairs()
        let deviations = try deviations()
        var deviated: Set<String> = []
        XCTAssertEqual(all.count, 100)
        var xcal = 0, reflexive = 0, xcard = 0
        for pair in all {
            let folder = XCalTestSupport.sabreFolder.deletingLastPathComponent()
            let xml = try XCalTestSupport.bytes(folder.appendingPathComponent(pair.xml))
            let ics = try XCalTestSupport.bytes(folder.appendingPathComponent(pair.ics))
            if String(decoding: xml, as: UTF8.self).contains("urn:ietf:params:xml:ns:vcard-4.0") {
                XCTAssertThrowsError(try XCalTestSupport.convert(xml, from: "xcal", to: "ics"), pair.test) { error in
                    XCTAssertTrue("\(error)".contains("xCard"), "\(pair.test): \(error)")
                }
                xcard += 1
                continue
            }
            xcal += 1
            let read = try XCalTestSupport.convert(xml, from: "xcal", to: "ics")
            if let d = RoundTripCheck.difference(try RoundTripCheck.trees(of: ics), try RoundTripCheck.trees(of: read)) {
                if deviations[pair.test] == "read" {
                    deviated.insert(pair.test)
                    XCTAssertEqual(Self.untypedLines(read), Self.untypedLines(ics), pair.test)
                } else {
                    XCTFail("\(pair.test): xCal → ICS: \(d)\n\(String(decoding: read, as: UTF8.self))")
                }
            }
            guard pair.reflexive else { continue }
            reflexive += 1
            let written = try XCalTestSupport.convert(ics, from: "ics", to: "xcal")
            // The writer supplies VERSION and PRODID where sabre's fragments have none.
            let expectedTree = try XCalTestSupport.tree(xml)
            let expectedText = XCalTestSupport.canonical(expectedTree)
            var dropped: Set<String> = []
            if !expectedText.contains("}version") { dropped.insert("version") }
            if !expectedText.contains("}prodid") { dropped.insert("prodid") }
            let got = XCalTestSupport.canonical(try XCalTestSupport.tree(written), dropping: dropped)
            if got != XCalTestSupport.canonical(expectedTree, dropping: dropped) {
                if deviations[pair.test] == "write" {
                    deviated.insert(pair.test)
                    let back = try XCalTestSupport.convert(written, from: "xcal", to: "ics")
                    XCTAssertNil(
                        RoundTripCheck.difference(try RoundTripCheck.trees(of: ics), try RoundTripCheck.trees(of: back)), pair.test)
                    continue
                }
                XCTFail("\(pair.test): ICS → xCal differs\n--- expected\n\(expectedText)\n--- got\n\(got)")
            }
        }
        XCTAssertEqual(deviated, Set(deviations.keys), "Fixtures/sabre-deviations.txt is out of date")
        XCTAssertEqual(xcal + xcard, 100)
        XCTAssertEqual(xcal, 34)
        XCTAssertEqual(reflexive, 25)
    }
}
