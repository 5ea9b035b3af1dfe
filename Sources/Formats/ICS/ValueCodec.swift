import CalendarModel
import ICalendarData

/// RFC 5545 §3.3 text forms of values: parsing raw value text into typed values and printing
/// them back.
enum ValueCodec {
    struct Failure: Error {
        var message: String
    }

    // MARK: - Parsing

    /// Whether a string holds a byte, scanning its contiguous UTF-8 directly (the generic
    /// `utf8.contains` costs several times more on this hot path).
    @inline(__always)
    static func contains(_ s: String, _ byte: UInt8) -> Bool {
        var s = s
        return s.withUTF8 { $0.contains(byte) }
    }

    /// The typed value for raw text of a given type; throws when the text is not of that type.
    static func parse(_ raw: String, as type: ValueType, list: Bool, structured: Bool = false) throws -> PropertyValue {
        switch type {
        case .text:
            if structured { return .unknown(type: nil, literal: raw) }
            return .text(list ? splitUnescaped(raw).map(unescape) : [unescape(raw)])
        case .date, .dateTime:
            let parts = list ? raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [raw]
            return .dateTimes(try parts.map { try dateTime($0, type: type) })
        case .period:
            return .periods(try raw.split(separator: ",", omittingEmptySubsequences: false).map { try period(String($0)) })
        case .duration:
            return .duration(try duration(raw))
        case .utcOffset:
            return .utcOffset(try utcOffset(raw))
        case .recur:
            do { return .recurrence(try RecurrenceRule(rfc5545: raw)) } catch let e as RecurrenceRule.SyntaxError {
                throw Failure(message: e.message)
            }
        case .integer:
            let parts = list ? raw.split(separator: ",").map(String.init) : [raw]
            return .integer(try parts.map {
                guard let n = Int(strippingPlus($0)), String(n) == $0 || "+\(n)" == $0 else { throw Failure(message: "'\($0)' is not an integer") }
                return n
            })
        case .float:
            let parts = list ? raw.split(separator: ",").map(String.init) : [raw]
            return .float(try parts.map {
                guard let d = Double(strippingPlus($0)), d.isFinite else { throw Failure(message: "'\($0)' is not a number") }
                return d
            })
        case .boolean:
            switch raw.uppercased() {
            case "TRUE": return .boolean(true)
            case "FALSE": return .boolean(false)
            default: throw Failure(message: "'\(raw)' is not TRUE or FALSE")
            }
        case .geo:
            let parts = raw.split(separator: ";", omittingEmptySubsequences: false)
            guard parts.count == 2, let lat = Double(strippingPlus(String(parts[0]))), let lon = Double(strippingPlus(String(parts[1]))),
                lat.isFinite, lon.isFinite
            else { throw Failure(message: "GEO '\(raw)' is not two numbers separated by ';'") }
            return .geo(latitude: lat, longitude: lon)
        case .binary:
            guard let bytes = Base64.decode(raw) else { throw Failure(message: "BINARY value is not valid base64") }
            return .binary(bytes)
        case .uri: return .uri(raw)
        case .calAddress: return .calendarAddress(raw)
        case .time:
            var utc = false
            let times = try raw.split(separator: ",").map { part -> TimeOfDay in
                var s = Substring(part)
                if s.hasSuffix("Z") {
                    utc = true
                    s = s.dropLast()
                }
                guard s.count == 6, let n = Int(s), n >= 0 else { throw Failure(message: "'\(part)' is not a TIME") }
                let t = TimeOfDay(hour: n / 10000, minute: n / 100 % 100, second: n % 100)
                guard t.isValid else { throw Failure(message: "'\(part)' is not a TIME") }
                return t
            }
            return .times(times, utc: utc)
        }
    }

    private static func strippingPlus(_ s: String) -> String { s.hasPrefix("+") ? String(s.dropFirst()) : s }

    static func dateTime(_ raw: String, type: ValueType) throws -> CalendarDateTime {
        guard let d = CalendarDateTime(basicISO: raw) else {
            throw Failure(message: "'\(raw)' is not a valid \(type == .date ? "DATE" : "DATE-TIME")")
        }
        return d
    }

    static func period(_ raw: String) throws -> CalendarPeriod {
        let parts = raw.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw Failure(message: "PERIOD '\(raw)' has no '/'") }
        let start = try dateTime(String(parts[0]), type: .dateTime)
        let second = String(parts[1])
        if second.hasPrefix("P") || second.hasPrefix("+P") || second.hasPrefix("-P") {
            return CalendarPeriod(start: start, extent: .duration(try duration(second)))
        }
        return CalendarPeriod(start: start, extent: .end(try dateTime(second, type: .dateTime)))
    }

    /// RFC 5545 §3.3.6: `[+-]P(nW | nD[T…] | T…)`, also accepting mixed weeks and days
    /// (common in the wild, allowed by RFC 2445's successors' errata readers).
    static func duration(_ raw: String) throws -> CalendarDuration {
        let fail = Failure(message: "'\(raw)' is not a valid DURATION")
        var d = CalendarDuration()
        var bytes = Array(raw.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            d.isNegative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "P") else { throw fail }
        bytes = bytes.dropFirst()
        var inTime = false
        var number: Int?
        var sawAny = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (m, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int(b - 48))
                guard !o1, !o2, s < 1 << 40 else { throw fail }
                number = s
            case UInt8(ascii: "T"):
                guard !inTime, number == nil else { throw fail }
                inTime = true
            case UInt8(ascii: "W"), UInt8(ascii: "D"), UInt8(ascii: "H"), UInt8(ascii: "M"), UInt8(ascii: "S"):
                guard let n = number else { throw fail }
                switch (b, inTime) {
                case (UInt8(ascii: "W"), false): d.weeks = n
                case (UInt8(ascii: "D"), false): d.days = n
                case (UInt8(ascii: "H"), true): d.hours = n
                case (UInt8(ascii: "M"), true): d.minutes = n
                case (UInt8(ascii: "S"), true): d.seconds = n
                default: throw fail
                }
                number = nil
                sawAny = true
            default: throw fail
            }
        }
        guard sawAny, number == nil else { throw fail }
        return d
    }

    static func utcOffset(_ raw: String) throws -> Int {
        let b = Array(raw.utf8)
        let fail = Failure(message: "'\(raw)' is not a valid UTC-OFFSET")
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-") else { throw fail }
        guard let n = Int(String(decoding: b[1...], as: UTF8.self)), b[1...].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw fail }
        let (h, m, s) = b.count == 5 ? (n / 100, n % 100, 0) : (n / 10000, n / 100 % 100, n % 100)
        guard m < 60, s < 60 else { throw fail }
        let seconds = h * 3600 + m * 60 + s
        return b[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// Splits on commas that are not escaped.
    static func splitUnescaped(_ raw: String) -> [String] {
        guard contains(raw, UInt8(ascii: ",")) else { return [raw] }
        var parts: [String] = []
        var current: [UInt8] = []
        var escaped = false
        for b in raw.utf8 {
            if escaped {
                current.append(b)
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                current.append(b)
                escaped = true
            } else if b == UInt8(ascii: ",") {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(b)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// Undoes TEXT escaping (RFC 5545 §3.3.11); an unknown escape keeps its backslash.
    static func unescape(_ raw: String) -> String {
        guard contains(raw, UInt8(ascii: "\\")) else { return raw }
        var raw = raw
        return raw.withUTF8 { bytes -> String in
            let n = bytes.count
            var next = bytes.firstIndex(of: UInt8(ascii: "\\"))!
            // Unescaping only shortens the text, so the result fits in the input's length.
            return String(unsafeUninitializedCapacity: n) { out in
                var written = 0
                var runStart = 0
                while true {
                    // Copy the run before the backslash in one piece.
                    let run = next - runStart
                    if run > 0 {
                        (out.baseAddress! + written).update(from: bytes.baseAddress! + runStart, count: run)
                        written += run
                    }
                    if next + 1 >= n {
                        // A trailing lone backslash stays.
                        out[written] = UInt8(ascii: "\\")
                        written += 1
                        runStart = n
                        break
                    }
                    let b = bytes[next + 1]
                    switch b {
                    case UInt8(ascii: "n"), UInt8(ascii: "N"):
                        out[written] = 0x0A
                        written += 1
                    case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                        out[written] = b
                        written += 1
                    default:
                        // An unknown escape keeps its backslash.
                        out[written] = UInt8(ascii: "\\")
                        out[written + 1] = b
                        written += 2
                    }
                    runStart = next + 2
                    var j = runStart
                    while j < n, bytes[j] != UInt8(ascii: "\\") { j += 1 }
                    if j == n { break }
                    next = j
                }
                if runStart < n {
                    (out.baseAddress! + written).update(from: bytes.baseAddress! + runStart, count: n - runStart)
                    written += n - runStart
                }
                return written
            }
        }
    }
}
