import CalendarModel
import JSONCoding
import TimeZones

/// The UTC offset a zoned wall time has, for the informative `offset` member of native JSON
/// date-times (`{"dateTime":"2024-05-01T09:00:00","timeZone":"Europe/Berlin","offset":"+02:00"}`).
/// The value itself stays wall time plus TZID; readers ignore the offset, so a TZID that does
/// not resolve simply has none.
enum ZoneOffsets {
    /// One resolver for the process: it caches by name and is thread-safe.
    private static let resolver = TimeZoneResolver()

    /// `+02:00` for a wall time in a zone that resolves, else nil.
    static func offset(of v: CalendarDateTime) -> String? {
        guard case .zone(let tzid) = v.reference, !v.isDateOnly, let zone = resolver.resolveName(tzid).zoneID else { return nil }
        let wall = v.wallSecondsSinceEpoch
        guard let utc = resolver.database.utcSeconds(zone: zone, wallSeconds: wall),
            let offset = resolver.database.offset(zone: zone, utcSeconds: utc)
        else { return nil }
        return ISO8601Text.utcOffset(offset)
    }
}
