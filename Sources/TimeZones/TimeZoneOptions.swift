/// How the time-zone stage rewrites date-times; travels as a value from the CLI to the pipeline.
public struct TimeZoneOptions: Hashable, Sendable {
    /// What zoned times become.
    public enum Output: Hashable, Sendable {
        /// Keep each time's zone, named by today's IANA id (`--tz keep`, the default).
        case keep
        /// Convert every zoned time to UTC (`--tz utc`).
        case utc
        /// Convert every zoned and UTC time to the wall time of this zone (`--tz ZONE`).
        case zone(String)
    }

    /// How output TZIDs are spelled.
    public enum TZIDStyle: String, Hashable, Sendable, CaseIterable {
        /// IANA ids (`Europe/Berlin`).
        case iana
        /// Windows ids (`W. Europe Standard Time`) for Outlook and Exchange targets.
        case windows
    }

    /// What zoned times become.
    public var output: Output
    /// The zone floating times are read in; nil keeps them floating. DATE values stay dates.
    public var floatingZone: String?
    /// How output TZIDs are spelled.
    public var tzidStyle: TZIDStyle
    /// Whether to emit a VTIMEZONE, built from current tz data, before the first item that uses
    /// each zone (ICS-family outputs); input VTIMEZONEs are dropped either way.
    public var emitTimeZoneDefinitions: Bool
    /// The first year emitted VTIMEZONEs cover (earlier if an item needs it).
    public var definitionsFromYear: Int

    /// Creates options; the defaults keep zones as IANA ids and emit no definitions.
    public init(
        output: Output = .keep, floatingZone: String? = nil, tzidStyle: TZIDStyle = .iana,
        emitTimeZoneDefinitions: Bool = false, definitionsFromYear: Int = 1970
    ) {
        self.output = output
        self.floatingZone = floatingZone
        self.tzidStyle = tzidStyle
        self.emitTimeZoneDefinitions = emitTimeZoneDefinitions
        self.definitionsFromYear = definitionsFromYear
    }
}

extension TimeZoneOptions.Output {
    /// Reads `keep`, `utc` or a zone name, as `--tz` takes it.
    public init(argument: String) {
        switch argument.lowercased() {
        case "keep": self = .keep
        case "utc": self = .utc
        default: self = .zone(argument)
        }
    }
}
