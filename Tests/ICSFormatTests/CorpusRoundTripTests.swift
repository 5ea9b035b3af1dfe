import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// ICS → model → ICS over every .ics file in samples/ and ../shared/corpus/: what the output
/// says must equal what the input said. Files that cannot be read even leniently are listed,
/// with the reason, in Fixtures/corpus-unreadable.txt; the test fails if that list is wrong
/// either way, so it cannot go stale.
final class CorpusRoundTripTests: XCTestCase {
    static func unreadableList() throws -> [String: String] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/corpus-unreadable", withExtension: "txt"))
        var result: [String: String] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }

    static func corpusFiles() -> [(name: String, url: URL)] {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
            .map { ("samples/" + $0.lastPathComponent, $0) }
        let root = RoundTripCheck.corpusRoot.path
        let corpus = RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot)
            .map { ("corpus" + $0.path.dropFirst(root.count), $0) }
        return samples + corpus
    }

    func testEveryCorpusFileRoundTripsThroughICSWithoutLoss() throws {
        try checkRoundTrips(through: ["ics"])
    }

    /// Runs every corpus file through `hops` and back to ICS.
    func checkRoundTrips(through hops: [String]) throws {
        let files = Self.corpusFiles()
        XCTAssertGreaterThan(files.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        let unreadable = try Self.unreadableList()
        var failedToRead: [String] = []
        var checked = 0
        for (name, url) in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            let before: [RoundTripCheck.CalendarTree]
            do {
                before = try RoundTripCheck.trees(of: bytes, name: name)
            } catch {
                failedToRead.append(name)
                XCTAssertNotNil(unreadable[name], "\(name) cannot be read: \(error)")
                continue
            }
            XCTAssertNil(unreadable[name], "\(name) is listed as unreadable but reads now: update the list")
            do {
                let output = try RoundTripCheck.convert(bytes, through: hops)
                let after = try RoundTripCheck.trees(of: output, name: "\(name) after \(hops)")
                if let difference = RoundTripCheck.difference(before, after) {
                    XCTFail("\(name) through \(hops): \(difference)")
                }
                checked += 1
            } catch {
                XCTFail("\(name) through \(hops) failed: \(error)")
            }
        }
        XCTAssertGreaterThan(checked, 700)
    }
}
