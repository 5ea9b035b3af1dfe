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
        guard var zone else { return true }
        // Most names are longer Windows ids: their length says no first. The others are
        // compared byte by byte, ASCII letters folded, which says what comparing a lower-cased
        // copy said (making that copy was a fifth of reading a time): only ASCII lower-cases to
        // these names (the one other scalar that lower-cases to ASCII, the Kelvin sign, gives a
        // `k`, which none has), and lower-casing keeps ASCII's length.
        let name: StaticString
        switch zone.utf8.count {
        case 1: name = "z"
        case 3: name = "utc"
        case 7: name = "etc/utc"
        case 21: name = "tzone://microsoft/utc"
        case 26: name = "coordinated universal time"
        default: return false
        }
        return zone.withUTF8 { bytes in
            (0..<bytes.count).allSatisfy { i in
                let b = bytes[i]
                return (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == name.utf8Start[i]
            }
        }
    }

    /// Whether the zone resolves to a known zone (Windows or IANA id).
    static func resolves(_ zone: String) -> Bool {
        zoneID(zone) != nil
    }

    /// Whether two names resolve to one zone (`Pacific Standard Time`, `America/Los_Angeles`).
    static func sameZone(_ a: String, _ b: String) -> Bool {
        guard let x = zoneID(a) else { return false }
        return x == zoneID(b)
    }

    /// The zone a name resolves to. The writer's read-back asks for every start and end of
    /// every body (and whether the body's name and the source's mean one zone), about a few
    /// names: they are remembered (resolving one again cost ~850 instructions, a pair of them
    /// hashed ~1,100).
    private static func zoneID(_ zone: String) -> String? {
        zoneIDs.value(zone) { clock.resolver.resolveName($0).zoneID }
    }

    private static let zoneIDs = GraphZoneNameMemo<String?>()

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
        // Graph's own form, `yyyy-MM-ddTHH:mm:ss.fffffff`, first: its first `.` is the one after
        // the seconds (`graphWallTime` takes no other byte there), and no `Z` ends what it cuts.
        if bytes.count > 19, bytes[19] == UInt8(ascii: "."), isASCII(bytes),
            let value = graphWallTime(UnsafeBufferPointer(rebasing: bytes[..<19]))
        {
            return .some(value)
        }
        var end = bytes.count
        for i in 0..<bytes.count {
            let b = bytes[i]
            guard b < 0x80 else { return nil }
            if b == UInt8(ascii: "."), end == bytes.count { end = i }
        }
        if end > 0, bytes[end - 1] == UInt8(ascii: "Z") { end -= 1 }
        let text = UnsafeBufferPointer(rebasing: bytes[..<end])
        return .some(graphWallTime(text) ?? ISO8601Text.parseDateTime(text))
    }

    /// Whether every byte is ASCII (one pass with no branch, which the compiler widens).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for b in bytes { all |= b }
        return all < 0x80
    }

    /// `yyyy-MM-ddTHH:mm:ss` (Graph's own form, before its fraction) read in one pass; nil for
    /// any other text, or a day or time that does not exist, which `ISO8601Text` then reads
    /// (and refuses) as before: where this gives a value, that gives the same.
    private static func graphWallTime(_ b: UnsafeBufferPointer<UInt8>) -> CalendarDateTime? {
        guard b.count == 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":")
        else { return nil }
        var ok = true
        func number(_ from: Int, _ count: Int) -> Int {
            var v = 0
            for k in from..<(from + count) {
                let d = b[k] &- 48
                if d > 9 { ok = false }
                v = v * 10 + Int(d)
            }
            return v
        }
        let date = CalendarDate(year: number(0, 4), month: number(5, 2), day: number(8, 2))
        let time = TimeOfDay(hour: number(11, 2), minute: number(14, 2), second: number(17, 2))
        guard ok, date.isValid, time.isValid else { return nil }
        return CalendarDateTime(date: date, time: time, reference: .floating)
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
        if let value = utcTimestamp(text) { return value }
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

    /// `timestamp` of ASCII text in UTC (`2024-05-01T09:00:00.1234567Z`, every `originalStart`
    /// Graph sends), read on its bytes; nil for any other text, which `timestamp` reads by
    /// Character as before (~5,000 instructions a time). Where this gives a value, that gives
    /// the same: in ASCII, Characters are bytes but for `\r\n`, which none of these holds.
    private static func utcTimestamp(_ text: String) -> CalendarDateTime? {
        var text = text
        return text.withUTF8 { b in
            guard b.count >= 19, isASCII(b), var value = graphWallTime(UnsafeBufferPointer(rebasing: b[..<19])) else { return nil }
            var i = 19
            if i < b.count, b[i] == UInt8(ascii: ".") {
                while i < b.count, b[i] == UInt8(ascii: ".") || (b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9")) { i += 1 }
            }
            guard i == b.count || (i == b.count - 1 && b[i] == UInt8(ascii: "Z")) else { return nil }
            value = value.withWallSeconds(value.wallSecondsSinceEpoch - 0)
            value.reference = .utc
            return value
        }
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
        windowsNames.value(zone, otherwise: windowsNameResolved)
    }

    private static let windowsNames = GraphZoneNameMemo<String>()

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
