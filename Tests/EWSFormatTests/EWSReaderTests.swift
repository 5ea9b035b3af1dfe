import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import Recurrence
import TimeZones
import XCTest
import XMLSupport

@testable import EWSFormat

/// What the golden pairs cannot show on their own: expansion of a series across a DST change,
/// a folder of pages as one calendar, and zones built from EWS's own definitions agreeing with
/// the tz database.
final class EWSReaderTests: XCTestCase {
    let runner = CommandRunner(directory: EWSGoldenTests.fixtures)

    func starts(_ arguments: [String]) throws -> [String] {
        let run = try runner.calport(arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART;") }
    }

    /// A daily series in Pacific time across 2025-03-09: every occurrence stays at 09:00 wall
    /// time; the deleted one (09 March) is gone and the modified one (10 March) moved to 11:00.
    func testSeriesCrossingDSTKeepsItsWallClockTime() throws {
        XCTAssertEqual(
            try starts(["convert", "valid/dst-series-keeps-wall-clock-pacific.xml", "-t", "ics", "--expand"]),
            [
                "DTSTART;TZID=America/Los_Angeles:20250307T090000", "DTSTART;TZID=America/Los_Angeles:20250308T090000",
                "DTSTART;TZID=America/Los_Angeles:20250310T110000", "DTSTART;TZID=America/Los_Angeles:20250311T090000",
                "DTSTART;TZID=America/Los_Angeles:20250312T090000",
            ])
        // The sample: weekly in Berlin across 2025-03-30, 25 March deleted, 1 April moved (its own
        // item), 8 April moved (start and end only).
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/exchange-mailbox.xml").path
        XCTAssertEqual(
            try starts(["convert", sample, "-t", "ics", "--expand"]),
            [
                "DTSTART;TZID=Europe/Berlin:20250318T090000", "DTSTART;TZID=Europe/Berlin:20250402T100000",
                "DTSTART;TZID=Europe/Berlin:20250408T140000", "DTSTART;TZID=Europe/Berlin:20250415T090000",
            ])
    }

    func testAFolderOfPagesIsOneCalendar() throws {
        let run = try runner.calport(["convert", "finditem-pages", "-t", "ics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "BEGIN:VCALENDAR").count - 1, 1)
        XCTAssertTrue(run.stdout.contains("UID:page-1@contoso.example"))
        XCTAssertTrue(run.stdout.contains("UID:page-2@contoso.example"))
    }

    /// An Id no table knows, with its Periods and Transitions: a VTIMEZONE built from them,
    /// and the item's times on it (06:00 there, UTC-3 until the fourth Sunday of October).
    func testUnknownZoneIdWithDefinitionBecomesAVTimeZone() throws {
        let url = EWSGoldenTests.fixtures.appendingPathComponent("valid/unknown-zone-id-timezonedefinition-builds-vtimezone.xml")
        var reader = EWSFormat().makeReader(
            source: MemoryByteSource([UInt8](try Data(contentsOf: url))), options: ReadOptions(sourceName: "t"), log: DiagnosticLog())
        var zone: Component?
        var event: Event?
        while let element = try reader.next() {
            if case .entry(.timeZone(let z), _) = element { zone = z }
            if case .entry(.event(let e), _) = element { event = e }
        }
        let rules = try XCTUnwrap(zone.flatMap(VTimeZoneRules.init))
        XCTAssertEqual(rules.identifier, "Contoso Harbour Standard Time")
        XCTAssertEqual(rules.offset(utcSeconds: Self.instant(2025, 10, 20, 9)), -3 * 3600)
        XCTAssertEqual(rules.offset(utcSeconds: Self.instant(2025, 10, 27, 9)), -2 * 3600)
        XCTAssertEqual(rules.offset(utcSeconds: Self.instant(2026, 4, 1, 9)), -3 * 3600)
        XCTAssertEqual(event?.item.start?.reference, .zone("Contoso Harbour Standard Time"))
        XCTAssertEqual(event?.item.start?.basicISO, "20251020T060000")
    }

    /// Numbers in a zone's definition that no zone has (found by reading the EWS reader for overflows after the
    /// JSCalendar fuzz finding): an hour of 17 digits in an Exchange 2007 Time, a BaseOffset or Bias of 10^23 days,
    /// an Occurrence or Day far out of range. Each trapped or flowed into arithmetic; now the definition is not
    /// read, with the reason, and the item is still read.
    func testZoneDefinitionsWithOutOfRangeNumbersAreRefusedWithTheirReason() throws {
        func warnings(_ fixture: String, _ replacing: String, _ with: String) throws -> [String] {
            let text = try String(contentsOf: EWSGoldenTests.fixtures.appendingPathComponent("valid/\(fixture).xml"), encoding: .utf8)
            XCTAssertTrue(text.contains(replacing), replacing)
            let log = DiagnosticLog()
            var reader = EWSFormat().makeReader(
                source: MemoryByteSource(Array(text.replacingOccurrences(of: replacing, with: with).utf8)),
                options: ReadOptions(sourceName: "z.xml"), log: log)
            var events = 0
            while let element = try reader.next() { if case .entry(.event, _) = element { events += 1 } }
            XCTAssertEqual(events, 1, with)
            return log.diagnostics.map(\.description)
        }
        let meeting = "meetingtimezone-exchange2007-offsetless-times"
        let definition = "unknown-zone-id-timezonedefinition-builds-vtimezone"
        let baseOffset = "<t:BaseOffset>PT8H</t:BaseOffset>"
        // (fixture, text, replaced by, the reason given)
        let cases = [
            (
                meeting, "<t:Time>02:00:00</t:Time>", "<t:Time>99999999999999999:00:00</t:Time>",
                "the Standard Time '99999999999999999:00:00' is not a time of day"
            ),
            (meeting, baseOffset, "<t:BaseOffset>P99999999999999999999999D</t:BaseOffset>", "BaseOffset is not a duration"),
            (meeting, baseOffset, "<t:BaseOffset>PT9223372036854775H</t:BaseOffset>", "BaseOffset is not a duration"),
            (meeting, baseOffset, "<t:BaseOffset>PT25H</t:BaseOffset>", "BaseOffset is not within a day"),
            (definition, #"Bias="PT3H""#, #"Bias="P99999999999999999999999D""#, "a Period lacks its Id or Bias"),
            (definition, #"Bias="PT3H""#, #"Bias="-PT24H""#, "the Bias of Period 'trule:Contoso/Standard' is not within a day"),
            (definition, "<t:TimeOffset>PT2H</t:TimeOffset>", "<t:TimeOffset>P4000D</t:TimeOffset>", "a TimeOffset is not within a day"),
            (
                definition, "<t:Occurrence>4</t:Occurrence>", "<t:Occurrence>9223372036854775807</t:Occurrence>",
                "a RecurringDayTransition lacks Month, DayOfWeek or an Occurrence of 1 to 5"
            ),
        ]
        for (fixture, text, replacement, reason) in cases {
            let found = try warnings(fixture, text, replacement)
            XCTAssertTrue(found.contains { $0.contains("cannot be read: \(reason)") }, "\(replacement): \(found)")
        }
        XCTAssertEqual(try warnings(meeting, "<t:Time>02:00:00</t:Time>", "<t:Time>24:00:00</t:Time>"), [])
    }

    /// Microsoft's documented Pacific definition (two TransitionsGroups, the 2007 switch) and an
    /// Exchange 2007 MeetingTimeZone, built into VTIMEZONEs, give Los Angeles' offsets every six
    /// hours from 2005 to 2012.
    func testBuiltDefinitionsAgreeWithTheTZDatabase() throws {
        let docs = RoundTripCheck.corpusRoot.appendingPathComponent(
            "ews-docs/extracted/how-to-create-a-recurring-series-by-using-ews-in-exchange/01.xml")
        let definition = try XCTUnwrap(try Self.element("TimeZoneDefinition", in: Data(contentsOf: docs)))
        let meeting = try XCTUnwrap(
            try Self.element(
                "MeetingTimeZone",
                in: Data(
                    contentsOf: EWSGoldenTests.fixtures.appendingPathComponent("valid/meetingtimezone-exchange2007-offsetless-times.xml"))))
        let clock = TimeZoneDatabaseClock.shared
        for (component, from) in [
            (try EWSTimeZones.vtimezone(definition: definition, tzid: "Test Pacific"), 2005),
            (try EWSTimeZones.vtimezone(meetingTimeZone: meeting, tzid: "Test 2007"), 2007),
        ] {
            let rules = try XCTUnwrap(VTimeZoneRules(component))
            var checked = 0
            var t = Self.instant(from, 1, 1, 0)
            while t < Self.instant(2013, 1, 1, 0) {
                XCTAssertEqual(rules.offset(utcSeconds: t), clock.offset(zone: "America/Los_Angeles", utcSeconds: t), "at \(t)")
                t += 6 * 3600
                checked += 1
            }
            XCTAssertGreaterThan(checked, 8000)
        }
    }

    static func instant(_ y: Int, _ m: Int, _ d: Int, _ h: Int) -> Int {
        CalendarDate(year: y, month: m, day: d).daysSinceEpoch * 86_400 + h * 3600
    }

    static func element(_ local: String, in data: Data) throws -> XMLElement? {
        let bytes = [UInt8](data)
        var offset = 0
        let xml = try XMLPullReader(name: local) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n])) }
            offset += n
            return n
        }
        while let event = try xml.next() {
            if case .start(let name, let attributes) = event, name.local == local {
                return try xml.readElement(start: name, attributes: attributes)
            }
        }
        return nil
    }
}
