/// One row of CLDR's Windows ↔ IANA table as ICU carries it (`windowsZones.xml`).
public struct WindowsZoneMapping: Hashable, Sendable {
    /// The Windows id, e.g. `W. Europe Standard Time`.
    public var windowsID: String
    /// The ISO 3166 region the row applies to; `001` marks the default zone.
    public var region: String
    /// The IANA zones of the row in CLDR's spelling (first is the region's main zone).
    public var zones: [String]

    /// Creates a row.
    public init(windowsID: String, region: String, zones: [String]) {
        self.windowsID = windowsID
        self.region = region
        self.zones = zones
    }

    /// Every row of the table ICU carries, in ICU's order.
    public static let all: [WindowsZoneMapping] = ICU.windowsTable().map {
        WindowsZoneMapping(windowsID: $0.windows, region: $0.region, zones: $0.zones)
    }
}
