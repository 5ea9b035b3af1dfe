import CalendarModel
import ICalendarData

extension ValueCodec {
    /// The text form of a value, and the VALUE type to declare when it differs from the
    /// property's default.
    static func format(_ value: PropertyValue, definition: PropertyDefinition?) -> (text: String, type: String?) {
        func declare(_ t: ValueType) -> String? {
            // Unknown properties default to no type at all, so any typed value must say its type.
            guard let definition else { return t.rawValue }
            return definition.defaultType == t ? nil : t.rawValue
        }
        switch value {
        case .text(let parts):
            return (parts.map(escape).joined(separator: ","), declare(.text))
        case .dateTimes(let dates):
            let isDate = dates.first?.isDateOnly ?? false
            return (dates.map(\.basicISO).joined(separator: ","), declare(isDate ? .date : .dateTime))
        case .periods(let periods):
            return (periods.map(format(period:)).joined(separator: ","), declare(.period))
        case .duration(let d): return (d.rfc5545Text, declare(.duration))
        case .utcOffset(let s): return (format(utcOffset: s), declare(.utcOffset))
        case .recurrence(let r): return (r.rfc5545Text, declare(.recur))
        case .integer(let n): return (n.map(String.init).joined(separator: ","), declare(.integer))
        case .float(let f): return (f.map(formatNumber).joined(separator: ","), declare(.float))
        case .boolean(let b): return (b ? "TRUE" : "FALSE", declare(.boolean))
        case .geo(let lat, let lon): return ("\(formatNumber(lat));\(formatNumber(lon))", nil)
        case .binary(let bytes): return (Base64.encode(bytes), declare(.binary))
        case .uri(let u): return (u, declare(.uri))
        case .calendarAddress(let a): return (a, declare(.calAddress))
        case .times(let times, let utc):
            let text = times.map { t in
                [t.hour, t.minute, t.second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined() + (utc ? "Z" : "")
            }.joined(separator: ",")
            return (text, declare(.time))
        case .unknown(let type, let literal): return (literal, type)
        }
    }

    static func formatNumber(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    static func format(period: CalendarPeriod) -> String {
        switch period.extent {
        case .end(let e): return period.start.basicISO + "/" + e.basicISO
        case .duration(let d): return period.start.basicISO + "/" + d.rfc5545Text
        }
    }

    static func format(utcOffset seconds: Int) -> String {
        let m = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var s = (seconds < 0 ? "-" : "+") + two(m / 3600) + two(m / 60 % 60)
        if m % 60 != 0 { s += two(m % 60) }
        return s
    }

    /// Appends TEXT escaped (RFC 5545 §3.3.11) to a byte buffer.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // Copy the runs between characters that need escaping in one piece each: long
            // descriptions have a few commas and newlines in hundreds of bytes.
            let n = bytes.count
            var runStart = 0
            var i = 0
            while i < n {
                let b = bytes[i]
                guard b == 0x5C || b == 0x3B || b == 0x2C || b == 0x0A || b == 0x0D else {
                    i += 1
                    continue
                }
                if i > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                switch b {
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D:
                    out.append(0x5C)
                    out.append(UInt8(ascii: "n"))
                    if i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
                default: out.append(0x5C); out.append(b)
                }
                i += 1
                runStart = i
            }
            if n > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
        }
    }

    /// TEXT escaping (RFC 5545 §3.3.11).
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x3B: out += [0x5C, 0x3B]
            case 0x2C: out += [0x5C, 0x2C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D:
                // CRLF inside text is one line break.
                out += [0x5C, UInt8(ascii: "n")]
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            default: out.append(b)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
