import CalendarModel
import Conversion
import XCTest

/// Every EventKit role, status and type converts to and from every registered format that can
/// express it (its vocabulary has a word for it), directly and through ICS; a value a format
/// cannot express is left out, never turned into another; a word no table knows comes back as
/// it was. Table-driven over StandardFormats.registry, so a format that lands is covered.
final class VocabularyRoundTripTests: XCTestCase {
    var formats: [any CalendarFormat] { StandardFormats.registry.formats.filter { $0.vocabulary != nil } }

    func check(_ event: Event, after hops: [any CalendarFormat], file: StaticString = #filePath, line: UInt = #line) {
        let path = hops.map(\.id).joined(separator: " → ")
        // A value survives only when every format on the way can say it.
        func survives(_ word: (ParticipantVocabulary) -> String?) -> Bool { hops.allSatisfy { $0.vocabulary.flatMap(word) != nil } }
        for (i, r) in ParticipantRole.eventKitCases.enumerated() {
            let got = ParticipantHops.participant("mailto:role-\(i)@example.com", in: event)?.role
            XCTAssertEqual(got, survives { $0.word(for: r) } ? r : nil, "\(path): role \(r.eventKitName)", file: file, line: line)
        }
        for (i, s) in ParticipantStatus.eventKitCases.enumerated() {
            let got = ParticipantHops.participant("mailto:status-\(i)@example.com", in: event)?.status
            XCTAssertEqual(got, survives { $0.word(for: s) } ? s : nil, "\(path): status \(s.eventKitName)", file: file, line: line)
        }
        for (i, t) in ParticipantType.eventKitCases.enumerated() {
            let got = ParticipantHops.participant("mailto:type-\(i)@example.com", in: event)?.type
            XCTAssertEqual(got, survives { $0.word(for: t) } ? t : nil, "\(path): type \(t.eventKitName)", file: file, line: line)
        }
        let other = ParticipantHops.participant("mailto:other@example.com", in: event)
        XCTAssertEqual(other?.role, .other("X-MODERATOR"), path, file: file, line: line)
        XCTAssertEqual(other?.status, .other("X-ON-HOLD"), path, file: file, line: line)
        XCTAssertEqual(other?.type, .other("X-VEHICLE"), path, file: file, line: line)
        XCTAssertEqual(event.item.organizer?.role, .chair, path, file: file, line: line)
    }

    func testEveryFormatWithAVocabularyIsCovered() {
        // ics, json, jsonl at least; each format that lands with a vocabulary joins the loops below.
        XCTAssertGreaterThanOrEqual(formats.count, 3)
    }

    func testEveryValueRoundTripsThroughEachFormat() throws {
        for format in formats {
            check(try ParticipantHops.hop(ParticipantHops.sampleEvent(), through: [format]), after: [format])
        }
    }

    func testEveryValueGoesFromEachFormatToEveryOther() throws {
        for from in formats {
            for to in formats where to.id != from.id {
                check(try ParticipantHops.hop(ParticipantHops.sampleEvent(), through: [from, to, from]), after: [from, to, from])
            }
        }
    }

    func testEveryWordOfEveryTableReadsAsItsValue() {
        for v in StandardFormats.registry.vocabularies {
            for (value, word) in v.roles { XCTAssertEqual(v.role(for: word), value, "\(v.formatID) \(word)") }
            for (value, word) in v.statuses { XCTAssertEqual(v.status(for: word), value, "\(v.formatID) \(word)") }
            for (value, word) in v.types { XCTAssertEqual(v.type(for: word), value, "\(v.formatID) \(word)") }
            // Each value has at most one written word: the first.
            XCTAssertEqual(Set(v.roles.map { "\($0.0)" }).count, ParticipantRole.eventKitCases.filter { v.word(for: $0) != nil }.count)
        }
    }

    func testEventKitsDisplayNamesAreATableOfTheRegistry() {
        let eventKit = StandardFormats.registry.vocabularies.first
        XCTAssertEqual(eventKit?.formatID, "eventkit")
        XCTAssertEqual(eventKit?.word(for: ParticipantRole.nonParticipant), "Non Participant")
        XCTAssertEqual(eventKit?.word(for: ParticipantStatus.inProcess), "In Process")
        XCTAssertEqual(eventKit?.word(for: ParticipantType.room), "Room")
        XCTAssertEqual(eventKit?.role(for: "non participant"), .nonParticipant)
        for r in ParticipantRole.eventKitCases { XCTAssertNotNil(eventKit?.word(for: r)) }
        for s in ParticipantStatus.eventKitCases { XCTAssertNotNil(eventKit?.word(for: s)) }
        for t in ParticipantType.eventKitCases { XCTAssertNotNil(eventKit?.word(for: t)) }
    }
}
