import CalendarTestSupport
import CalendarModel
import Conversion
import Foundation
import ICSFormat
import XCTest

/// `--map FILE` adds or overrides participant words for one run, carried in ReadOptions and
/// WriteOptions: the ICS and JSON readers and writers honour it, and bad files say where.
final class VocabularyMapTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func overrides(_ json: String) throws -> VocabularyOverrides {
        try VocabularyMapFile.parse(Data(json.utf8), name: "map.json")
    }

    let moderated = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example//Moderated//EN\r
        BEGIN:VEVENT\r
        UID:panel-1\r
        DTSTART:20240517T150000Z\r
        SUMMARY:Panel\r
        ATTENDEE;ROLE=X-MODERATOR;PARTSTAT=X-ON-HOLD;CUTYPE=X-VEHICLE:mailto:mod@example.com\r
        ATTENDEE;ROLE=REQ-PARTICIPANT:mailto:guest@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func read(_ url: URL, overrides: VocabularyOverrides) throws -> [Participant] {
        var reader = try Converter().makeReader(
            name: url.path, source: try FileByteSource(path: url.path),
            request: ConversionRequest(inputs: [url.path], vocabularyOverrides: overrides), log: DiagnosticLog())
        var out: [Participant] = []
        while let e = try reader.next() { if case .entry(.event(let ev), _) = e { out += ev.item.attendees } }
        return out
    }

    func testAMappedICSWordReadsAsItsEventKitValue() throws {
        let input = try write("moderated.ics", moderated)
        XCTAssertEqual(try read(input, overrides: .none).first?.role, .other("X-MODERATOR"))
        let map = try overrides(
            #"{"roles": {"X-MODERATOR": "chair"}, "statuses": {"x-on-hold": "Tentative"}, "types": {"X-VEHICLE": "resource"}}"#)
        let mod = try read(input, overrides: map).first
        XCTAssertEqual(mod?.role, .chair)
        // ICS words compare case-insensitively, so the map's spelling need not match.
        XCTAssertEqual(mod?.status, .tentative)
        XCTAssertEqual(mod?.type, .resource)
    }

    func testAWordForOneFormatLeavesTheOthersAlone() throws {
        let map = try overrides(#"{"formats": {"json": {"roles": {"moderator": "chair"}}}}"#)
        let ics = StandardFormats.registry.format(id: "ics")!.vocabulary(with: map)!
        let json = StandardFormats.registry.format(id: "json")!.vocabulary(with: map)!
        XCTAssertEqual(json.role(for: "moderator"), .chair)
        XCTAssertEqual(ics.role(for: "moderator"), .other("moderator"))
    }

    func testCSVReadersHonourTheMapToo() throws {
        // A site whose Outlook export puts its chairs in the required attendees' column.
        let map = try overrides(#"{"formats": {"csv-outlook": {"roles": {"Required Attendees": "chair"}}}}"#)
        let outlook = try XCTUnwrap(StandardFormats.registry.format(id: "csv-outlook"))
        var event = Event(item: CalendarItem(uid: "csv-1", title: "Board", start: .day(2024, 5, 17)))
        event.item.attendees = [Participant(name: "Ada", url: "mailto:ada@example.com", role: .required)]
        XCTAssertEqual(try ParticipantHops.hop(event, through: [outlook]).item.attendees.first?.role, .required)
        XCTAssertEqual(try ParticipantHops.hop(event, through: [outlook], overrides: map).item.attendees.first?.role, .chair)
    }

    func testEveryFormatWithWordsReadsAMappedWord() throws {
        // A source's private word, written as it was, read back through the map as EventKit's.
        let map = try overrides(#"{"statuses": {"maybe": "tentative"}, "types": {"x-car": "resource"}}"#)
        var event = Event(item: CalendarItem(uid: "map-1", title: "Drive", start: .day(2024, 5, 17)))
        event.item.attendees = [Participant(url: "mailto:ada@example.com", status: .other("maybe"), type: .other("x-car"))]
        for format in StandardFormats.registry.formats where format.vocabulary?.keepsUnknownWords == true {
            let plain = try ParticipantHops.hop(event, through: [format]).item.attendees.first
            XCTAssertEqual(plain?.status, .other("maybe"), format.id)
            let mapped = try ParticipantHops.hop(event, through: [format], readOverrides: map).item.attendees.first
            XCTAssertEqual(mapped?.status, .tentative, format.id)
            XCTAssertEqual(mapped?.type, .resource, format.id)
        }
    }

    func testAnOverriddenWordStopsMeaningWhatItMeant() throws {
        // A site whose CHAIR means an optional guest: CHAIR now reads as optional, and a chair
        // has no ICS word left, so it is not written rather than written as something else.
        let map = try overrides(#"{"formats": {"ics": {"roles": {"CHAIR": "optional"}}}}"#)
        let v = StandardFormats.registry.format(id: "ics")!.vocabulary(with: map)!
        XCTAssertEqual(v.role(for: "CHAIR"), .optional)
        XCTAssertEqual(v.word(for: ParticipantRole.optional), "OPT-PARTICIPANT")
        XCTAssertNil(v.word(for: ParticipantRole.chair))
    }

    func testConvertingWithAMapWritesTheTargetsWordsForTheMappedValues() throws {
        let input = try write("moderated.ics", moderated)
        let mapFile = try write("map.json", #"{"roles": {"X-MODERATOR": "chair"}, "statuses": {"X-ON-HOLD": "tentative"}}"#)
        let run = try CommandRunner(directory: directory).calport(["convert", input.path, "-t", "json", "--map", mapFile.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stdout.contains(
                #""url":"mailto:mod@example.com","participantRole":"chair","participantStatus":"tentative","participantType":"X-VEHICLE""#),
            run.stdout)
        // Only the word the map does not name is reported.
        XCTAssertEqual(
            run.stderr,
            "\(input.path):4: warning: participant type 'X-VEHICLE' is in no vocabulary; kept as written (give it a meaning with --map FILE)\n"
        )
        // And a JSON word mapped for json reads back as its value.
        let jsonIn = try write(
            "in.json", run.stdout.replacingOccurrences(of: #""participantRole":"chair""#, with: #""participantRole":"moderator""#))
        let jsonMap = try write("json-map.json", #"{"formats": {"json": {"roles": {"moderator": "chair"}}}}"#)
        let back = try CommandRunner(directory: directory).calport(["convert", jsonIn.path, "-t", "ics", "--map", jsonMap.path])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(
            back.stdout.replacingOccurrences(of: "\r\n ", with: "").contains(
                "ATTENDEE;CUTYPE=X-VEHICLE;ROLE=CHAIR;PARTSTAT=TENTATIVE:mailto:mod@example.com"), back.stdout)
    }

    func testBadMapFilesSayWhereAndWhy() throws {
        func message(_ json: String) -> String? {
            do {
                _ = try overrides(json)
                return nil
            } catch let e as CalendarError {
                return e.description
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            message(#"{"roles": {"X-MODERATOR": "boss"}}"#),
            "map.json:/roles/X-MODERATOR: error: 'boss' is not one of unknown, required, optional, chair, nonParticipant")
        XCTAssertEqual(
            message(#"{"formats": {"vcard": {}}}"#), "map.json:/formats/vcard: error: unknown format id 'vcard' (see `calport formats`)")
        XCTAssertEqual(message(#"{"role": {}}"#), "map.json:/role: error: unknown member; expected formats, roles, statuses, types")
        XCTAssertEqual(message(#"{"roles": {"X": 1}}"#), "map.json:/roles/X: error: expected an EventKit name")
        XCTAssertEqual(message("[1]"), "map.json:/: error: expected an object")
        XCTAssertNotNil(message("{"))
        let run = try CommandRunner(directory: directory).calport(["formats", "--vocabulary", "--map", "missing.json"])
        XCTAssertEqual(run.status, 66)
        XCTAssertEqual(run.stderr, "missing.json: error: cannot read the vocabulary map\n")
    }
}
