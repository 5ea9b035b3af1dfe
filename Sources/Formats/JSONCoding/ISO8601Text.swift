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

    /// Writes `n` as `width` digits at `i`; false when it does not fit (negative or too large),
    /// for the callers' String fallback.
    @inline(__always)
    private static func digits(_ n: Int, _ width: Int, _ p: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        var v = n
        var k = i + width
        guard v >= 0 else { return false }
        while k > i {
            k -= 1
            p[k] = UInt8(truncatingIfNeeded: 48 + v % 10)
            v /= 10
        }
        i += width
        return v == 0
    }

    /// `a`, `b` and `c` as `aWidth`, 2 and 2 digits with `separator` between (a date's or a
    /// time's fields). Dates and times are formatted for every item: written as bytes into the
    /// String's own storage (no intermediate Strings), with the general `pad` for years
    /// outside 0…9999.
    @inline(__always)
    private static func fields(
        _ a: Int, _ aWidth: Int, _ b: Int, _ c: Int, _ separator: UInt8, _ p: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int
    ) -> Bool {
        guard digits(a, aWidth, p, &i) else { return false }
        p[i] = separator
        i += 1
        guard digits(b, 2, p, &i) else { return false }
        p[i] = separator
        i += 1
        return digits(c, 2, p, &i)
    }

    @inline(__always)
    private static func dateBytes(_ d: CalendarDate, _ p: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        fields(d.year, 4, d.month, d.day, UInt8(ascii: "-"), p, &i)
    }

    @inline(__always)
    private static func timeBytes(_ t: TimeOfDay, _ p: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        fields(t.hour, 2, t.minute, t.second, UInt8(ascii: ":"), p, &i)
    }

    /// The text `write` puts in at most `capacity` bytes, or nil when a field does not fit.
    @inline(__always)
    private static func formatted(_ capacity: Int, _ write: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Bool) -> String? {
        var fits = true
        let text = String(unsafeUninitializedCapacity: capacity) { p in
            var i = 0
            fits = write(p, &i)
            return fits ? i : 0
        }
        return fits ? text : nil
    }

    /// `fields` through Strings, for values the byte path refuses.
    private static func padded(_ a: Int, _ aWidth: Int, _ b: Int, _ c: Int, _ separator: String) -> String {
        var s = ""
        pad(a, aWidth, into: &s)
        s += separator
        pad(b, 2, into: &s)
        s += separator
        pad(c, 2, into: &s)
        return s
    }

    /// `2024-05-01`.
    public static func date(_ d: CalendarDate) -> String {
        formatted(10) { dateBytes(d, $0, &$1) } ?? padded(d.year, 4, d.month, d.day, "-")
    }

    /// `09:00:00`.
    public static func time(_ t: TimeOfDay) -> String {
        formatted(8) { timeBytes(t, $0, &$1) } ?? padded(t.hour, 2, t.minute, t.second, ":")
    }

    /// `2024-05-01T09:00:00`, with `Z` for UTC values; a zoned value prints its wall time (the
    /// zone travels beside it). A DATE value prints as a date.
    public static func dateTime(_ v: CalendarDateTime) -> String {
        guard let t = v.time else { return date(v.date) }
        let fast = formatted(dateTimeCapacity) { p, i in dateTimeBytes(v, t, p, &i) }
        return fast ?? date(v.date) + "T" + time(t) + (v.reference == .utc ? "Z" : "")
    }

    /// `dateTime(v)` followed by `suffix` (Graph's `.0000000`), made as one String.
    public static func dateTime(_ v: CalendarDateTime, suffix: StaticString) -> String {
        guard let t = v.time else { return date(v.date) + String(describing: suffix) }
        let n = suffix.utf8CodeUnitCount
        let fast = formatted(dateTimeCapacity + n) { p, i in
            guard dateTimeBytes(v, t, p, &i) else { return false }
            for k in 0..<n { p[i + k] = suffix.utf8Start[k] }
            i += n
            return true
        }
        return fast ?? dateTime(v) + String(describing: suffix)
    }

    /// The most bytes `write(dateTime:to:)` writes.
    public static let dateTimeCapacity = 20

    /// Writes the bytes of `dateTime(v)` at the start of `p` (`dateTimeCapacity` bytes at
    /// least) and returns how many, or nil when a field does not fit (`dateTime(v)` then
    /// says it): for writers that put the text straight into their buffer.
    @inline(__always)
    public static func write(dateTime v: CalendarDateTime, to p: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var i = 0
        if let t = v.time {
            guard dateTimeBytes(v, t, p, &i) else { return nil }
        } else {
            guard dateBytes(v.date, p, &i) else { return nil }
        }
        return i
    }

    @inline(__always)
    private static func dateTimeBytes(_ v: CalendarDateTime, _ t: TimeOfDay, _ p: UnsafeMutableBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        guard dateBytes(v.date, p, &i) else { return false }
        p[i] = UInt8(ascii: "T")
        i += 1
        guard timeBytes(t, p, &i) else { return false }
        if v.reference == .utc {
            p[i] = UInt8(ascii: "Z")
            i += 1
        }
        return true
    }

    private struct Scanner {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { b = bytes }

        var atEnd: Bool { i == b.count }

        /// Takes `c` if it comes next. A scalar rather than a Character: `Character.asciiValue`
        /// walked the Character's scalars on every call, a third of parsing a date-time.
        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard i < b.count, b[i] == UInt8(ascii: c) else { return false }
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

    /// Runs `body` on a scanner over the text's UTF-8, without copying it.
    private static func scanning<R>(_ text: String, _ body: (inout Scanner) -> R) -> R {
        var text = text
        return text.withUTF8 { bytes in
            var s = Scanner(bytes)
            return body(&s)
        }
    }

    /// Parses `2024-05-01`, requiring a real day.
    public static func parseDate(_ text: String) -> CalendarDate? {
        scanning(text) { s in
            guard let d = scanDate(&s), s.atEnd else { return nil }
            return d
        }
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
        scanning(text) { s in
            guard let t = scanTime(&s) else { return nil }
            let utc = s.take("Z")
            return s.atEnd ? (t, utc) : nil
        }
    }

    /// Parses `2024-05-01T09:00:00` (floating) or `2024-05-01T09:00:00Z` (UTC); with
    /// `allowDate`, also a bare date.
    public static func parseDateTime(_ text: String, allowDate: Bool = false) -> CalendarDateTime? {
        scanning(text) { s in scanDateTime(&s, allowDate: allowDate) }
    }

    /// Parses the date-time `bytes` hold, as `parseDateTime` does a String's.
    public static func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>, allowDate: Bool = false) -> CalendarDateTime? {
        var s = Scanner(bytes)
        return scanDateTime(&s, allowDate: allowDate)
    }

    private static func scanDateTime(_ s: inout Scanner, allowDate: Bool) -> CalendarDateTime? {
        guard let date = scanDate(&s) else { return nil }
        if s.atEnd { return allowDate ? CalendarDateTime(date: date) : nil }
        guard s.take("T"), let time = scanTime(&s) else { return nil }
        let utc = s.take("Z")
        guard s.atEnd else { return nil }
        return CalendarDateTime(date: date, time: time, reference: utc ? .utc : .floating)
    }

    /// Parses a duration in RFC 5545's form (weeks may combine with days, as ISO 8601 allows).
    public static func parseDuration(_ text: String) -> CalendarDuration? {
        scanning(text) { s in scanDuration(&s) }
    }

    private static func scanDuration(_ s: inout Scanner) -> CalendarDuration? {
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
        scanning(text) { s in scanUTCOffset(&s) }
    }

    private static func scanUTCOffset(_ s: inout Scanner) -> Int? {
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
