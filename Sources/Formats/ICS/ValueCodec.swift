import CalendarModel
import ICalendarData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        return s.withUTF8 { contains($0, byte) }
    }

    /// Whether bytes hold a byte: memchr, which looks at many bytes at a time (long TEXT
    /// values are scanned for backslashes and commas on every read).
    @inline(__always)
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }

    /// The index of the first `byte` at or after `from`, by memchr.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress, from < bytes.count else { return nil }
        guard let found = memchr(base + from, Int32(byte), bytes.count - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The typed value for raw bytes (valid UTF-8) of the types that read straight from bytes
    /// (TEXT, DATE, DATE-TIME, DURATION, UTC-OFFSET, RECUR, INTEGER) in their usual forms; nil
    /// for other types and for text `parse(_:as:list:structured:)` must read or word the error of.
    static func parse(bytes raw: UnsafeBufferPointer<UInt8>, as type: ValueType, list: Bool, structured: Bool) -> PropertyValue? {
        switch type {
        case .text:
            if structured { return nil }
            return .text(list ? unescapedList(raw) : [unescape(raw)])
        case .date, .dateTime: return basicISODates(raw, list: list).map { .dateTimes($0) }
        case .duration: return duration(bytes: raw).map { .duration($0) }
        case .utcOffset: return utcOffset(bytes: raw).map { .utcOffset($0) }
        case .recur: return plainRecurrence(raw).map { .recurrence($0) }
        case .integer: return plainInteger(raw).map { .integer([$0]) }
        default: return nil
        }
    }

    /// The typed value for raw text of a given type; throws when the text is not of that type.
    static func parse(_ raw: String, as type: ValueType, list: Bool, structured: Bool = false) throws -> PropertyValue {
        switch type {
        case .text:
            if structured { return .unknown(type: nil, literal: raw) }
            return .text(list ? unescapedList(raw) : [unescape(raw)])
        case .date, .dateTime:
            // Straight from the bytes; the String path below only runs to word a failure.
            if let dates = basicISODates(raw, list: list) { return .dateTimes(dates) }
            let parts = list ? raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [raw]
            return .dateTimes(try parts.map { try dateTime($0, type: type) })
        case .period:
            return .periods(try raw.split(separator: ",", omittingEmptySubsequences: false).map { try period(String($0)) })
        case .duration:
            return .duration(try duration(raw))
        case .utcOffset:
            return .utcOffset(try utcOffset(raw))
        case .recur:
            if let rule = plainRecurrence(raw) { return .recurrence(rule) }
            do { return .recurrence(try RecurrenceRule(rfc5545: raw)) } catch let e as RecurrenceRule.SyntaxError {
                throw Failure(message: e.message)
            }
        case .integer:
            if let n = plainInteger(raw) { return .integer([n]) }
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

    /// DATE and DATE-TIME values read from the bytes (a list splits on every comma); nil when
    /// one is not valid.
    private static func basicISODates(_ raw: String, list: Bool) -> [CalendarDateTime]? {
        var raw = raw
        return raw.withUTF8 { basicISODates($0, list: list) }
    }

    private static func basicISODates(_ b: UnsafeBufferPointer<UInt8>, list: Bool) -> [CalendarDateTime]? {
        guard list, contains(b, UInt8(ascii: ",")) else { return CalendarDateTime(basicISO: b).map { [$0] } }
        var dates: [CalendarDateTime] = []
        var start = 0
        for i in 0...b.count where i == b.count || b[i] == UInt8(ascii: ",") {
            guard let d = CalendarDateTime(basicISO: UnsafeBufferPointer(rebasing: b[start..<i])) else { return nil }
            dates.append(d)
            start = i + 1
        }
        return dates
    }

    /// One INTEGER in its plain form (digits, no sign, no leading zero), read from the bytes;
    /// nil for anything else, which the general path then reads or rejects.
    static func plainInteger(_ raw: String) -> Int? {
        var raw = raw
        return raw.withUTF8 { plainInteger($0) }
    }

    static func plainInteger(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count >= 1, b.count <= 18, b[0] != UInt8(ascii: "0") || b.count == 1 else { return nil }
        var n = 0
        for c in b {
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
        }
        return n
    }

    /// A rule in the form writers emit (upper-case names of RFC 5545 §3.3.10, each once, plain
    /// numbers, no spaces, no RSCALE, SKIP or X- parts), read from the bytes; nil for anything
    /// else, which `RecurrenceRule(rfc5545:)` then reads or words the error of. What this takes,
    /// that reads the same (the general parser works on Strings and a set of names, and costs
    /// some 30 times as much).
    static func plainRecurrence(_ raw: String) -> RecurrenceRule? {
        var raw = raw
        return raw.withUTF8 { plainRecurrence($0) }
    }

    static func plainRecurrence(_ b: UnsafeBufferPointer<UInt8>) -> RecurrenceRule? {
        var rule = RecurrenceRule(frequency: .daily)
        var frequency: RecurrenceRule.Frequency?
        var seen: UInt16 = 0
        var start = 0
        while start < b.count {
            var end = start
            while end < b.count && b[end] != UInt8(ascii: ";") { end += 1 }
            defer { start = end + 1 }
            // Empty parts are skipped, as the general parser does.
            if end == start { continue }
            guard let eq = firstIndex(of: UInt8(ascii: "="), in: UnsafeBufferPointer(rebasing: b[start..<end]), from: 0) else {
                return nil
            }
            let name = UnsafeBufferPointer(rebasing: b[start..<(start + eq)])
            let value = UnsafeBufferPointer(rebasing: b[(start + eq + 1)..<end])
            guard let part = RecurrencePart(name) else { return nil }
            let bit: UInt16 = 1 << part.rawValue
            guard seen & bit == 0 else { return nil }
            seen |= bit
            switch part {
            case .freq:
                guard let f = recurrenceFrequency(value) else { return nil }
                frequency = f
            case .interval:
                guard let n = plainNumber(value, signed: false), n >= 1 else { return nil }
                rule.interval = n
                rule.intervalWasExplicit = true
            case .count:
                guard let n = plainNumber(value, signed: false), n >= 1, rule.end == nil else { return nil }
                rule.end = .count(n)
            case .until:
                guard let d = CalendarDateTime(basicISO: value), rule.end == nil else { return nil }
                rule.end = .until(d)
            case .bySecond: guard let l = numbers(value, 0...60, zero: true) else { return nil }; rule.bySecond = l
            case .byMinute: guard let l = numbers(value, 0...59, zero: true) else { return nil }; rule.byMinute = l
            case .byHour: guard let l = numbers(value, 0...23, zero: true) else { return nil }; rule.byHour = l
            case .byMonthDay: guard let l = numbers(value, -31...31) else { return nil }; rule.daysOfTheMonth = l
            case .byYearDay: guard let l = numbers(value, -366...366) else { return nil }; rule.daysOfTheYear = l
            case .byWeekNo: guard let l = numbers(value, -53...53) else { return nil }; rule.weeksOfTheYear = l
            case .bySetPos: guard let l = numbers(value, -366...366) else { return nil }; rule.setPositions = l
            case .byMonth:
                // Leap months (`5L`) go the general way.
                guard let l = numbers(value, 1...13) else { return nil }
                rule.months = l.map { RecurrenceRule.Month($0) }
            case .byDay:
                var days: [RecurrenceRule.DayOfWeek] = []
                var from = 0
                while true {
                    var to = from
                    while to < value.count && value[to] != UInt8(ascii: ",") { to += 1 }
                    guard to - from >= 2, let day = weekday(value[to - 2], value[to - 1]) else { return nil }
                    var ordinal = 0
                    if to - from > 2 {
                        guard let n = plainNumber(UnsafeBufferPointer(rebasing: value[from..<(to - 2)]), signed: true), n != 0, (-53...53).contains(n)
                        else { return nil }
                        ordinal = n
                    }
                    days.append(RecurrenceRule.DayOfWeek(day, weekNumber: ordinal))
                    if to == value.count { break }
                    from = to + 1
                }
                rule.daysOfTheWeek = days
            case .wkst:
                guard value.count == 2, let day = weekday(value[0], value[1]) else { return nil }
                rule.firstDayOfTheWeek = day
            }
        }
        guard let frequency else { return nil }
        rule.frequency = frequency
        return rule
    }

    /// The parts of a rule `plainRecurrence` reads, by their upper-case names.
    private enum RecurrencePart: UInt16 {
        case freq, interval, count, until, bySecond, byMinute, byHour, byMonthDay, byYearDay, byWeekNo, bySetPos, byMonth, byDay
        case wkst

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            switch String(decoding: name, as: UTF8.self) {
            case "FREQ": self = .freq
            case "INTERVAL": self = .interval
            case "COUNT": self = .count
            case "UNTIL": self = .until
            case "BYSECOND": self = .bySecond
            case "BYMINUTE": self = .byMinute
            case "BYHOUR": self = .byHour
            case "BYMONTHDAY": self = .byMonthDay
            case "BYYEARDAY": self = .byYearDay
            case "BYWEEKNO": self = .byWeekNo
            case "BYSETPOS": self = .bySetPos
            case "BYMONTH": self = .byMonth
            case "BYDAY": self = .byDay
            case "WKST": self = .wkst
            default: return nil
            }
        }
    }

    private static func recurrenceFrequency(_ value: UnsafeBufferPointer<UInt8>) -> RecurrenceRule.Frequency? {
        switch String(decoding: value, as: UTF8.self) {
        case "SECONDLY": .secondly
        case "MINUTELY": .minutely
        case "HOURLY": .hourly
        case "DAILY": .daily
        case "WEEKLY": .weekly
        case "MONTHLY": .monthly
        case "YEARLY": .yearly
        default: nil
        }
    }

    /// The weekday of an upper-case two-letter code.
    private static func weekday(_ a: UInt8, _ b: UInt8) -> RecurrenceRule.Weekday? {
        switch (a, b) {
        case (UInt8(ascii: "S"), UInt8(ascii: "U")): .sunday
        case (UInt8(ascii: "M"), UInt8(ascii: "O")): .monday
        case (UInt8(ascii: "T"), UInt8(ascii: "U")): .tuesday
        case (UInt8(ascii: "W"), UInt8(ascii: "E")): .wednesday
        case (UInt8(ascii: "T"), UInt8(ascii: "H")): .thursday
        case (UInt8(ascii: "F"), UInt8(ascii: "R")): .friday
        case (UInt8(ascii: "S"), UInt8(ascii: "A")): .saturday
        default: nil
        }
    }

    /// A comma-separated list of plain numbers in `range` (0 only when `zero`); nil for an empty
    /// item or anything out of range.
    private static func numbers(_ value: UnsafeBufferPointer<UInt8>, _ range: ClosedRange<Int>, zero: Bool = false) -> [Int]? {
        var list: [Int] = []
        var from = 0
        while true {
            var to = from
            while to < value.count && value[to] != UInt8(ascii: ",") { to += 1 }
            guard let n = plainNumber(UnsafeBufferPointer(rebasing: value[from..<to]), signed: true), range.contains(n), zero || n != 0
            else { return nil }
            list.append(n)
            if to == value.count { return list }
            from = to + 1
        }
    }

    /// Up to six digits, after a `+` or `-` when `signed`; nil for anything else.
    private static func plainNumber(_ b: UnsafeBufferPointer<UInt8>, signed: Bool) -> Int? {
        var i = 0
        var negative = false
        if signed, let first = b.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            i = 1
        }
        guard b.count > i, b.count - i <= 6 else { return nil }
        var n = 0
        while i < b.count {
            let c = b[i]
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
            i += 1
        }
        return negative ? -n : n
    }

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
        var text = raw
        guard let d = text.withUTF8({ duration(bytes: $0) }) else { throw Failure(message: "'\(raw)' is not a valid DURATION") }
        return d
    }

    /// The same from bytes; nil when they are not a DURATION.
    static func duration(bytes all: UnsafeBufferPointer<UInt8>) -> CalendarDuration? {
        var d = CalendarDuration()
        var bytes = all[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            d.isNegative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        bytes = bytes.dropFirst()
        var inTime = false
        var number: Int?
        var sawAny = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (m, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int(b - 48))
                guard !o1, !o2, s < CalendarDuration.fieldLimit else { return nil }
                number = s
            case UInt8(ascii: "T"):
                guard !inTime, number == nil else { return nil }
                inTime = true
            case UInt8(ascii: "W"), UInt8(ascii: "D"), UInt8(ascii: "H"), UInt8(ascii: "M"), UInt8(ascii: "S"):
                guard let n = number else { return nil }
                switch (b, inTime) {
                case (UInt8(ascii: "W"), false): d.weeks = n
                case (UInt8(ascii: "D"), false): d.days = n
                case (UInt8(ascii: "H"), true): d.hours = n
                case (UInt8(ascii: "M"), true): d.minutes = n
                case (UInt8(ascii: "S"), true): d.seconds = n
                default: return nil
                }
                number = nil
                sawAny = true
            default: return nil
            }
        }
        guard sawAny, number == nil else { return nil }
        return d
    }

    static func utcOffset(_ raw: String) throws -> Int {
        var text = raw
        guard let seconds = text.withUTF8({ utcOffset(bytes: $0) }) else { throw Failure(message: "'\(raw)' is not a valid UTC-OFFSET") }
        return seconds
    }

    /// The same from bytes; nil when they are not a UTC-OFFSET.
    static func utcOffset(bytes b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-") else { return nil }
        var n = 0
        for c in b[1...] {
            guard c >= 48 && c <= 57 else { return nil }
            n = n * 10 + Int(c - 48)
        }
        let (h, m, s) = b.count == 5 ? (n / 100, n % 100, 0) : (n / 10000, n / 100 % 100, n % 100)
        guard m < 60, s < 60 else { return nil }
        let seconds = h * 3600 + m * 60 + s
        return b[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// A TEXT list: split on the commas that are not escaped, each item unescaped, in one pass
    /// over the bytes.
    static func unescapedList(_ raw: String) -> [String] {
        var text = raw
        let plain = text.withUTF8 { !contains($0, UInt8(ascii: ",")) && !contains($0, UInt8(ascii: "\\")) }
        if plain { return [raw] }
        return text.withUTF8 { unescapedList($0) }
    }

    /// The same from bytes (valid UTF-8).
    static func unescapedList(_ b: UnsafeBufferPointer<UInt8>) -> [String] {
        if !contains(b, UInt8(ascii: ",")) { return [unescape(b)] }
        var parts: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                guard i + 1 < b.count else {
                    // A trailing lone backslash stays.
                    current.append(c)
                    break
                }
                appendUnescaped(b[i + 1], to: &current)
                i += 2
            } else if c == UInt8(ascii: ",") {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                i += 1
            } else {
                current.append(c)
                i += 1
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// What a backslash followed by `b` stands for; an unknown escape keeps its backslash.
    @inline(__always)
    private static func appendUnescaped(_ b: UInt8, to out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(0x0A)
        case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","): out.append(b)
        default:
            out.append(UInt8(ascii: "\\"))
            out.append(b)
        }
    }

    /// Undoes TEXT escaping (RFC 5545 §3.3.11); an unknown escape keeps its backslash.
    static func unescape(_ raw: String) -> String {
        var raw = raw
        guard let found = raw.withUTF8({ firstIndex(of: UInt8(ascii: "\\"), in: $0, from: 0) }) else { return raw }
        return raw.withUTF8 { unescape($0, from: found) }
    }

    /// The same from bytes (valid UTF-8); a common word without escapes (a STATUS, CLASS or
    /// TRANSP value, …) gets the shared String.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let found = firstIndex(of: UInt8(ascii: "\\"), in: bytes, from: 0) else {
            return CommonWord.string(bytes) ?? String(decoding: bytes, as: UTF8.self)
        }
        return unescape(bytes, from: found)
    }

    /// The text of `bytes`, whose first backslash is at `found`, unescaped.
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, from found: Int) -> String {
        let n = bytes.count
        var next = found
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
                guard let j = firstIndex(of: UInt8(ascii: "\\"), in: bytes, from: runStart) else { break }
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
