import CalendarModel

/// The text forms of the flat layout's cells: ISO 8601 date-times (`2024-05-01`,
/// `2024-05-01T09:00:00`, `…Z`, or `… Europe/Berlin` where a list needs a zone per value),
/// RFC 5545 durations and rules, and `key=value` parameters whose values escape `;`, `,`, `%`
/// and line breaks as `%3B`, `%2C`, `%25`, `%0A`, `%0D`.
enum FlatText {
    // MARK: Date-times

    /// `2024-05-01`, `2024-05-01T09:00:00` or `2024-05-01T09:00:00Z`; zoned values print their wall time.
    static func text(_ value: CalendarDateTime) -> String {
        // Written as bytes into the String's own storage: one allocation per value, where
        // concatenating padded pieces made a dozen (every start, end and stamp of a row).
        String(unsafeUninitializedCapacity: 128) { out in
            var count = 0
            func put(_ byte: UInt8) {
                out[count] = byte
                count += 1
            }
            /// `n` with at least `width` digits, zeros in front, a minus sign before them.
            func pad(_ n: Int, _ width: Int) {
                if n < 0 { put(UInt8(ascii: "-")) }
                var magnitude = n.magnitude
                var digits = 1
                var divisor: UInt = 1
                while magnitude / divisor >= 10 {
                    divisor *= 10
                    digits += 1
                }
                for _ in digits..<max(digits, width) { put(UInt8(ascii: "0")) }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(magnitude / divisor))
                    magnitude %= divisor
                    divisor /= 10
                }
            }
            pad(value.date.year, 4)
            put(UInt8(ascii: "-"))
            pad(value.date.month, 2)
            put(UInt8(ascii: "-"))
            pad(value.date.day, 2)
            if let t = value.time {
                put(UInt8(ascii: "T"))
                pad(t.hour, 2)
                put(UInt8(ascii: ":"))
                pad(t.minute, 2)
                put(UInt8(ascii: ":"))
                pad(t.second, 2)
                if value.reference == .utc { put(UInt8(ascii: "Z")) }
            }
            return count
        }
    }

    /// A value with its zone after a space, for lists where each value carries its own.
    static func zonedText(_ value: CalendarDateTime) -> String {
        if case .zone(let id) = value.reference, !value.isDateOnly { return text(value) + " " + id }
        return text(value)
    }

    /// Parses what `text` writes, anchored in `zone` when it has a time and no `Z`.
    static func dateTime(_ raw: String, zone: String? = nil) -> CalendarDateTime? {
        let b = Array(raw.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for i in from..<(from + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count >= 10, let y = number(0, 4), b[4] == UInt8(ascii: "-"), let m = number(5, 2), b[7] == UInt8(ascii: "-"),
            let d = number(8, 2)
        else { return nil }
        let date = CalendarDate(year: y, month: m, day: d)
        guard date.isValid else { return nil }
        if b.count == 10 { return CalendarDateTime(date: date) }
        guard b.count == 19 || b.count == 20, b[10] == UInt8(ascii: "T"), let h = number(11, 2), b[13] == UInt8(ascii: ":"),
            let mi = number(14, 2), b[16] == UInt8(ascii: ":"), let s = number(17, 2)
        else { return nil }
        let time = TimeOfDay(hour: h, minute: mi, second: s)
        guard time.isValid else { return nil }
        if b.count == 20 {
            guard b[19] == UInt8(ascii: "Z") else { return nil }
            return CalendarDateTime(date: date, time: time, reference: .utc)
        }
        return CalendarDateTime(date: date, time: time, reference: zone.map { .zone($0) } ?? .floating)
    }

    /// Parses what `zonedText` writes.
    static func zonedDateTime(_ raw: String) -> CalendarDateTime? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        // By bytes where they tell (a Character search was most of reading a time).
        if let space = trimmed.firstIndex(ofASCII: UInt8(ascii: " ")) {
            return dateTime(String(trimmed[..<space]), zone: String(trimmed[trimmed.index(after: space)...]).trimmingCharacters(in: .whitespaces))
        }
        return dateTime(trimmed)
    }

    // MARK: Durations (RFC 5545 §3.3.6)

    /// `P1D`, `-PT15M`, `P2W`.
    static func text(_ d: CalendarDuration) -> String {
        var s = d.isNegative ? "-P" : "P"
        if d.weeks != 0 && d.days == 0 && d.hours == 0 && d.minutes == 0 && d.seconds == 0 { return s + "\(d.weeks)W" }
        let days = d.weeks * 7 + d.days
        if days != 0 { s += "\(days)D" }
        if d.hours != 0 || d.minutes != 0 || d.seconds != 0 {
            s += "T"
            if d.hours != 0 { s += "\(d.hours)H" }
            if d.minutes != 0 { s += "\(d.minutes)M" }
            if d.seconds != 0 { s += "\(d.seconds)S" }
        }
        if s.hasSuffix("P") { s += "T0S" }
        return s
    }

    /// Parses an RFC 5545 duration.
    static func duration(_ raw: String) -> CalendarDuration? {
        var chars = Substring(raw.trimmingCharacters(in: .whitespaces).uppercased())
        var d = CalendarDuration()
        if chars.hasPrefix("-") {
            d.isNegative = true
            chars = chars.dropFirst()
        } else if chars.hasPrefix("+") {
            chars = chars.dropFirst()
        }
        guard chars.hasPrefix("P") else { return nil }
        chars = chars.dropFirst()
        var inTime = false
        var number = ""
        var sawPart = false
        for c in chars {
            if c == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            } else if c.isASCII && c.isNumber {
                number.append(c)
            } else {
                guard let n = Int(number), n < CalendarDuration.fieldLimit else { return nil }
                number = ""
                sawPart = true
                switch (c, inTime) {
                case ("W", false): d.weeks = n
                case ("D", false): d.days = n
                case ("H", true): d.hours = n
                case ("M", true): d.minutes = n
                case ("S", true): d.seconds = n
                default: return nil
                }
            }
        }
        return sawPart && number.isEmpty ? d : nil
    }

    // MARK: Parameters

    /// The bytes `escape` replaces: most values have none and are returned as they are.
    private static let escapedBytes: [UInt8] = Array("%;,\n\r".utf8)

    /// Escapes the characters that separate parameters and list items.
    static func escape(_ value: String) -> String {
        guard value.utf8ContainsAny(of: escapedBytes) else { return value }
        var s = ""
        for c in value.unicodeScalars {
            switch c {
            case "%": s += "%25"
            case ";": s += "%3B"
            case ",": s += "%2C"
            case "\n": s += "%0A"
            case "\r": s += "%0D"
            default: s.unicodeScalars.append(c)
            }
        }
        return s
    }

    /// Undoes `escape`.
    static func unescape(_ value: Substring) -> String {
        // Most values have no escape: the bytes are looked through without a set to look up.
        let percent = UInt8(ascii: "%")
        guard value.utf8.withContiguousStorageIfAvailable({ $0.contains(percent) }) ?? value.utf8.contains(percent) else {
            return String(value)
        }
        var s = ""
        var i = value.startIndex
        while i < value.endIndex {
            let c = value[i]
            if c == "%", let end = value.index(i, offsetBy: 3, limitedBy: value.endIndex),
                let code = UInt8(value[value.index(after: i)..<end], radix: 16)
            {
                s.unicodeScalars.append(Unicode.Scalar(code))
                i = end
            } else {
                s.append(c)
                i = value.index(after: i)
            }
        }
        return s
    }

    /// `key=value;key=value` into pairs, in order.
    static func parameters(_ text: Substring) -> [(String, String)] {
        text.splitting(at: UInt8(ascii: ";")).map { part in
            guard let eq = part.firstIndex(ofASCII: UInt8(ascii: "=")) else {
                return (String(part).trimmingCharacters(in: .whitespaces), "")
            }
            return (String(part[..<eq]).trimmingCharacters(in: .whitespaces), unescape(part[part.utf8.index(after: eq)...]))
        }
    }

    /// The lines of a cell, without empty ones. Split on bytes: CR and LF are always Characters
    /// of their own (or CR LF one together, which leaves only an empty piece between them).
    static func lines(_ text: String) -> [Substring] {
        text.utf8Pieces { $0 == 0x0A || $0 == 0x0D }
    }
}
