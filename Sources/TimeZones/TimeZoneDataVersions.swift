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

    /// The versions for `database`.
    public init(database: TimeZoneDatabase = .system) {
        self.database = database.version
        self.databaseDirectory = database.directory
        self.icu = ICU.version
        self.icuTZData = ICU.tzdataVersion
    }
}
