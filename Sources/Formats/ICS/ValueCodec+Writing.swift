import CalendarModel
import ICalendarData

extension ValueCodec {
    /// The VALUE type to declare for a value of type `type`: none when it is the property's
    /// default (`PropertyInfo.defaultType`); unknown properties default to no type at all, so
    /// any typed value says its type.
    static func declaredType(_ type: ValueType, defaultType: ValueType?) -> String? {
        defaultType == type ? nil : type.rawValue
    }

    /// The VALUE type to declare for a value when it differs from the property's default.
    static func declaredType(_ value: PropertyValue, defaultType: ValueType?) -> String? {
        let type: ValueType
        switch value {
        case .text: type = .text
        case .dateTimes(let dates): type = dates.first?.isDateOnly ?? false ? .date : .dateTime
        case .periods: type = .period
        case .duration: type = .duration
        case .utcOffset: type = .utcOffset
        case .recurrence: type = .recur
        case .integer: type = .integer
        case .float: type = .float
        case .boolean: type = .boolean
        case .geo: return nil
        case .binary: type = .binary
        case .uri: type = .uri
        case .calendarAddress: type = .calAddress
        case .times: type = .time
        case .unknown(let declared, _): return declared
        }
        return declaredType(type, defaultType: defaultType)
    }

    /// Appends the text form of a value (TEXT escaped) to a byte buffer.
    static func append(_ value: PropertyValue, to out: inout ICSOutputBuffer) {
        switch value {
        case .text(let parts):
            for (index, part) in parts.enumerated() {
                if index > 0 { out.append(0x2C) }
                appendEscaped(part, to: &out)
            }
        case .dateTimes(let dates):
            for (index, d) in dates.enumerated() {
                if index > 0 { out.append(0x2C) }
                d.appendBasicISO(to: &out)
            }
        case .periods(let periods):
            for (index, period) in periods.enumerated() {
                if index > 0 { out.append(0x2C) }
                period.start.appendBasicISO(to: &out)
                out.append(UInt8(ascii: "/"))
                switch period.extent {
                case .end(let e): e.appendBasicISO(to: &out)
                case .duration(let d): d.appendRFC5545Text(to: &out)
                }
            }
        case .duration(let d): d.appendRFC5545Text(to: &out)
        case .utcOffset(let s): append(utcOffset: s, to: &out)
        case .recurrence(let r): r.appendRFC5545Text(to: &out)
        case .integer(let n):
            for (index, v) in n.enumerated() {
                if index > 0 { out.append(0x2C) }
                out.appendDecimal(v)
            }
        case .float(let f): out.append(f.map(formatNumber).joined(separator: ","))
        case .boolean(let b): out.append(b ? "TRUE" : "FALSE")
        case .geo(let lat, let lon): out.append("\(formatNumber(lat));\(formatNumber(lon))")
        case .binary(let bytes): out.append(Base64.encode(bytes))
        case .uri(let u): out.append(u)
        case .calendarAddress(let a): out.append(a)
        case .times(let times, let utc):
            for (index, t) in times.enumerated() {
                if index > 0 { out.append(0x2C) }
                out.appendTwoDigits(t.hour)
                out.appendTwoDigits(t.minute)
                out.appendTwoDigits(t.second)
                if utc { out.append(UInt8(ascii: "Z")) }
            }
        case .unknown(_, let literal): out.append(literal)
        }
    }

    static func formatNumber(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    /// `+HHMM`, or `+HHMMSS` when there are seconds.
    static func append(utcOffset seconds: Int, to out: inout ICSOutputBuffer) {
        let m = abs(seconds)
        out.append(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        // Hours beyond 99 are not an offset anyone writes, but print them whole as before.
        if m / 3600 < 100 { out.appendTwoDigits(m / 3600) } else { out.appendDecimal(m / 3600) }
        out.appendTwoDigits(m / 60 % 60)
        if m % 60 != 0 { out.appendTwoDigits(m % 60) }
    }

    /// Appends TEXT escaped (RFC 5545 §3.3.11) to a byte buffer.
    static func appendEscaped(_ text: String, to out: inout ICSOutputBuffer) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            // Copy the runs between characters that need escaping in one piece each: long
            // descriptions have a few commas and newlines in hundreds of bytes, so the scan
            // looks at eight bytes at a time and jumps to the first special among them (bounds
            // checked by the loop conditions).
            let n = bytes.count
            var runStart = 0
            var i = 0
            while i < n {
                let b: UInt8
                if i + 8 <= n {
                    let hits = specials(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                    guard hits != 0 else {
                        i += 8
                        continue
                    }
                    i += hits.trailingZeroBitCount >> 3
                    b = base[i]
                } else {
                    b = base[i]
                    guard b == 0x5C || b == 0x3B || b == 0x2C || b == 0x0A || b == 0x0D else {
                        i += 1
                        continue
                    }
                }
                if i > runStart { out.append(base + runStart, count: i - runStart) }
                switch b {
                case 0x0A: out.append(0x5C, UInt8(ascii: "n"))
                case 0x0D:
                    out.append(0x5C, UInt8(ascii: "n"))
                    if i + 1 < n, base[i + 1] == 0x0A { i += 1 }
                default: out.append(0x5C, b)
                }
                i += 1
                runStart = i
            }
            if n > runStart { out.append(base + runStart, count: n - runStart) }
        }
    }

    /// The top bits of the bytes of `word` (little-endian) that are `\\`, `;`, `,`, LF or CR,
    /// exact up to the first such byte: the zero-byte test `(v - 0x01…) & ~v & 0x80…` marks
    /// every zero byte, and a byte above one only through its borrow, so the lowest mark is
    /// always a special (and there is one when any byte is).
    @inline(__always)
    private static func specials(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v }
        let hits =
            zeroBytes(word ^ (ones &* 0x5C)) | zeroBytes(word ^ (ones &* 0x3B)) | zeroBytes(word ^ (ones &* 0x2C))
            | zeroBytes(word ^ (ones &* 0x0A)) | zeroBytes(word ^ (ones &* 0x0D))
        return hits & 0x8080_8080_8080_8080
    }
}
