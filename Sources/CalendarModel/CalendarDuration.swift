/// A nominal duration as RFC 5545 §3.3.6 defines it: weeks and days follow the calendar,
/// hours, minutes and seconds are exact.
public struct CalendarDuration: Hashable, Sendable {
    public var isNegative: Bool
    public var weeks: Int
    public var days: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int

    /// Every field of a duration a reader accepts is below this (2^40): far beyond any date
    /// RFC 5545 can write, and small enough that `totalSeconds`, and a date moved by it, cannot
    /// overflow. Readers refuse larger numbers as they refuse any malformed DURATION.
    public static let fieldLimit = 1 << 40

    public init(isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.isNegative = isNegative
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// A duration of exactly `totalSeconds`, spelled in days, hours, minutes and seconds.
    public init(seconds totalSeconds: Int) {
        let magnitude = abs(totalSeconds)
        self.init(
            isNegative: totalSeconds < 0, days: magnitude / 86_400, hours: magnitude / 3600 % 24,
            minutes: magnitude / 60 % 60, seconds: magnitude % 60)
    }

    /// The duration in seconds, counting a day as 86 400 seconds; saturated at ±(Int.max / 4)
    /// for a duration built with fields beyond `fieldLimit`, so it never traps and a date moved
    /// by it is out of every range rather than an overflow.
    public var totalSeconds: Int {
        let limit = UInt(Self.fieldLimit)
        guard weeks.magnitude < limit, days.magnitude < limit, hours.magnitude < limit, minutes.magnitude < limit,
            seconds.magnitude < limit
        else {
            // Out of every calendar's range: fields this large can only come from code.
            let largest = [weeks, days, hours, minutes, seconds].max { $0.magnitude < $1.magnitude } ?? 0
            let positive = (largest > 0) != isNegative
            return positive ? Int.max / 4 : -(Int.max / 4)
        }
        // Below 2^40 each, the sum is below 2^60: no overflow.
        let magnitude = ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + seconds
        return isNegative ? -magnitude : magnitude
    }

    /// RFC 5545 §3.3.6's text (`-P1W`, `PT15M`, `P1DT12H`), every field as it is so the value
    /// reads back identical; zero is `PT0S`. jCal, xCal, JSCalendar and CalDAV write the same text.
    public var rfc5545Text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendRFC5545Text(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `rfc5545Text` as UTF-8.
    @inlinable
    public func appendRFC5545Text(to bytes: inout some UTF8Output) {
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        bytes.append(UInt8(ascii: "P"))
        func field(_ n: Int, _ unit: Unicode.Scalar) {
            guard n != 0 else { return }
            bytes.appendDecimal(n)
            bytes.append(UInt8(ascii: unit))
        }
        field(weeks, "W")
        field(days, "D")
        if hours != 0 || minutes != 0 || seconds != 0 {
            bytes.append(UInt8(ascii: "T"))
            field(hours, "H")
            field(minutes, "M")
            field(seconds, "S")
        } else if weeks == 0 && days == 0 {
            bytes.append(UInt8(ascii: "T"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "S"))
        }
    }

    /// Whole days (weeks included) when the duration has no time part, else nil.
    public var wholeDays: Int? {
        guard hours == 0, minutes == 0, seconds == 0 else { return nil }
        let d = weeks * 7 + days
        return isNegative ? -d : d
    }
}

/// A PERIOD value (RFC 5545 §3.3.9): a start and either an end or a duration.
public struct CalendarPeriod: Hashable, Sendable {
    public enum Extent: Hashable, Sendable {
        case end(CalendarDateTime)
        case duration(CalendarDuration)
    }

    public var start: CalendarDateTime
    public var extent: Extent

    public init(start: CalendarDateTime, extent: Extent) {
        self.start = start
        self.extent = extent
    }
}
