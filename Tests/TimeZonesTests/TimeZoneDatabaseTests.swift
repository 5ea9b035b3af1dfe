import CalendarModel
import Foundation
import TimeZones
import XCTest

/// Offsets come from the system's current tz data (2025b here), not ICU's 2022e copy.
final class TimeZoneDatabaseTests: XCTestCase {
    let database = TimeZoneDatabase.system

    /// Mexico City, Cairo, Almaty, Nuuk and Asunción after their recent rule changes, DST edges,
    /// far-future and historical times: instants as python3's zoneinfo computed them.
    func testWallTimesGiveTheInstantsCurrentTzDataGives() throws {
        let rows = try FixtureSupport.rows("instants/current-rules.tsv")
        XCTAssertGreaterThan(rows.count, 50)
        for row in rows {
            let (zone, wall, expected) = (row[0], FixtureSupport.seconds(row[1]), FixtureSupport.seconds(row[2]))
            XCTAssertEqual(database.utcSeconds(zone: zone, wallSeconds: wall), expected, "\(zone) \(row[1])")
        }
    }

    func testOffsetsAfterTheRecentRuleChanges() {
        let july2024 = FixtureSupport.seconds("20240715T120000Z")
        // Known offsets from the tz changelog: Mexico without DST since 2022f, Egypt's DST back
        // in 2023c, Kazakhstan on +05 since 2024a.
        XCTAssertEqual(database.offset(zone: "America/Mexico_City", utcSeconds: july2024), -6 * 3600)
        XCTAssertEqual(database.offset(zone: "Africa/Cairo", utcSeconds: july2024), 3 * 3600)
        XCTAssertEqual(database.offset(zone: "Asia/Almaty", utcSeconds: july2024), 5 * 3600)
        // Paraguay: -04 in its winter of 2024, then -03 all year from October 2024 (2024b).
        XCTAssertEqual(database.offset(zone: "America/Asuncion", utcSeconds: july2024), -4 * 3600)
        XCTAssertEqual(database.offset(zone: "America/Asuncion", utcSeconds: july2024 + 365 * 86_400), -3 * 3600)
    }

    func testTransitionsFollowTheNewRules() throws {
        let from2023 = FixtureSupport.seconds("20230101T000000Z")
        let to2031 = FixtureSupport.seconds("20310101T000000Z")
        XCTAssertEqual(database.transitions(zone: "America/Mexico_City", from: from2023, to: to2031), [])
        let almaty = try XCTUnwrap(database.transitions(zone: "Asia/Almaty", from: from2023, to: to2031))
        XCTAssertEqual(almaty.map(\.utcSeconds), [FixtureSupport.seconds("20240229T180000Z")])
        XCTAssertEqual(almaty.first?.offsetAfter, 5 * 3600)
        let cairo = try XCTUnwrap(
            database.transitions(
                zone: "Africa/Cairo", from: FixtureSupport.seconds("20240101T000000Z"), to: FixtureSupport.seconds("20250101T000000Z")))
        // Last Friday of April 00:00 EET and last Thursday of October 24:00 EEST.
        XCTAssertEqual(cairo.map(\.utcSeconds), [FixtureSupport.seconds("20240425T220000Z"), FixtureSupport.seconds("20241031T210000Z")])
        // Beyond the listed transitions the POSIX footer continues: New York in 2090.
        let newYork = try XCTUnwrap(
            database.transitions(
                zone: "America/New_York", from: FixtureSupport.seconds("20900101T000000Z"), to: FixtureSupport.seconds("20910101T000000Z")))
        XCTAssertEqual(newYork.map(\.utcSeconds), [FixtureSupport.seconds("20900312T070000Z"), FixtureSupport.seconds("20901105T060000Z")])
    }

    func testVersionIsTheSystemDataTheFixtureWasMadeWith() throws {
        let header = try String(contentsOf: FixtureSupport.root.appendingPathComponent("instants/current-rules.tsv"), encoding: .utf8)
            .split(separator: "\n")[0]
        let version = try XCTUnwrap(database.version)
        XCTAssertTrue(header.contains("tz data \(version))"), "fixture made with other tz data than \(version): regenerate it")
    }

    func testTodaysSpellingOfAliases() {
        XCTAssertEqual(database.currentIdentifier(for: "Asia/Calcutta"), "Asia/Kolkata")
        XCTAssertEqual(database.currentIdentifier(for: "US/Eastern"), "America/New_York")
        XCTAssertEqual(database.currentIdentifier(for: "Europe/Kiev"), "Europe/Kyiv")
        XCTAssertEqual(database.currentIdentifier(for: "Europe/Amsterdam"), "Europe/Amsterdam")
        XCTAssertEqual(database.currentIdentifier(for: "europe/PARIS"), "Europe/Paris")
        XCTAssertNil(database.currentIdentifier(for: "Nowhere/Middle"))
    }

    func testUnknownZonesAndPathsOutsideTheDataGiveNothing() {
        XCTAssertNil(database.offset(zone: "Nowhere/Middle", utcSeconds: 0))
        XCTAssertNil(database.offset(zone: "../../../etc/passwd", utcSeconds: 0))
        XCTAssertNil(database.utcSeconds(zone: "/etc/localtime", wallSeconds: 0))
    }

    func testConcurrentUseGivesTheSameAnswers() {
        let zones = ["America/New_York", "Europe/Berlin", "Asia/Almaty", "Africa/Cairo", "Australia/Lord_Howe", "America/Sao_Paulo"]
        let fresh = TimeZoneDatabase(directory: "/usr/share/zoneinfo")
        let instants = stride(from: 0, to: 2_000_000_000, by: 7_654_321).map { $0 }
        let expected = zones.map { zone in instants.map { database.offset(zone: zone, utcSeconds: $0) } }
        let results = UnsafeMutableBufferPointer<[Int?]>.allocate(capacity: zones.count * 4)
        results.initialize(repeating: [])
        defer {
            // The arrays in the buffer are freed too (LeakSanitizer reported them).
            results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: zones.count * 4) { i in
            let zone = zones[i % zones.count]
            results[i] = instants.map { fresh.offset(zone: zone, utcSeconds: $0) }
        }
        for i in 0..<(zones.count * 4) { XCTAssertEqual(results[i], expected[i % zones.count]) }
    }
}

/// A zoneinfo directory without tzdata.zi (some distributions leave it out) still works.
final class TimeZoneDatabaseWithoutIndexTests: XCTestCase {
    func testZonesAreReadByFileName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-zoneinfo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("America"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "/usr/share/zoneinfo/America/New_York", toPath: directory.appendingPathComponent("America/New_York").path)
        try Data("not a zone".utf8).write(to: directory.appendingPathComponent("README"))
        let database = TimeZoneDatabase(directory: directory.path)
        XCTAssertNil(database.version)
        XCTAssertEqual(database.offset(zone: "America/New_York", utcSeconds: FixtureSupport.seconds("20240715T000000Z")), -4 * 3600)
        XCTAssertNil(database.offset(zone: "README", utcSeconds: 0))
        XCTAssertNil(database.offset(zone: "America/../America/New_York", utcSeconds: 0))
        XCTAssertNil(database.offset(zone: "Europe/Berlin", utcSeconds: 0))
    }
}

/// The fast path of `CompiledZone.utcSeconds(wallSeconds:)` answers as the general method does.
final class CompiledZoneFastPathTests: XCTestCase {
    func testFastPathAgreesWithTheGeneralMethod() throws {
        for zone in ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Africa/Cairo", "America/Sao_Paulo", "Pacific/Apia"] {
            let compiled = try XCTUnwrap(TimeZoneDatabase.system.zone(zone))
            // Around every transition from 1900 to 2040, every quarter hour for three hours
            // either side (through each gap and repeat), and once a week in between.
            var walls: [Int] = []
            let from = FixtureSupport.seconds("19000101T000000")
            let to = FixtureSupport.seconds("20400101T000000")
            for transition in compiled.transitions(from: from, to: to) {
                let local = transition.utcSeconds + transition.offsetBefore
                walls += (-12...12).map { local + $0 * 900 }
            }
            walls += stride(from: from, to: to, by: 7 * 86_400 + 3667).map { $0 }
            XCTAssertGreaterThan(walls.count, 7000)
            for wall in walls where compiled.utcSeconds(wallSeconds: wall) != compiled.instant(forWallSeconds: wall) {
                return XCTFail("\(zone) at wall \(wall)")
            }
        }
    }
}
