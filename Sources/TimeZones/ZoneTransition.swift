/// A moment at which a zone's UTC offset, daylight flag or abbreviation changes.
public struct ZoneTransition: Hashable, Sendable {
    /// The instant of the change, in seconds since 1970-01-01T00:00:00Z.
    public var utcSeconds: Int
    /// The offset in force just before the change, in seconds east of UTC.
    public var offsetBefore: Int
    /// The offset in force from the change on, in seconds east of UTC.
    public var offsetAfter: Int
    /// Whether the new period is daylight saving time.
    public var isDaylight: Bool
    /// The abbreviation of the new period (`CEST`, `-03`), when known.
    public var abbreviation: String?

    /// Creates a transition.
    public init(utcSeconds: Int, offsetBefore: Int, offsetAfter: Int, isDaylight: Bool, abbreviation: String? = nil) {
        self.utcSeconds = utcSeconds
        self.offsetBefore = offsetBefore
        self.offsetAfter = offsetAfter
        self.isDaylight = isDaylight
        self.abbreviation = abbreviation
    }
}
