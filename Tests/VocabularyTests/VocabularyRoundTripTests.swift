import CalendarModel
import Conversion
import XCTest

/// Every EventKit role, status and type converts to and from every registered format that can
/// express it (its table has a word for it that reads back as it), on its own and through every
/// other format; a word no table knows comes back as it was from every format that keeps such
/// words. Table-driven over StandardFormats.registry, so a format that lands is covered.
final class VocabularyRoundTripTests: XCTestCase {
    // `ews` reads on this branch but writes only once the EWS writer (branch ews-writer) is
    // merged: drop the id filter then.
    var formats: [any CalendarFormat] { StandardFormats.registry.formats.filter { $0.vocabulary != nil && $0.id != "ews" } }

    /// Whether a format can say a value: its table has a word for it that reads back as it.
    /// Outlook CSV writes a chair in the required attendees' column, which reads as required:
    /// a mapping its table shows, but no way to say "chair".
    static func expresses(_ format: any CalendarFormat, role r: ParticipantRole) -> Bool {
        guard let v = format.vocabulary, let w = v.word(for: r) else { return false }
        if case .other = r { return v.keepsUnknownWords && v.role(for: w) == r }
        return v.role(for: w) == r
    }

    static func expresses(_ format: any CalendarFormat, status s: ParticipantStatus) -> Bool {
        guard let v = format.vocabulary, let w = v.word(for: s) else { return false }
        if case .other = s { return v.keepsUnknownWords && v.status(for: w) == s }
        return v.status(for: w) == s
    }

    static func expresses(_ format: any CalendarFormat, type t: ParticipantType) -> Bool {
        guard let v = format.vocabulary, let w = v.word(for: t) else { return false }
        if case .other = t { return v.keepsUnknownWords && v.type(for: w) == t }
        return v.type(for: w) == t
    }

    /// Every value every format on the way can express comes back unchanged. (What a format
    /// does with a value it cannot express is its own table's business, shown by
    /// `calport formats --vocabulary`.)
    func check(_ event: Event, after hops: [any CalendarFormat], file: StaticString = #filePath, line: UInt = #line) -> Int {
        let path = hops.map(\.id).joined(separator: " → ")
        var checked = 0
        for (i, r) in ParticipantRole.eventKitCases.enumerated() where hops.allSatisfy({ Self.expresses($0, role: r) }) {
            let got = ParticipantHops.participant("mailto:role-\(i)@example.com", in: event)?.role
            XCTAssertEqual(got, r, "\(path): role \(r.eventKitName)", file: file, line: line)
            checked += 1
        }
        for (i, s) in ParticipantStatus.eventKitCases.enumerated() where hops.allSatisfy({ Self.expresses($0, status: s) }) {
            let got = ParticipantHops.participant("mailto:status-\(i)@example.com", in: event)?.status
            XCTAssertEqual(got, s, "\(path): status \(s.eventKitName)", file: file, line: line)
            checked += 1
        }
        for (i, t) in ParticipantType.eventKitCases.enumerated() where hops.allSatisfy({ Self.expresses($0, type: t) }) {
            let got = ParticipantHops.participant("mailto:type-\(i)@example.com", in: event)?.type
            XCTAssertEqual(got, t, "\(path): type \(t.eventKitName)", file: file, line: line)
            checked += 1
        }
        let other = ParticipantHops.participant("mailto:other@example.com", in: event)
        if hops.allSatisfy({ Self.expresses($0, role: .other("X-MODERATOR")) }) {
            XCTAssertEqual(other?.role, .other("X-MODERATOR"), path, file: file, line: line)
            XCTAssertEqual(other?.status, .other("X-ON-HOLD"), path, file: file, line: line)
            XCTAssertEqual(other?.type, .other("X-VEHICLE"), path, file: file, line: line)
            checked += 1
        }
        return checked
    }

    func testEveryFormatWithAVocabularyIsCovered() {
        // ics, json, jsonl at least; each format that lands with a vocabulary joins the loops below.
        XCTAssertGreaterThanOrEqual(formats.count, 3)
    }

    func testEveryValueRoundTripsThroughEachFormat() throws {
        for format in formats {
            let checked = check(try ParticipantHops.hop(ParticipantHops.sampleEvent(), through: [format]), after: [format])
            // Formats with attendees at all say something; ICS and the JSONs say all but a few.
            if ["ics", "json", "jsonl", "csv", "jcal", "xcal"].contains(format.id) { XCTAssertGreaterThanOrEqual(checked, 15, format.id) }
        }
    }

    func testEveryValueGoesFromEachFormatToEveryOther() throws {
        for from in formats {
            for to in formats where to.id != from.id {
                _ = check(try ParticipantHops.hop(ParticipantHops.sampleEvent(), through: [from, to, from]), after: [from, to, from])
            }
        }
    }

    func testEveryWordOfEveryTableReadsAsAValueOfItsTable() {
        for v in StandardFormats.registry.vocabularies {
            // A word shared by several values (Outlook CSV's columns) reads as the first of them.
            for (value, word) in v.roles {
                XCTAssertEqual(v.role(for: word), v.roles.first { $0.1 == word }?.0, "\(v.formatID) \(word)")
                XCTAssertEqual(v.role(for: word.lowercased()), v.caseInsensitive ? v.role(for: word) : v.role(for: word.lowercased()))
                if v.word(for: value) == word { XCTAssertNotEqual(v.role(for: word), .other(word)) }
            }
            for (_, word) in v.statuses {
                XCTAssertEqual(v.status(for: word), v.statuses.first { $0.1 == word }?.0, "\(v.formatID) \(word)")
            }
            for (_, word) in v.types { XCTAssertEqual(v.type(for: word), v.types.first { $0.1 == word }?.0, "\(v.formatID) \(word)") }
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
