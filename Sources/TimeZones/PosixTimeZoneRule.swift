import CalendarModel

/// The POSIX TZ string at the end of a TZif file (RFC 8536 §3.3), such as
/// `EST5EDT,M3.2.0,M11.1.0`: how the zone behaves after its last listed transition.
public struct PosixTimeZoneRule: Hashable, Sendable {
    /// When in a year a change happens (POSIX `Jn`, `n` or `Mm.w.d`) and at what local time.
    public struct DateRule: Hashable, Sendable {
        /// The three POSIX ways to name a day.
        public enum Day: Hashable, Sendable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        /// The day of the change.
        public var day: Day
        /// Local time of the change in seconds; may be negative or exceed a day (RFC 8536 §3.3.1).
        public var time: Int

        /// The day this rule names in `year`.
        public func date(in year: Int) -> CalendarDate {
            switch day {
            case .julianNoLeap(let n):
                let start = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch
                let leapShift = CalendarDate.isLeapYear(year) && n >= 60 ? 1 : 0
                return CalendarDate(daysSinceEpoch: start + n - 1 + leapShift)
            case .zeroBased(let n):
                return CalendarDate(daysSinceEpoch: CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch + n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CalendarDate(year: year, month: month, day: 1)
                let firstWeekday = first.isoWeekday % 7  // 0 = Sunday, as POSIX counts
                var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = CalendarDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }
                return CalendarDate(year: year, month: month, day: day)
            }
        }
    }

    /// The abbreviation of standard time (`EST`, `-03`).
    public var standardAbbreviation: String
    /// Standard offset in seconds east of UTC (POSIX writes it west-positive; this is not).
    public var standardOffset: Int
    /// The abbreviation of daylight time; nil for a zone without it.
    public var daylightAbbreviation: String?
    /// Daylight offset in seconds east of UTC (standard + 1 h unless stated).
    public var daylightOffset: Int?
    /// When daylight time starts and ends; nil for a zone without daylight time.
    public var daylightStart: DateRule?
    /// When daylight time ends.
    public var daylightEnd: DateRule?

    /// Parses a POSIX TZ string; returns nil when it is malformed.
    public init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let std = scanner.name(), let stdOffset = scanner.offset() else { return nil }
        standardAbbreviation = std
        standardOffset = -stdOffset
        guard !scanner.atEnd else { return }
        guard let dst = scanner.name() else { return nil }
        daylightAbbreviation = dst
        if scanner.peek != UInt8(ascii: ","), !scanner.atEnd {
            guard let dstOffset = scanner.offset() else { return nil }
            daylightOffset = -dstOffset
        } else {
            daylightOffset = standardOffset + 3600
        }
        // Without a rule POSIX leaves the dates to the implementation; tzcode uses US rules.
        guard scanner.take(UInt8(ascii: ",")) else { return nil }
        guard let start = scanner.dateRule(), scanner.take(UInt8(ascii: ",")), let end = scanner.dateRule(),
            scanner.atEnd
        else { return nil }
        daylightStart = start
        daylightEnd = end
    }

    /// The transitions this rule makes in `year`, in order.
    public func transitions(in year: Int) -> [ZoneTransition] {
        guard let start = daylightStart, let end = daylightEnd, let daylight = daylightOffset else { return [] }
        // A zone on daylight time all year is written with a start on Jan 1 at 0:00 and an end
        // at Dec 31 24:00 + the difference (RFC 8536 §3.3.1); it has no real transitions.
        let on = start.date(in: year).daysSinceEpoch * 86_400 + start.time - standardOffset
        let off = end.date(in: year).daysSinceEpoch * 86_400 + end.time - daylight
        let yearStart = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch * 86_400
        let yearEnd = CalendarDate(year: year + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        if on <= yearStart - standardOffset && off >= yearEnd - daylight { return [] }
        let daylightStarts = ZoneTransition(
            utcSeconds: on, offsetBefore: standardOffset, offsetAfter: daylight, isDaylight: true,
            abbreviation: daylightAbbreviation)
        let daylightEnds = ZoneTransition(
            utcSeconds: off, offsetBefore: daylight, offsetAfter: standardOffset, isDaylight: false,
            abbreviation: standardAbbreviation)
        return on < off ? [daylightStarts, daylightEnds] : [daylightEnds, daylightStarts]
    }

    /// Whether the zone keeps daylight time all year under this rule.
    var isPermanentDaylight: Bool {
        guard daylightStart != nil else { return false }
        return transitions(in: 2001).isEmpty
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func name() -> String? {
            if take(UInt8(ascii: "<")) {
                let start = index
                while let b = peek, b != UInt8(ascii: ">") { index += 1 }
                let name = String(decoding: bytes[start..<index], as: UTF8.self)
                return take(UInt8(ascii: ">")) ? name : nil
            }
            let start = index
            while let b = peek, (b >= 65 && b <= 90) || (b >= 97 && b <= 122) { index += 1 }
            return index - start >= 3 ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        mutating func number() -> Int? {
            var value = 0
            var digits = 0
            while let b = peek, b >= 48 && b <= 57 {
                value = value * 10 + Int(b - 48)
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, sign as written.
        mutating func offset() -> Int? {
            var sign = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number() else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let s = number() else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        mutating func dateRule() -> DateRule? {
            let day: DateRule.Day
            if take(UInt8(ascii: "M")) {
                guard let m = number(), take(UInt8(ascii: ".")), let w = number(), take(UInt8(ascii: ".")),
                    let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d)
                else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else if take(UInt8(ascii: "J")) {
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julianNoLeap(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take(UInt8(ascii: "/")) {
                guard let t = offset() else { return nil }
                time = t
            }
            return DateRule(day: day, time: time)
        }
    }
}
