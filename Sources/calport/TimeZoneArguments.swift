import ArgumentParser
import TimeZones

/// The time-zone options of `convert`.
struct TimeZoneArguments: ParsableArguments {
    @Option(
        name: .customLong("tz"),
        help: ArgumentHelp(
            "keep: each time keeps its zone, named by its IANA id; utc: convert to UTC; ZONE: convert to that zone.",
            valueName: "keep|utc|ZONE"))
    var tz = "keep"

    @Option(
        name: .customLong("floating-tz"), help: ArgumentHelp("Read floating times in ZONE (all-day dates stay dates).", valueName: "ZONE"))
    var floatingTZ: String?

    @Option(name: .customLong("tzid-style"), help: ArgumentHelp("Write TZIDs as IANA or Windows ids.", valueName: "iana|windows"))
    var tzidStyle = "iana"

    func validate() throws {
        guard TimeZoneOptions.TZIDStyle(rawValue: tzidStyle.lowercased()) != nil else {
            throw ValidationError("--tzid-style takes iana or windows, not '\(tzidStyle)'")
        }
    }

    /// The options as the conversion pipeline takes them.
    var options: TimeZoneOptions {
        TimeZoneOptions(
            output: TimeZoneOptions.Output(argument: tz), floatingZone: floatingTZ,
            tzidStyle: TimeZoneOptions.TZIDStyle(rawValue: tzidStyle.lowercased()) ?? .iana)
    }
}
