import CalendarModel
import Foundation
import TimeZones
import XCTest

/// Every spelling of a zone real files use resolves to today's IANA id, by the right rule.
final class TimeZoneResolverTests: XCTestCase {
    let resolver = TimeZoneResolver()

    /// `Fixtures/messy-tzids.tsv`: TZIDs collected from the corpus, with the zone each means.
    func testMessyRealWorldTZIDs() throws {
        let rows = try FixtureSupport.rows("messy-tzids.tsv")
        XCTAssertGreaterThanOrEqual(rows.count, 40)
        for row in rows {
            let (tzid, zone, step) = (row[0], row[1], row[2])
            let definition = row[3].isEmpty ? nil : try FixtureSupport.definition(row[3])
            var years: ClosedRange<Int>?
            if row.count > 4, !row[4].isEmpty {
                let bounds = row[4].split(separator: "-").compactMap { Int($0) }
                years = bounds[0]...bounds[1]
            }
            let resolution = resolver.resolve(tzid, definition: definition, years: years)
            XCTAssertEqual(resolution.zoneID ?? "", zone, "\(tzid): \(resolution.trace)")
            XCTAssertEqual(resolution.step.rawValue, step, "\(tzid): \(resolution.trace)")
            XCTAssertFalse(resolution.trace.isEmpty)
            if step == "vtimezone-rules" { XCTAssertNotNil(resolution.definitionRules, tzid) }
        }
    }

    /// Resolvers share their database's indexes (cities, Windows ids), built by whichever asks first: resolvers
    /// made on many threads at once over a fresh database, all asking at once, resolve every messy TZID by name
    /// (cities, display names, Windows ids) as one resolver alone does.
    func testResolversMadeOnManyThreadsOverOneDatabaseResolveAsOneDoes() throws {
        let names = try FixtureSupport.rows("messy-tzids.tsv").map { $0[0] }
            + ["custom_America/New_York", "(UTC+01:00) Amsterdam, Berlin", "(GMT-05:00) Gotham, New York", "Romance Standard Time"]
        let alone = TimeZoneResolver(database: TimeZoneDatabase(directory: "/usr/share/zoneinfo"))
        let expected = names.map { alone.resolveName($0) }
        let shared = TimeZoneDatabase(directory: "/usr/share/zoneinfo")
        let threads = 8
        // Each thread writes its own slot, as TimeZoneDatabaseTests' concurrent offsets do.
        let results = UnsafeMutableBufferPointer<[TimeZoneResolution]>.allocate(capacity: threads)
        results.initialize(repeating: [])
        defer {
            results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: threads) { slot in
            let resolver = TimeZoneResolver(database: shared)
            // Each thread starts at a different name, so that different indexes are built first.
            let start = slot * 3 % names.count
            var resolved = [TimeZoneResolution?](repeating: nil, count: names.count)
            for index in Array(names.indices[start...]) + Array(names.indices[..<start]) {
                resolved[index] = resolver.resolveName(names[index])
            }
            results[slot] = resolved.map { $0! }
        }
        for slot in 0..<threads {
            XCTAssertEqual(results[slot].map(\.zoneID), expected.map(\.zoneID), "thread \(slot)")
            XCTAssertEqual(results[slot].map(\.step), expected.map(\.step), "thread \(slot)")
        }
        XCTAssertEqual(expected.last?.zoneID, "Europe/Paris")
        XCTAssertEqual(expected[names.count - 4].zoneID, "America/New_York")
    }

    /// Every Windows id in CLDR's table, as ICU carries it, resolves to the table's zone.
    func testEveryWindowsIdICUMapsResolves() throws {
        let rows = WindowsZoneMapping.all
        let defaults = rows.filter { $0.region == "001" }
        XCTAssertGreaterThan(defaults.count, 130)
        for row in defaults {
            let resolution = resolver.resolve(row.windowsID)
            let expected = TimeZoneDatabase.system.currentIdentifier(for: row.zones[0])
            XCTAssertNotNil(expected, "\(row.zones[0]) is not in the system tz data")
            XCTAssertEqual(resolution.zoneID, expected, row.windowsID)
            // `UTC` is also a tz name, found before the Windows step.
            if !TimeZoneDatabase.system.contains(row.windowsID) { XCTAssertEqual(resolution.step, .windows, row.windowsID) }
            // The upper-cased spelling resolves too.
            XCTAssertEqual(resolver.resolve(row.windowsID.uppercased()).zoneID, expected, row.windowsID)
        }
    }

    /// With a region, a Windows id means that region's zone (CLDR's per-territory rows).
    func testWindowsIdsHonourTheRegion() throws {
        let canadian = TimeZoneResolver(region: "CA")
        XCTAssertEqual(canadian.resolve("Eastern Standard Time").zoneID, "America/Toronto")
        XCTAssertEqual(resolver.resolve("Eastern Standard Time").zoneID, "America/New_York")
        let row = try XCTUnwrap(WindowsZoneMapping.all.first { $0.windowsID == "W. Europe Standard Time" && $0.region == "CH" })
        XCTAssertEqual(TimeZoneResolver(region: "CH").resolve("W. Europe Standard Time").zoneID, row.zones[0])
    }

    func testIANAToWindowsForOutlookTargets() {
        XCTAssertEqual(resolver.windowsID(for: "Europe/Berlin"), "W. Europe Standard Time")
        XCTAssertEqual(resolver.windowsID(for: "Asia/Kolkata"), "India Standard Time")
        XCTAssertEqual(resolver.windowsID(for: "Europe/Kyiv"), "FLE Standard Time")
    }

    func testTraceNamesEveryStepTried() {
        let resolution = resolver.resolve("(GMT-05:00) Eastern Time (US & Canada)")
        XCTAssertEqual(resolution.step, .outlookDisplayName)
        XCTAssertEqual(resolution.trace.count, 4, "\(resolution.trace)")
        XCTAssertTrue(resolution.trace[0].contains("not an IANA id"))
        XCTAssertTrue(resolution.trace.last!.contains("Eastern Standard Time"))
    }

    func testCalendarDefaultForAMeaninglessNameWithoutDefinition() {
        let resolution = resolver.resolve("Customized Time Zone", definition: nil, calendarDefault: "Europe/Vienna")
        XCTAssertEqual(resolution.zoneID, "Europe/Vienna")
        XCTAssertEqual(resolution.step, .calendarDefault)
        // A definition, when there is one, decides instead.
        let eastern = try? FixtureSupport.definition("eastern-pre-2007")
        let matched = resolver.resolve("Customized Time Zone", definition: eastern, calendarDefault: "Europe/Vienna", years: 2005...2005)
        XCTAssertEqual(matched.zoneID, "America/New_York")
    }

    /// A definition that only agrees with a zone in some years is not that zone in others:
    /// the pre-2007 US rules are New York in 2005 but nobody in 2010.
    func testDefinitionsMatchOnlyOverTheYearsTheyAgree() throws {
        let eastern = try FixtureSupport.definition("eastern-pre-2007")
        XCTAssertEqual(resolver.resolve("Eastern", definition: eastern, years: 2005...2005).zoneID, "America/New_York")
        let later = resolver.resolve("Eastern", definition: eastern, years: 2010...2010)
        XCTAssertNil(later.zoneID)
        XCTAssertEqual(later.step, .definitionRules)
    }
}
