import CalendarModel

/// Reads the WHEN of `--start WHEN` / `--end WHEN`: `2024-05-01`, `2024-05-01T09:00`,
/// `2024-05-01T09:00:00Z`, or with an offset (`+02:00`, `-0500`). A date or a time without
/// zone is read in `defaultZone` (the `--tz` zone), else as UTC.
public enum QueryTime {
    /// The instant WHEN names, in seconds since 1970 UTC.
    /// - Throws: `RecurrenceError` (.invalid) naming what is wrong with the text.
    public static func parse(_ text: String, defaultZone: String? = nil, clock: any WallClock = TimeZoneDatabaseClock.shared) throws -> Int
    {
        let b = Array(text.utf8)
        func fail(_ why: String) -> RecurrenceError {
            RecurrenceError(
                .invalid,
                "'\(text)' is not a date or date-time (\(why)); use 2024-05-01, 2024-05-01T09:00, 2024-05-01T09:00:00Z or 2024-05-01T09:00+02:00"
            )
        }
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let year = number(0, 4), b.count >= 10, b[4] == UInt8(ascii: "-"), let month = number(5, 2), b[7] == UInt8(ascii: "-"),
            let day = number(8, 2)
        else { throw fail("expected YYYY-MM-DD") }
        let date = CalendarDate(year: year, month: month, day: day)
        guard date.isValid else { throw fail("no such day") }
        var seconds = 0
        var i = 10
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " "), let hour = number(i + 1, 2), i + 3 < b.count,
                b[i + 3] == UInt8(ascii: ":"), let minute = number(i + 4, 2)
            else { throw fail("expected THH:MM") }
            i += 6
            var second = 0
            if i < b.count && b[i] == UInt8(ascii: ":") {
                guard let s = number(i + 1, 2) else { throw fail("expected :SS") }
                second = s
                i += 3
            }
            guard hour < 24, minute < 60, second < 60 else { throw fail("no such time") }
            seconds = hour * 3600 + minute * 60 + second
        }
        let wall = date.daysSinceEpoch * 86_400 + seconds
        if i == b.count {
            guard let zone = defaultZone else { return wall }
            guard let instant = clock.utcSeconds(zone: zone, wallSeconds: wall) else { throw fail("unknown zone '\(zone)'") }
            return instant
        }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            guard i + 1 == b.count else { throw fail("text after Z") }
            return wall
        }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), let oh = number(i + 1, 2) else {
            throw fail("expected Z or an offset")
        }
        var j = i + 3
        if j < b.count && b[j] == UInt8(ascii: ":") { j += 1 }
        guard let om = number(j, 2), j + 2 == b.count, oh < 24, om < 60 else { throw fail("expected an offset as +HH:MM") }
        let offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        return wall - offset
    }
}
