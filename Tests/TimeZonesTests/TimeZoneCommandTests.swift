import CalendarModel
import CalendarTestSupport
import Foundation
import TimeZones
import XCTest

/// `calport tz …` and the time-zone options of `calport convert`, run as a user runs them.
final class TimeZoneCommandTests: XCTestCase {
    var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-tz-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    func calport(_ arguments: [String]) throws -> CommandRunner.Run {
        try CommandRunner(directory: workDirectory).calport(arguments)
    }

    func testResolvePrintsOneTabSeparatedLinePerName() throws {
        let run = try calport([
            "tz", "resolve", "Asia/Calcutta", "Customized Time Zone", "W. Europe Standard Time", "/mozilla.org/20050126_1/America/New_York",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            """
            Asia/Calcutta\tAsia/Kolkata\talias
            Customized Time Zone\t\tunresolved
            W. Europe Standard Time\tEurope/Berlin\twindows
            /mozilla.org/20050126_1/America/New_York\tAmerica/New_York\tvendor-prefix

            """)
    }

    func testWindowsPrintsCLDRsTable() throws {
        let run = try calport(["tz", "windows"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, WindowsZoneMapping.all.count)
        XCTAssertTrue(lines.contains("W. Europe Standard Time\t001\tEurope/Berlin"))
        XCTAssertTrue(lines.allSatisfy { $0.split(separator: "\t").count == 3 })
    }

    func testVersionNamesTheDataInUse() throws {
        let run = try calport(["tz", "version"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let version = try XCTUnwrap(TimeZoneDatabase.system.version)
        XCTAssertTrue(run.stdout.hasPrefix("tz data: \(version) "), run.stdout)
        XCTAssertTrue(run.stdout.contains("ICU: "), run.stdout)
    }

    /// `calport tz --versions` names both Windows tables: calport's current CLDR one and ICU's.
    func testVersionsFlagNamesBothWindowsTables() throws {
        let run = try calport(["tz", "--versions"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Windows zones: CLDR \(WindowsZoneMapping.cldrVersion) (142 Windows ids)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("ICU: 72"), run.stdout)
        XCTAssertTrue(run.stdout.contains("CLDR 42"), run.stdout)
    }

    /// `calport tz windows` prints the current table; `--icu` the old one it falls back on.
    func testWindowsPrintsTheCurrentTableAndICUsOnRequest() throws {
        let current = try calport(["tz", "windows"])
        XCTAssertTrue(current.stdout.contains("Central Asia Standard Time\t001\tAsia/Bishkek\n"), current.stdout)
        XCTAssertTrue(current.stdout.contains("Mountain Standard Time (Mexico)\t001\tAmerica/Mazatlan\n"))
        let icu = try calport(["tz", "windows", "--icu"])
        XCTAssertEqual(icu.status, 0, icu.stderr)
        XCTAssertTrue(icu.stdout.contains("Central Asia Standard Time\t001\tAsia/Almaty\n"), icu.stdout)
    }

    /// `--tz utc` and `--tz keep` files describe the same instants.
    func testUTCAndKeepOutputsDescribeTheSameInstants() throws {
        let input = FixtureSupport.root.appendingPathComponent("files/windows-ids.ics").path
        let utc = try calport(["convert", input, "-o", "utc.ics", "--tz", "utc"])
        XCTAssertEqual(utc.status, 0, utc.stderr)
        let keep = try calport(["convert", input, "-o", "keep.ics", "--tz", "keep"])
        XCTAssertEqual(keep.status, 0, keep.stderr)
        let utcEvents = FixtureSupport.events(
            try FixtureSupport.elements([UInt8](Data(contentsOf: workDirectory.appendingPathComponent("utc.ics")))))
        let keepEvents = FixtureSupport.events(
            try FixtureSupport.elements([UInt8](Data(contentsOf: workDirectory.appendingPathComponent("keep.ics")))))
        XCTAssertEqual(Set(utcEvents.keys), Set(keepEvents.keys))
        XCTAssertGreaterThan(utcEvents.count, 10)
        for (uid, event) in keepEvents {
            let other = try XCTUnwrap(utcEvents[uid])
            XCTAssertEqual(other.start?.reference, .utc)
            XCTAssertEqual(FixtureSupport.foundationInstant(event.start!), other.start?.wallSecondsSinceEpoch, uid)
            XCTAssertEqual(FixtureSupport.foundationInstant(event.end!), other.end?.wallSecondsSinceEpoch, uid)
        }
    }

    func testBadZoneOptionsAreUsageErrors() throws {
        let input = FixtureSupport.root.appendingPathComponent("files/dst-edges.ics").path
        let unknown = try calport(["convert", input, "-o", "x.ics", "--tz", "Mars/Olympus_Mons"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("Mars/Olympus_Mons"), unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDirectory.appendingPathComponent("x.ics").path))
        XCTAssertEqual(try calport(["convert", input, "-o", "x.ics", "--tzid-style", "olson"]).status, 2)
    }
}
