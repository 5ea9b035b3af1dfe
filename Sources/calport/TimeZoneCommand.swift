import ArgumentParser
import TimeZones

/// `calport tz`: resolves TZIDs and shows the zone data in use.
struct TimeZoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tz", abstract: "Resolve time-zone names and show the time-zone data in use.",
        subcommands: [Resolve.self, Windows.self, Version.self])

    @Flag(help: "Print the tz data, Windows zone table and ICU versions in use (as `calport tz version`).")
    var versions = false

    func run() throws {
        guard versions else { throw CleanExit.helpRequest(self) }
        Version.printVersions()
    }

    /// `calport tz resolve NAME...`
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print NAME<TAB>ZONE<TAB>STEP for each name (ZONE empty when nothing resolves).")

        @Argument(help: "TZIDs as files spell them.")
        var names: [String]

        @Option(help: "Region (ISO 3166) for Windows ids whose zone depends on it.")
        var region: String?

        @Flag(help: "Also print every step tried, indented.")
        var trace = false

        func run() throws {
            let resolver = TimeZoneResolver(region: region)
            for name in names {
                let resolution = resolver.resolve(name)
                print("\(name)\t\(resolution.zoneID ?? "")\t\(resolution.step.rawValue)")
                if trace { for line in resolution.trace { print("\t\(line)") } }
            }
        }
    }

    /// `calport tz windows`
    struct Windows: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print CLDR's Windows ↔ IANA table as calport resolves with it: WINDOWS-ID<TAB>REGION<TAB>IANA ids.")

        @Flag(help: "Print the older table built into the system's ICU instead (consulted only for ids the current one lacks).")
        var icu = false

        func run() throws {
            for row in icu ? WindowsZoneMapping.icu : WindowsZoneMapping.all {
                print("\(row.windowsID)\t\(row.region)\t\(row.zones.joined(separator: " "))")
            }
        }
    }

    /// `calport tz version`
    struct Version: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the tz data, Windows zone table and ICU versions in use.")

        func run() throws { Self.printVersions() }

        static func printVersions() {
            let versions = TimeZoneDataVersions()
            print("tz data: \(versions.database ?? "unknown") (\(versions.databaseDirectory)), used for offsets and transitions")
            print(
                "Windows zones: CLDR \(versions.windowsZones) (\(versions.windowsZoneCount) Windows ids), used first for Windows names")
            print(
                "ICU: \(versions.icu ?? "unknown"), its own tz data \(versions.icuTZData ?? "unknown") and CLDR \(versions.icuCLDR ?? "unknown"), "
                    + "used for other names and Windows ids the current table lacks")
        }
    }
}
