import CalendarModel

/// The ISO 8601 extended text forms JSON calendar formats share (jCal RFC 7265 §3.3,
/// JSCalendar RFC 8984 §1.4, calport's native JSON): dates, wall times, durations and UTC
/// offsets. Parsing works on UTF-8 bytes and refuses what does not fit exactly.
public enum ISO8601Text {
    private static func pad(_ n: Int, _ width: Int, into s: inout String) {
        let digits = String(abs(n))
        if n < 0 { s += "-" }
        if digits.count < width { s += String(repeating: "0", count: width - digits.count) }
        s += digits
    }

    /// `2024-05-01`.
    public static func date(_ d: CalendarDate) -> String {
        var s = ""
        s.reserveCapacity(10)
        pad(d.year, 4, into: &s)
        s += "-"
        pad(d.month, 2, into: &s)
        s += "-"
        pad(d.day, 2, into: &s)
        return s
    }

    /// `09:00:00`.
    public static func time(_ t: TimeOfDay) -> String {
        var s = ""
        pad(t.hour, 2, into: &s)
        s += ":"
        pad(t.minute, 2, into: &s)
        s += ":"
        pad(t.second, 2, into: &s)
        return s
    }

    /// `2024-05-01T09:00:00`, with `Z` for UTC values; a zoned value prints its wall time (the
    /// zone travels beside it). A DATE value prints as a date.
    public static func dateTime(_ v: CalendarDateTime) -> String {
        guard let t = v.time else { return date(v.date) }
        return date(v.date) + "T" + time(t) + (v.reference == .utc ? "Z" : "")
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0

        init(_ text: String) { b = Array(text.utf8) }

        var atEnd: Bool { i == b.count }

        mutating func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }

        mutating func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 48, b[k] <= 57 else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            i += n
            return v
        }

        /// One or more digits.
        mutating func number() -> Int? {
            var v = 0
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                v = v &* 10 &+ Int(b[i] - 48)
                i += 1
            }
            return i > start && i - start < 19 ? v : nil
        }
    }

    /// Parses `2024-05-01`, requiring a real day.
    public static func parseDate(_ text: String) -> CalendarDate? {
        var s = Scanner(text)
        guard let d = scanDate(&s), s.atEnd else { return nil }
        return d
    }

    private static func scanDate(_ s: inout Scanner) -> CalendarDate? {
        guard let y = s.digits(4), s.take("-"), let m = s.digits(2), s.take("-"), let d = s.digits(2) else { return nil }
        let date = CalendarDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    private static func scanTime(_ s: inout Scanner) -> TimeOfDay? {
        guard let h = s.digits(2), s.take(":"), let mi = s.digits(2), s.take(":"), let se = s.digits(2) else { return nil }
        let t = TimeOfDay(hour: h, minute: mi, second: se)
        return t.isValid ? t : nil
    }

    /// Parses `09:00:00` or `09:00:00Z`; returns the time and whether it was UTC.
    public static func parseTime(_ text: String) -> (TimeOfDay, utc: Bool)? {
        var s = Scanner(text)
        guard let t = scanTime(&s) else { return nil }
        let utc = s.take("Z")
        return s.atEnd ? (t, utc) : nil
    }

    /// Parses `2024-05-01T09:00:00` (floating) or `2024-05-01T09:00:00Z` (UTC); with
    /// `allowDate`, also a bare date.
    public static func parseDateTime(_ text: String, allowDate: Bool = false) -> CalendarDateTime? {
        var s = Scanner(text)
        guard let date = scanDate(&s) else { return nil }
        if s.atEnd { return allowDate ? CalendarDateTime(date: date) : nil }
        guard s.take("T"), let time = scanTime(&s) else { return nil }
        let utc = s.take("Z")
        guard s.atEnd else { return nil }
        return CalendarDateTime(date: date, time: time, reference: utc ? .utc : .floating)
    }

    /// Parses a duration in RFC 5545's form (weeks may combine with days, as ISO 8601 allows).
    public static func parseDuration(_ text: String) -> CalendarDuration? {
        var s = Scanner(text)
        var d = CalendarDuration()
        if s.take("-") { d.isNegative = true } else { _ = s.take("+") }
        guard s.take("P") else { return nil }
        var any = false
        var inTime = false
        var lastRank = -1
        while !s.atEnd {
            if !inTime && s.take("T") {
                inTime = true
                continue
            }
            guard let n = s.number(), n < CalendarDuration.fieldLimit else { return nil }
            let unit: Int
            if inTime {
                if s.take("H") { unit = 2 } else if s.take("M") { unit = 3 } else if s.take("S") { unit = 4 } else { return nil }
            } else {
                if s.take("W") { unit = 0 } else if s.take("D") { unit = 1 } else { return nil }
            }
            guard unit > lastRank else { return nil }
            lastRank = unit
            switch unit {
            case 0: d.weeks = n
            case 1: d.days = n
            case 2: d.hours = n
            case 3: d.minutes = n
            default: d.seconds = n
            }
            any = true
        }
        if inTime && lastRank < 2 { return nil }
        return any ? d : nil
    }

    /// `+05:30` / `-08:00`, with `:SS` when the offset has seconds.
    public static func utcOffset(_ seconds: Int) -> String {
        let m = abs(seconds)
        var s = seconds < 0 ? "-" : "+"
        pad(m / 3600, 2, into: &s)
        s += ":"
        pad(m / 60 % 60, 2, into: &s)
        if m % 60 != 0 {
            s += ":"
            pad(m % 60, 2, into: &s)
        }
        return s
    }

    /// Parses `+05:30`, `-08:00:15` or `Z`-less basic `+0530`.
    public static func parseUTCOffset(_ text: String) -> Int? {
        var s = Scanner(text)
        let sign: Int
        if s.take("+") { sign = 1 } else if s.take("-") { sign = -1 } else { return nil }
        guard let h = s.digits(2) else { return nil }
        let colon = s.take(":")
        guard let m = s.digits(2) else { return nil }
        var sec = 0
        if !s.atEnd {
            if colon { guard s.take(":") else { return nil } }
            guard let x = s.digits(2) else { return nil }
            sec = x
        }
        guard s.atEnd, m < 60, sec < 60 else { return nil }
        return sign * (h * 3600 + m * 60 + sec)
    }
}
