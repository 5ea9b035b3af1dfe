import CalendarModel
import Foundation

/// Converts between UTC and wall time in a named zone, for the few places JSCalendar needs it
/// (RRULE UNTIL, EXDATE/RDATE/RECURRENCE-ID given in UTC for a zoned event): JSCalendar
/// writes them as local date-times in the event's zone (RFC 8984 §4.3.3, §4.3.5).
///
/// Offsets come from Foundation's zone data. This is the one place the JSCalendar format
/// computes instants; when the TimeZones module lands on main it should answer instead, so
/// every format resolves TZIDs (including Windows names) the same way. Unknown zone names
/// give nil, and the caller keeps the iCalendar property verbatim instead.
struct ZoneClock {
    private var zones: [String: Foundation.TimeZone] = [:]

    private mutating func zone(_ id: String) -> Foundation.TimeZone? {
        if let z = zones[id] { return z }
        guard let z = Foundation.TimeZone(identifier: id) else { return nil }
        zones[id] = z
        return z
    }

    /// The wall time in `zone` of a UTC date-time.
    mutating func local(_ utc: CalendarDateTime, in zoneID: String) -> CalendarDateTime? {
        guard utc.reference == .utc, utc.time != nil, let z = zone(zoneID) else { return nil }
        let seconds = utc.wallSecondsSinceEpoch
        let offset = z.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        var local = CalendarDateTime(date: utc.date, time: utc.time, reference: .zone(zoneID)).withWallSeconds(seconds + offset)
        local.reference = .zone(zoneID)
        return local
    }

    /// The UTC date-time of a wall time in `zone` (the earlier instant when the wall time
    /// occurs twice, as RFC 5545 §3.3.5 says).
    mutating func utc(_ wall: CalendarDateTime, in zoneID: String) -> CalendarDateTime? {
        guard wall.time != nil, let z = zone(zoneID) else { return nil }
        let wallSeconds = wall.wallSecondsSinceEpoch
        // Two passes settle the offset at the instant itself.
        var offset = z.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallSeconds)))
        offset = z.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wallSeconds - offset)))
        var result = wall.withWallSeconds(wallSeconds - offset)
        result.reference = .utc
        return result
    }
}
