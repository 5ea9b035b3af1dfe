import CalendarTestSupport
import CalendarModel
import Conversion
import Foundation
import XCTest

/// `calport formats --vocabulary` prints the whole registry's participant words; the golden
/// file Fixtures/formats-vocabulary.txt is what it must print. When a format lands or a word
/// changes, check the new table and rewrite the file with CALPORT_UPDATE_GOLDEN=1.
final class FormatsVocabularyTableTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testTheTablePrintedMatchesTheGoldenFile() throws {
        let golden = Self.fixtures.appendingPathComponent("formats-vocabulary.txt")
        let run = try CommandRunner(directory: Self.fixtures).calport(["formats", "--vocabulary"])
        XCTAssertEqual(run.status, 0, run.stderr)
        if ProcessInfo.processInfo.environment["CALPORT_UPDATE_GOLDEN"] != nil {
            try Data(run.stdout.utf8).write(to: golden)
        }
        XCTAssertEqual(
            run.stdout, try String(contentsOf: golden, encoding: .utf8),
            "the table changed (a format landed?): check it, then CALPORT_UPDATE_GOLDEN=1 swift test --filter FormatsVocabularyTableTests")
    }

    func testTheTableHasAColumnPerVocabularyAndARowPerEventKitValue() {
        let text = VocabularyTable().render()
        let header = text.split(separator: "\n").first.map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(header, ["role"] + StandardFormats.registry.vocabularies.map(\.formatID))
        for name in ["unknown", "required", "optional", "chair", "nonParticipant", "pending", "inProcess", "person", "room", "group"] {
            XCTAssertTrue(text.contains("\n" + name + " "), name)
        }
        XCTAssertTrue(text.contains("nonParticipant  Non Participant"))
    }

    func testAMapFileShowsInTheTable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-vocab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"roles": {"X-MODERATOR": "chair"}, "formats": {"json": {"statuses": {"onHold": "tentative"}}}}"#.utf8)
            .write(to: dir.appendingPathComponent("map.json"))
        let run = try CommandRunner(directory: dir).calport(["formats", "--vocabulary", "--map", "map.json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let chair = run.stdout.split(separator: "\n").first { $0.hasPrefix("chair ") }.map(String.init) ?? ""
        XCTAssertTrue(chair.contains("CHAIR | X-MODERATOR"), chair)
        XCTAssertTrue(chair.contains("chair | X-MODERATOR"), chair)
        let tentative = run.stdout.split(separator: "\n").first { $0.hasPrefix("tentative ") }.map(String.init) ?? ""
        XCTAssertTrue(tentative.contains("tentative | onHold"), tentative)
    }
}
