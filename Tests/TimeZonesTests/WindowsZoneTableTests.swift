import CalendarModel
import CalendarTestSupport
import Foundation
import TimeZones
import XCTest

/// calport's Windows zone table is current CLDR's: every Windows name resolves to a zone whose
/// wall clock in 2026 is the one CLDR's zone keeps, by an oracle that shares no code with calport.
final class WindowsZoneTableTests: XCTestCase {
    let resolver = TimeZoneResolver()

    /// Local noon on 15 January and 15 July 2026, as wall seconds.
    let wallTimes = [1, 7].map { CalendarDate(year: 2026, month: $0, day: 15).daysSinceEpoch * 86_400 + 12 * 3600 }

    /// Every territory-001 Windows name of current CLDR (tzlocal's snapshot, read by python),
    /// resolved by calport, names the instant python's zoneinfo gives CLDR's zone.
    func testEveryCLDRWindowsNameGivesTheRightInstantsIn2026() throws {
        let rows = try PythonOracle.run("windows_zone_instants.py").split(separator: "\n").map {
            $0.split(separator: "\t").map(String.init)
        }
        XCTAssertGreaterThanOrEqual(rows.count, 142)
        for row in rows {
            let (windows, cldrZone) = (row[0], row[1])
            let expected = [Int(row[2])!, Int(row[3])!]
            // (`UTC` is also a tz name, and resolves as one, to the same zone.)
            let resolution = resolver.resolveName(windows)
            let zone = try XCTUnwrap(resolution.zoneID, windows)
            let compiled = try XCTUnwrap(resolver.database.zone(zone), zone)
            let instants = wallTimes.map { compiled.utcSeconds(wallSeconds: $0) }
            XCTAssertEqual(instants, expected, "\(windows) → \(zone) (CLDR: \(cldrZone))")
        }
        let tableNames = Set(WindowsZoneMapping.all.filter { $0.region == "001" }.map(\.windowsID))
        XCTAssertEqual(tableNames, Set(rows.map { $0[0] }), "the table is not current CLDR's: run scripts/generate_windows_zones.py")
    }

    /// The two names the issue found an hour off under ICU 72's table.
    func testNamesICU72MapsToZonesThatMovedResolveToCLDRsCurrentZone() throws {
        for (windows, zone, offset) in [
            ("Central Asia Standard Time", "Asia/Bishkek", 6 * 3600), ("Mountain Standard Time (Mexico)", "America/Mazatlan", -7 * 3600),
        ] {
            XCTAssertEqual(resolver.resolveName(windows).zoneID, zone)
            for wall in wallTimes {
                XCTAssertEqual(resolver.database.utcSeconds(zone: zone, wallSeconds: wall), wall - offset, windows)
            }
            XCTAssertEqual(resolver.windowsID(for: zone), windows)
        }
        // ICU's own table is the old one: the fallback, not the answer.
        XCTAssertEqual(
            WindowsZoneMapping.icu.first { $0.windowsID == "Central Asia Standard Time" && $0.region == "001" }?.zones, ["Asia/Almaty"])
    }

    /// IANA → Windows, as EWS and Graph writers ask: every zone CLDR lists (and the aliases
    /// tzlocal adds) gives CLDR's Windows name.
    func testEveryZoneCLDRListsGivesItsWindowsName() throws {
        let rows = try PythonOracle.run("windows_zone_instants.py", ["--zones"]).split(separator: "\n").map {
            $0.split(separator: "\t").map(String.init)
        }
        XCTAssertGreaterThan(rows.count, 400)
        var checked = 0
        // tzlocal maps the old POSIX-style names (CET, EET, MET, WET) through the links today's
        // tz data makes of them; this machine's tz build keeps them zones of their own, which
        // CLDR does not list.
        for row in rows where resolver.database.currentIdentifier(for: row[0]) != nil && row[0].contains("/") {
            XCTAssertEqual(resolver.windowsID(for: row[0]), row[1], row[0])
            checked += 1
        }
        XCTAssertGreaterThan(checked, 400)
    }

    /// A region steers a Windows name to that region's zone, from the current table.
    func testRegionPicksTheTerritorysZone() {
        XCTAssertEqual(TimeZoneResolver(region: "CA").resolveName("Central Standard Time").zoneID, "America/Rankin_Inlet")
        XCTAssertEqual(TimeZoneResolver(region: "US").resolveName("Central Standard Time").zoneID, "America/Chicago")
        XCTAssertEqual(TimeZoneResolver(region: "KG").resolveName("Central Asia Standard Time").zoneID, "Asia/Bishkek")
        XCTAssertEqual(TimeZoneResolver(region: "CN").resolveName("Central Asia Standard Time").zoneID, "Asia/Urumqi")
        // A region without a row of its own falls back to 001.
        XCTAssertEqual(TimeZoneResolver(region: "FR").resolveName("Central Asia Standard Time").zoneID, "Asia/Bishkek")
    }

    func testVersionsNameBothTables() {
        let versions = TimeZoneDataVersions()
        XCTAssertTrue(versions.windowsZones.hasPrefix("47"), versions.windowsZones)
        XCTAssertEqual(versions.windowsZoneCount, 142)
        XCTAssertEqual(versions.icuCLDR.map { $0.hasPrefix("42") }, true, versions.icuCLDR ?? "nil")
    }
}
