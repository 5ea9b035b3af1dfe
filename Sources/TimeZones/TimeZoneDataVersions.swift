/// Which tz data calport uses for offsets, and which ICU carries (ICU supplies names only).
public struct TimeZoneDataVersions: Hashable, Sendable {
    /// The release of the tz data offsets come from (e.g. `2025b`).
    public var database: String?
    /// Where that data is read from.
    public var databaseDirectory: String
    /// ICU's library version (e.g. `72.1`).
    public var icu: String?
    /// The tz data release built into ICU (e.g. `2022e`); not used for offsets.
    public var icuTZData: String?

    /// The CLDR release of calport's Windows zone table, which resolution uses first.
    public var windowsZones: String
    /// How many Windows ids that table maps.
    public var windowsZoneCount: Int
    /// The CLDR release ICU's data comes from (e.g. `42.0`): its Windows table is the fallback.
    public var icuCLDR: String?

    /// The versions for `database`.
    public init(database: TimeZoneDatabase = .system) {
        self.database = database.version
        self.databaseDirectory = database.directory
        self.icu = ICU.version
        self.icuTZData = ICU.tzdataVersion
        self.windowsZones = WindowsZoneMapping.cldrVersion
        self.windowsZoneCount = Set(WindowsZoneMapping.all.map(\.windowsID)).count
        self.icuCLDR = ICU.cldrVersion
    }
}
