import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// ICS → xCal → ICS over every .ics file in samples/ and ../shared/corpus/: what comes back
/// must say what went in. Files the ICS reader cannot read at all are not xCal's concern
/// (ICSFormatTests lists them); files holding characters XML 1.0 cannot carry (C0 controls,
/// from fuzzers) are listed in Fixtures/corpus-xml-lossy.txt and must lose exactly those and
/// warn; every other file must survive.
final class XCalCorpusRoundTripTests: XCTestCase {
    func testEveryCorpusFileRoundTripsThroughXCalWithoutLoss() throws {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
        let corpus = RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot)
        XCTAssertGreaterThan(corpus.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        let lossyText = try String(contentsOf: XCalTestSupport.fixtures.appendingPathComponent("corpus-xml-lossy.txt"), encoding: .utf8)
        let lossy = Set(lossyText.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: "\t")[0]) })
        var lost: Set<String> = []
        var checked = 0
        for url in samples + corpus {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let before = try? RoundTripCheck.trees(of: bytes, name: url.path) else { continue }
            let name =
                url.path.hasPrefix(RoundTripCheck.corpusRoot.path)
                ? "corpus" + url.path.dropFirst(RoundTripCheck.corpusRoot.path.count) : url.lastPathComponent
            do {
                let log = DiagnosticLog()
                let output = try RoundTripCheck.convert(bytes, through: ["xcal", "ics"], log: log)
                let after = try RoundTripCheck.trees(of: output, name: "\(url.lastPathComponent) after xcal")
                if let difference = RoundTripCheck.difference(before, after) {
                    if lossy.contains(name) {
                        lost.insert(name)
                        XCTAssertTrue(difference.contains("\u{FFFD}") || difference.contains("�"), "\(name): \(difference)")
                        XCTAssertTrue(
                            log.diagnostics.contains { $0.message.contains("U+FFFD") }, "\(name) lost characters without a warning")
                    } else {
                        XCTFail("\(name) through xCal: \(difference)")
                    }
                }
                checked += 1
            } catch {
                XCTFail("\(url.path) through xCal failed: \(error)")
            }
        }
        XCTAssertEqual(lost, lossy, "Fixtures/corpus-xml-lossy.txt is out of date")
        XCTAssertGreaterThan(checked, 700)
    }
}
