import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// EWS → Graph and Graph → EWS through the model keep what the source says at each occurrence
/// (issue 16): the same instants, titles, attendee addresses and their participation and role
/// words (`OccurrenceList.Facets.attendeeWords`) as the source converted straight to ICS. EWS
/// and Graph share one Exchange core, so nothing that one holds should be lost in the other.
final class EWSGraphCrossTests: XCTestCase {
    /// The EWS reader's valid fixtures (documents Exchange and its clients wrote).
    static let ewsFixtures = RoundTripCheck.repositoryRoot.appendingPathComponent("Tests/EWSFormatTests/Fixtures/valid")

    /// Compares `source` read as `format` straight to ICS with the same through `other` first.
    func check(_ name: String, _ source: [UInt8], from format: String, through other: String) {
        do {
            try compare(name, source, from: format, through: other)
        } catch {
            XCTFail("\(name): \(format) → \(other) → ICS failed: \(error)")
        }
    }

    private func compare(_ name: String, _ source: [UInt8], from format: String, through other: String) throws {
        let direct = try OccurrenceList.lines(
            ofICS: try RoundTripCheck.convert(source, through: ["ics"], from: format), facets: .attendeeWords)
        let log = DiagnosticLog()
        let crossed = try RoundTripCheck.convert(source, through: [other, "ics"], log: log, from: format)
        let after = try OccurrenceList.lines(ofICS: crossed, facets: .attendeeWords)
        XCTAssertFalse(direct.isEmpty, "\(name): no occurrences")
        let lost = direct.filter { !after.contains($0) }
        let gained = after.filter { !direct.contains($0) }
        XCTAssertTrue(
            lost.isEmpty && gained.isEmpty,
            "\(name): \(format) → \(other) → ICS differs from \(format) → ICS: lost \(lost.prefix(3)), gained \(gained.prefix(3)); losses reported: \(log.diagnostics.compactMap(\.lostField))"
        )
    }

    func testEveryEWSFixtureThroughGraphGivesTheOccurrencesAndAttendeesOfEWSToICS() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.ewsFixtures, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "xml" }.sorted { $0.path < $1.path }
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            check(file.lastPathComponent, [UInt8](try Data(contentsOf: file)), from: "ews", through: "graph")
        }
    }

    func testEveryGraphFixtureThroughEWSGivesTheOccurrencesAndAttendeesOfGraphToICS() throws {
        let files = try GraphFixtureTests.cases()
        XCTAssertGreaterThanOrEqual(files.count, 6)
        for file in files {
            check(file.lastPathComponent, [UInt8](try Data(contentsOf: file)), from: "graph", through: "ews")
        }
    }
}
