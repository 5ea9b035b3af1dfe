import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// ICS → jCal → ICS over every .ics file in samples/ and ../shared/corpus/: what the output
/// says equals what the input said (RoundTripCheck, as for ICS → ICS); every jCal written on
/// the way matches schemas/jcal.schema.json. Files the ICS reader cannot read even leniently
/// are the ICS tests' concern (Tests/ICSFormatTests/Fixtures/corpus-unreadable.txt).
final class JCalCorpusTests: XCTestCase {
    func testEveryCorpusFileRoundTripsThroughJCal() throws {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
            .map { ("samples/" + $0.lastPathComponent, $0) }
        let root = RoundTripCheck.corpusRoot.path
        let files =
            samples + RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot).map { ("corpus" + $0.path.dropFirst(root.count), $0) }
        XCTAssertGreaterThan(files.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        let dir = try JCalTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var written: [URL] = []
        var checked = 0
        for (index, (name, url)) in files.enumerated() {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let before = try? RoundTripCheck.trees(of: bytes, name: name) else { continue }
            do {
                let jcal = try JCalTestSupport.convert(bytes, from: "ics", to: "jcal")
                written.append(try JCalTestSupport.temporaryFile(jcal, name: "\(index).json", in: dir))
                let back = try JCalTestSupport.convert(jcal, from: "jcal", to: "ics")
                if let difference = RoundTripCheck.difference(before, try RoundTripCheck.trees(of: back, name: "\(name) after jcal")) {
                    XCTFail("\(name) through jcal: \(difference)")
                }
                checked += 1
            } catch {
                XCTFail("\(name) through jcal failed: \(error)")
            }
        }
        XCTAssertGreaterThan(checked, 700)
        try JCalTestSupport.assertValid(written, schema: "jcal.schema.json", sequence: true)
    }
}
