import CalendarModel
import JSONCoding
import Recurrence

/// Graph's times: `dateTimeTimeZone` (`{"dateTime": "2024-05-01T09:00:00.0000000",
/// "timeZone": "Pacific Standard Time"}`, a wall time in UTC, a Windows zone or an IANA zone),
/// timestamps (`2024-05-01T09:00:00.1234567Z`, or PowerShell 5's `/Date(1714554000000)/`),
/// and moves between UTC and wall time in a zone, through calport's time-zone layer.
enum GraphDateTimes {
    private static let clock = TimeZoneDatabaseClock.shared

    /// Whether Graph means UTC by this zone name (its default when no `Prefer` header is sent).
    static func isUTC(_ zone: String?) -> Bool {
        guard let zone else { return true }
        // Most names are longer Windows ids: their length says no before a lower-cased copy is
        // made (that copy was a quarter of reading a time). Only ASCII lower-cases to these
        // names, and lower-casing keeps ASCII's length.
        switch zone.utf8.count {
        case 1, 3, 7, 21, 26: break
        default: return false
        }
        switch zone.lowercased() {
        case "utc", "etc/utc", "tzone://microsoft/utc", "coordinated universal time", "z": return true
        default: return false
        }
    }

    /// Whether the zone resolves to a known zone (Windows or IANA id).
    static func resolves(_ zone: String) -> Bool {
        clock.resolver.resolveName(zone).zoneID != nil
    }

    /// Whether two names resolve to one zone (`Pacific Standard Time`, `America/Los_Angeles`).
    static func sameZone(_ a: String, _ b: String) -> Bool {
        guard let x = clock.resolver.resolveName(a).zoneID else { return false }
        return x == clock.resolver.resolveName(b).zoneID
    }

    /// A wall time without its fraction of a second (`2024-05-01T09:00:00.0000000`).
    static func wallTime(_ text: String) -> CalendarDateTime? {
        // ASCII text (all Graph sends) is cut on bytes: every start and end is read here.
        var text = text
        if let value = text.withUTF8({ wallTime(ascii: $0) }) { return value }
        var t = Substring(text)
        if let dot = t.firstIndex(of: ".") { t = t[..<dot] }
        if t.hasSuffix("Z") { t = t.dropLast() }
        return ISO8601Text.parseDateTime(String(t))
    }

    /// `wallTime` of ASCII bytes; `.some(nil)` when they do not parse, nil when they are not
    /// ASCII (the Character-wise cut then decides).
    private static func wallTime(ascii bytes: UnsafeBufferPointer<UInt8>) -> CalendarDateTime?? {
        var end = bytes.count
        for (i, b) in bytes.enumerated() {
            guard b < 0x80 else { return nil }
            if b == UInt8(ascii: "."), end == bytes.count { end = i }
        }
        if end > 0, bytes[end - 1] == UInt8(ascii: "Z") { end -= 1 }
        return .some(ISO8601Text.parseDateTime(UnsafeBufferPointer(rebasing: bytes[..<end])))
    }

    /// A timestamp as UTC: `…Z`, `…+02:00`, or PowerShell 5's `/Date(milliseconds)/`.
    static func timestamp(_ text: String) -> CalendarDateTime? {
        if text.hasPrefix("/Date(") {
            let digits = text.dropFirst(6).prefix { $0 == "-" || $0.isNumber }
            // Years 0000 to 9999, as every date-time calport writes; beyond them the year had 13 digits, and near
            // Int.min the rounding below overflowed.
            guard let ms = Int(digits), (-62_167_219_200_000...253_402_300_799_999).contains(ms) else { return nil }
            let seconds = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000)
            return CalendarDateTime(
                date: CalendarDate(year: 1970, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0, second: 0), reference: .utc
            )
            .withWallSeconds(seconds)
        }
        guard text.count >= 19 else { return nil }
        var rest = Substring(text.dropFirst(19))
        guard var value = ISO8601Text.parseDateTime(String(text.prefix(19))) else { return nil }
        if rest.first == "." { rest = rest.drop { $0 == "." || $0.isNumber } }
        var offset = 0
        if rest == "Z" || rest.isEmpty {
            offset = 0
        } else if let o = ISO8601Text.parseUTCOffset(String(rest)) {
            offset = o
        } else {
            return nil
        }
        value = value.withWallSeconds(value.wallSecondsSinceEpoch - offset)
        value.reference = .utc
        return value
    }

    /// The wall time in `zone` of a UTC time; nil when the zone does not resolve.
    static func local(_ utc: CalendarDateTime, in zone: String) -> CalendarDateTime? {
        guard let offset = clock.offset(zone: zone, utcSeconds: utc.wallSecondsSinceEpoch) else { return nil }
        var local = utc.withWallSeconds(utc.wallSecondsSinceEpoch + offset)
        local.reference = .zone(zone)
        return local
    }

    /// The UTC time of a wall time in `zone` (RFC 5545 §3.3.5: a time in a gap moves forward,
    /// an ambiguous one is its first occurrence); nil when the zone does not resolve.
    static func utc(_ wall: CalendarDateTime, in zone: String) -> CalendarDateTime? {
        guard let z = clock.resolver.resolveName(zone).zoneID,
            let seconds = clock.resolver.database.utcSeconds(zone: z, wallSeconds: wall.wallSecondsSinceEpoch)
        else { return nil }
        var result = wall.withWallSeconds(seconds)
        result.reference = .utc
        return result
    }

    /// Any time as UTC (floating times are taken as UTC, as Graph does with a missing zone).
    static func utc(_ value: CalendarDateTime) -> CalendarDateTime? {
        switch value.reference {
        case .utc, .floating:
            var v = value
            v.reference = .utc
            return v
        case .zone(let z): return utc(value, in: z)
        }
    }

    /// The Windows id of a zone (what Outlook shows and Graph returns), or the name as it is.
    static func windowsName(_ zone: String) -> String {
        // Every start and end of every body comes here, and a file names few zones: the names
        // are remembered (resolving one, and finding its Windows id, cost ~2,500 instructions).
        windowsNames.name(zone, otherwise: windowsNameResolved)
    }

    private static let windowsNames = GraphZoneNameMemo()

    private static func windowsNameResolved(_ zone: String) -> String {
        let resolution = clock.resolver.resolveName(zone)
        if let id = resolution.zoneID, let windows = clock.resolver.windowsID(for: id) {
            // Keep the source's Windows spelling when it already is one.
            if resolution.step == .windows { return zone }
            return windows
        }
        return zone
    }

    /// `2024-05-01T09:00:00.0000000`, Graph's wall-time spelling.
    static func text(_ v: CalendarDateTime) -> String {
        var wall = v
        wall.reference = .floating
        if wall.time == nil { wall.time = TimeOfDay(hour: 0, minute: 0, second: 0) }
        return ISO8601Text.dateTime(wall, suffix: ".0000000")
    }

    /// `2024-05-01T09:00:00Z`.
    static func timestampText(_ v: CalendarDateTime) -> String? {
        guard var u = utc(v) else { return nil }
        if u.time == nil { u.time = TimeOfDay(hour: 0, minute: 0, second: 0) }
        u.reference = .utc
        return ISO8601Text.dateTime(u)
    }
}
