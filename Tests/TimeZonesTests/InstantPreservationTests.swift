import CalendarModel
import Conversion
import Foundation
import TimeZones
import XCTest

/// Converting real-looking files keeps every instant: Windows ids, Outlook names, custom
/// VTIMEZONEs, DST gaps and repeats, zones whose rules changed recently. Expected instants
/// come from `Fixtures/files/*.expected.tsv` (python3 zoneinfo); keep-mode output is checked
/// with Foundation's `TimeZone`, not calport's code.
final class InstantPreservationTests: XCTestCase {
    static let files = ["windows-ids", "custom-vtimezones", "dst-edges", "forward-reference"]

    func expected(_ name: String) throws -> [String: (Int, Int)] {
        var result: [String: (Int, Int)] = [:]
        for row in try FixtureSupport.rows("files/\(name).expected.tsv") {
            result[row[0]] = (FixtureSupport.seconds(row[1]), FixtureSupport.seconds(row[2]))
        }
        return result
    }

    func testUTCOutputHoldsTheExpectedInstants() throws {
        for name in Self.files {
            let expected = try expected(name)
            let output = try FixtureSupport.convert("files/\(name).ics", timeZones: TimeZoneOptions(output: .utc))
            let events = FixtureSupport.events(output.elements)
            XCTAssertEqual(Set(events.keys), Set(expected.keys), name)
            for (uid, (start, end)) in expected {
                let event = try XCTUnwrap(events[uid], uid)
                XCTAssertEqual(event.start?.reference, .utc, uid)
                XCTAssertEqual(event.end?.reference, .utc, uid)
                XCTAssertEqual(event.start?.wallSecondsSinceEpoch, start, "\(name) \(uid) start")
                XCTAssertEqual(event.end?.wallSecondsSinceEpoch, end, "\(name) \(uid) end")
            }
        }
    }

    /// `--tz keep` and `--tz utc` describe the same instants: keep's zoned times, read by
    /// Foundation, land on the UTC output's instants.
    func testKeepOutputDescribesTheSameInstantsAsUTCOutput() throws {
        for name in Self.files {
            let expected = try expected(name)
            let kept = FixtureSupport.events(
                try FixtureSupport.convert("files/\(name).ics", timeZones: TimeZoneOptions(output: .keep)).elements)
            let utc = FixtureSupport.events(
                try FixtureSupport.convert("files/\(name).ics", timeZones: TimeZoneOptions(output: .utc)).elements)
            for (uid, (start, end)) in expected {
                let event = try XCTUnwrap(kept[uid], uid)
                for (value, instant) in [(event.start, start), (event.end, end)] {
                    let value = try XCTUnwrap(value, uid)
                    if case .zone(let id) = value.reference {
                        XCTAssertNotNil(TimeZone(identifier: id), "\(uid): \(id) is not an IANA id")
                    }
                    XCTAssertEqual(FixtureSupport.foundationInstant(value), instant, "\(name) \(uid) \(value)")
                }
                XCTAssertEqual(utc[uid]?.start?.wallSecondsSinceEpoch, FixtureSupport.foundationInstant(event.start!), uid)
            }
        }
    }

    func testKeepOutputNamesZonesByTodaysIANAIdAndDefinesEach() throws {
        let output = try FixtureSupport.convert("files/windows-ids.ics", timeZones: TimeZoneOptions(output: .keep))
        var defined: [String] = []
        var used: Set<String> = []
        for element in output.elements {
            switch element {
            case .entry(.timeZone(let definition), _):
                if case .text(let names)? = definition.property("TZID")?.value { defined.append(names[0]) }
            case .entry(let entry, _):
                entry.forEachDateTime { _, value in
                    guard let zone = value.reference.zoneIdentifier else { return }
                    XCTAssertTrue(defined.contains(zone), "\(zone) used before its VTIMEZONE")
                    used.insert(zone)
                }
            default: break
            }
        }
        XCTAssertEqual(Set(defined), used)
        XCTAssertEqual(defined.count, used.count, "one VTIMEZONE per zone")
        XCTAssertEqual(
            used,
            [
                "Europe/Berlin", "America/New_York", "America/Mexico_City", "Asia/Tokyo", "Asia/Kolkata", "Australia/Sydney",
                "America/Los_Angeles", "Europe/London",
            ])
        let text = String(decoding: output.bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("Standard Time"), "Windows names left in the output")
    }

    func testConversionToAnotherZoneKeepsInstants() throws {
        for name in Self.files {
            let expected = try expected(name)
            let output = try FixtureSupport.convert("files/\(name).ics", timeZones: TimeZoneOptions(output: .zone("Asia/Tokyo")))
            for (uid, event) in FixtureSupport.events(output.elements) {
                XCTAssertEqual(event.start?.reference, .zone("Asia/Tokyo"), uid)
                XCTAssertEqual(FixtureSupport.foundationInstant(event.start!), expected[uid]?.0, uid)
                XCTAssertEqual(FixtureSupport.foundationInstant(event.end!), expected[uid]?.1, uid)
            }
        }
    }

    func testWindowsStyleWritesWindowsIdsWithMatchingDefinitions() throws {
        let expected = try expected("dst-edges")
        let output = try FixtureSupport.convert("files/dst-edges.ics", timeZones: TimeZoneOptions(output: .keep, tzidStyle: .windows))
        let windowsToIANA = Dictionary(
            WindowsZoneMapping.all.filter { $0.region == "001" }.map { ($0.windowsID, $0.zones[0]) }, uniquingKeysWith: { a, _ in a })
        var defined: Set<String> = []
        for case .entry(.timeZone(let definition), _) in output.elements {
            if case .text(let names)? = definition.property("TZID")?.value { defined.insert(names[0]) }
        }
        for (uid, event) in FixtureSupport.events(output.elements) {
            guard case .zone(let windows) = event.start!.reference else { continue }
            XCTAssertTrue(defined.contains(windows), windows)
            let iana = try XCTUnwrap(windowsToIANA[windows], "\(uid): \(windows) is not a Windows id")
            var start = event.start!
            start.reference = .zone(iana)
            XCTAssertEqual(FixtureSupport.foundationInstant(start), expected[uid]?.0, uid)
        }
        XCTAssertTrue(defined.contains("Eastern Standard Time"))
    }

    func testFloatingUntilUnderAZonedStartBecomesUTC() throws {
        for options in [TimeZoneOptions(output: .keep), TimeZoneOptions(output: .utc)] {
            let output = try FixtureSupport.convert("files/custom-vtimezones.ics", timeZones: options)
            let event = try XCTUnwrap(FixtureSupport.events(output.elements)["c-recurring-until"])
            // UNTIL 2024-05-01 09:00 in the file's Central European zone is 07:00 UTC.
            XCTAssertEqual(
                event.recurrenceRules.first?.end,
                .until(
                    CalendarDateTime(
                        date: CalendarDate(year: 2024, month: 5, day: 1), time: TimeOfDay(hour: 7, minute: 0, second: 0), reference: .utc)))
        }
    }

    func testRepairsAndUnknownZonesAreReportedWithTheirLine() throws {
        let output = try FixtureSupport.convert("files/custom-vtimezones.ics", timeZones: TimeZoneOptions(output: .keep))
        let messages = output.log.diagnostics.map(\.description)
        XCTAssertTrue(messages.contains { $0.contains("TZID \"Customized Time Zone\" read as") && $0.contains(".ics:") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.contains("TZID \"Nowhere/Odd\" matches no known zone") }, "\(messages)")
        XCTAssertTrue(output.log.diagnostics.allSatisfy { $0.line != nil && $0.line! > 0 })
    }

    func testUnknownTargetZoneIsAUsageError() {
        XCTAssertThrowsError(
            try FixtureSupport.convert("files/dst-edges.ics", timeZones: TimeZoneOptions(output: .zone("Mars/Olympus_Mons")))
        ) {
            XCTAssertEqual(($0 as? CalendarError)?.kind, .usage)
        }
    }
}
