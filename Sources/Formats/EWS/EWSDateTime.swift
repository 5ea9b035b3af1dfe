import CalendarModel

/// xs:dateTime, xs:date and xs:duration as EWS writes them (`2014-03-08T13:21:32.868-08:00`,
/// `2006-11-02T22:00:00Z`, `2024-01-10T09:00:00`, `2024-01-10-08:00`, `P0DT8H0M0.0S`, `-PT30M`).
enum EWSDateTime {
    /// A wall time and its offset from UTC in seconds (nil when the text carries none).
    struct Stamp {
        var wall: CalendarDateTime
        var offset: Int?

        /// Seconds since the epoch of the instant, when the offset is known.
        var instant: Int? { offset.map { wall.wallSecondsSinceEpoch - $0 } }
    }

    static func dateTime(_ text: String) -> Stamp? {
        let b = Array(text.utf8)
        guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
            let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2)
        else { return nil }
        var i = 19
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
        }
        guard let offset = zone(b, from: i) else { return nil }
        let date = CalendarDate(year: year, month: month, day: day)
        let time = TimeOfDay(hour: hour == 24 ? 0 : hour, minute: minute, second: min(second, 59))
        guard date.isValid, time.isValid else { return nil }
        var wall = CalendarDateTime(date: date, time: time, reference: .floating)
        if hour == 24 { wall = wall.withWallSeconds(wall.wallSecondsSinceEpoch + 86_400) }
        return Stamp(wall: wall, offset: offset.value)
    }

    /// The calendar date of an xs:date (an offset, if any, is the zone the date is in: ignored).
    static func date(_ text: String) -> CalendarDate? {
        let b = Array(text.utf8)
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2)
        else { return nil }
        let date = CalendarDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// Seconds of an xs:duration with days, hours, minutes and seconds (no years or months).
    static func seconds(_ text: String) -> Int? {
        var b = Substring(text.trimmingCharacters(in: " \t\r\n"))
        var sign = 1
        if b.first == "-" {
            sign = -1
            b = b.dropFirst()
        }
        guard b.first == "P" else { return nil }
        b = b.dropFirst()
        var total = 0.0
        var inTime = false
        var digits = ""
        for c in b {
            switch c {
            case "0"..."9", ".": digits.append(c)
            case "T": inTime = true
            case "D", "H", "M", "S", "W":
                guard let value = Double(digits) else { return nil }
                digits = ""
                switch (c, inTime) {
                case ("W", false): total += value * 604_800
                case ("D", false): total += value * 86_400
                case ("H", true): total += value * 3600
                case ("M", true): total += value * 60
                case ("S", true): total += value
                default: return nil
                }
            default: return nil
            }
        }
        // Int(_:) traps beyond Int's range (a fuzzed "P99…9D"); no duration Exchange writes comes near 68 years.
        guard digits.isEmpty, total.magnitude <= Double(Int32.max) else { return nil }
        return sign * Int(total.rounded())
    }

    private static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<(start + count) {
            guard b[i] >= 48, b[i] <= 57 else { return nil }
            value = value * 10 + Int(b[i] - 48)
        }
        return value
    }

    /// The zone designator from `i`: nothing (nil value), `Z`, or `±hh:mm`; nil when malformed.
    private static func zone(_ b: [UInt8], from i: Int) -> (value: Int?, Void)? {
        if i == b.count { return (nil, ()) }
        if b[i] == UInt8(ascii: "Z"), i + 1 == b.count { return (0, ()) }
        guard b.count == i + 6, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: ":"),
            let hours = number(b, i + 1, 2), let minutes = number(b, i + 4, 2)
        else { return nil }
        return ((b[i] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60), ())
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
