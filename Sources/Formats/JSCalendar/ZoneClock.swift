import CalendarModel
import TimeZones

/// Converts between UTC and wall time in a named zone, for the few places JSCalendar needs it
/// (RRULE UNTIL, EXDATE/RDATE/RECURRENCE-ID given in UTC for a zoned event): JSCalendar
/// writes them as local date-times in the event's zone (RFC 8984 §4.3.3, §4.3.5).
///
/// TZIDs resolve through the TimeZones module, as everywhere in calport, so Windows names and
/// vendor prefixes work; a TZID that does not resolve by name gives nil, and the caller keeps
/// the iCalendar property verbatim instead.
struct ZoneClock {
    /// One resolver for the process: it caches by name, and resolving is the costly part.
    private static let resolver = TimeZoneResolver()

    private func zone(_ tzid: String) -> String? {
        Self.resolver.resolveName(tzid).zoneID
    }

    /// The wall time in `zone` of a UTC date-time.
    mutating func local(_ utc: CalendarDateTime, in tzid: String) -> CalendarDateTime? {
        guard utc.reference == .utc, utc.time != nil, let z = zone(tzid),
            let offset = Self.resolver.database.offset(zone: z, utcSeconds: utc.wallSecondsSinceEpoch)
        else { return nil }
        var local = utc.withWallSeconds(utc.wallSecondsSinceEpoch + offset)
        local.reference = .zone(tzid)
        return local
    }

    /// The UTC date-time of a wall time in `zone` (RFC 5545 §3.3.5: a time in a gap moves
    /// forward, an ambiguous time is its first occurrence).
    mutating func utc(_ wall: CalendarDateTime, in tzid: String) -> CalendarDateTime? {
        guard wall.time != nil, let z = zone(tzid),
            let seconds = Self.resolver.database.utcSeconds(zone: z, wallSeconds: wall.wallSecondsSinceEpoch)
        else { return nil }
        var result = wall.withWallSeconds(seconds)
        result.reference = .utc
        return result
    }
}
