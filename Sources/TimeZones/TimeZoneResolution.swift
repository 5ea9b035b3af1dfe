/// What a TZID resolved to, which rule decided it, and every step tried on the way.
public struct TimeZoneResolution: Hashable, Sendable {
    /// The rule that produced the answer, in the order the resolver tries them.
    public enum Step: String, Hashable, Sendable, CaseIterable {
        /// An IANA id exactly as the data spells it today.
        case iana
        /// An alias of an IANA zone (tzdata backward link or ICU alias), written in today's spelling.
        case alias
        /// An IANA id or alias after quotes, escapes, case, spaces or separators were repaired.
        case spelling
        /// A Windows / Exchange id, mapped through CLDR's table.
        case windows
        /// An Outlook display name such as `(UTC+01:00) Amsterdam, Berlin, …`.
        case outlookDisplayName = "outlook-name"
        /// A vendor-prefixed id such as `/mozilla.org/20050126_1/America/New_York`.
        case vendorPrefix = "vendor-prefix"
        /// A meaningless name whose VTIMEZONE agrees with a known zone over the years used.
        case definitionMatch = "vtimezone-match"
        /// A fixed offset written as a name (`GMT+1`), mapped to an `Etc/GMT` zone.
        case fixedOffset = "fixed-offset"
        /// The calendar's X-WR-TIMEZONE, for a TZID that says nothing by itself.
        case calendarDefault = "x-wr-timezone"
        /// No known zone: instants come from the file's own VTIMEZONE rules.
        case definitionRules = "vtimezone-rules"
        /// Nothing resolved and no definition to fall back on.
        case unresolved
    }

    /// The TZID as given.
    public var input: String
    /// Today's IANA id for the zone; nil when nothing resolved (see `definitionRules`).
    public var zoneID: String?
    /// The rule that decided.
    public var step: Step
    /// One human-readable line per step tried, in order.
    public var trace: [String]
    /// For `.definitionRules`: the file's own rules, which give the instants.
    public var definitionRules: VTimeZoneRules?
    /// Whether the zone was only guessed from a city in the name; a guess yields to a
    /// VTIMEZONE that disagrees.
    public var isGuess = false

    /// Creates a resolution.
    public init(input: String, zoneID: String?, step: Step, trace: [String], definitionRules: VTimeZoneRules? = nil) {
        self.input = input
        self.zoneID = zoneID
        self.step = step
        self.trace = trace
        self.definitionRules = definitionRules
    }

    /// Whether the instants of times in this zone can be computed.
    public var canComputeInstants: Bool { zoneID != nil || definitionRules != nil }
}
