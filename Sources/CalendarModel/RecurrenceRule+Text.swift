// RFC 5545 §3.3.10's text form is the lingua franca of recurrence rules: ICS writes it, and
// CSV, EventKit descriptions and Exchange exports quote it. It lives with the model for that
// reason; jCal, xCal and JSCalendar map the structured fields instead.

extension RecurrenceRule {
    /// A rule that does not parse or breaks RFC 5545's constraints.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Parses `FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20240101T000000Z`. Part names are case-insensitive;
    /// unknown `X-` parts are kept in `extensionParts`.
    public init(rfc5545 text: String) throws {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen = Set<String>()
        func fail(_ message: String) -> SyntaxError { SyntaxError(message: "RRULE \(text): \(message)") }
        func ints(_ value: String, _ name: String, _ range: ClosedRange<Int>, zero: Bool = false) throws -> [Int] {
            try value[...].parts(separatedBy: ",").map { part in
                guard let n = Int(part.trimmingSpaces), range.contains(n), zero || n != 0 else {
                    throw fail("\(name) value '\(part)' is out of range \(range)")
                }
                return n
            }
        }
        for part in text[...].parts(separatedBy: ";", omittingEmpty: true) {
            guard let eq = part.firstIndex(of: "=") else { throw fail("part '\(part)' has no '='") }
            let name = part[..<eq].trimmingSpaces.uppercased()
            let value = String(part[part.index(after: eq)...]).trimmingSpaces
            if !name.hasPrefix("X-") && !seen.insert(name).inserted { throw fail("\(name) appears twice") }
            switch name {
            case "FREQ":
                guard let f = Frequency(rawValue: value.uppercased()) else { throw fail("unknown FREQ '\(value)'") }
                frequency = f
            case "INTERVAL":
                guard let n = Int(value), n >= 1 else { throw fail("INTERVAL must be a positive integer") }
                rule.interval = n
                rule.intervalWasExplicit = true
            case "COUNT":
                guard let n = Int(value), n >= 1 else { throw fail("COUNT must be a positive integer") }
                if case .until = rule.end { throw fail("UNTIL and COUNT must not both appear") }
                rule.end = .count(n)
            case "UNTIL":
                guard let d = CalendarDateTime(basicISO: value) else { throw fail("UNTIL '\(value)' is not a date or date-time") }
                if case .count = rule.end { throw fail("UNTIL and COUNT must not both appear") }
                rule.end = .until(d)
            case "BYSECOND": rule.bySecond = try ints(value, name, PartRange.second, zero: true)
            case "BYMINUTE": rule.byMinute = try ints(value, name, PartRange.minute, zero: true)
            case "BYHOUR": rule.byHour = try ints(value, name, PartRange.hour, zero: true)
            case "BYMONTHDAY": rule.daysOfTheMonth = try ints(value, name, PartRange.dayOfTheMonth)
            // RSCALE (written first, as writers do) sets the range.
            case "BYYEARDAY": rule.daysOfTheYear = try ints(value, name, PartRange.dayOfTheYear(nonGregorian: rule.hasNonGregorianScale))
            case "BYWEEKNO": rule.weeksOfTheYear = try ints(value, name, PartRange.weekOfTheYear)
            case "BYSETPOS": rule.setPositions = try ints(value, name, PartRange.setPosition)
            case "BYMONTH":
                rule.months = try value[...].parts(separatedBy: ",").map { raw in
                    var s = raw.trimmingSpaces.uppercased()
                    let leap = s.hasSuffix("L")
                    if leap { s.removeLast() }
                    guard let n = Int(s), PartRange.month.contains(n) else { throw fail("BYMONTH value '\(raw)' is out of range 1...12") }
                    return Month(n, isLeap: leap)
                }
            case "BYDAY":
                rule.daysOfTheWeek = try value[...].parts(separatedBy: ",").map { raw in
                    let s = raw.trimmingSpaces.uppercased()
                    guard s.count >= 2, let day = Weekday(code: String(s.suffix(2))) else {
                        throw fail("BYDAY value '\(raw)' is not a weekday")
                    }
                    let ordinalText = s.dropLast(2)
                    var ordinal = 0
                    if !ordinalText.isEmpty {
                        guard let n = Int(ordinalText.hasPrefix("+") ? String(ordinalText.dropFirst()) : String(ordinalText)),
                            n != 0, PartRange.weekOfTheYear.contains(n)
                        else { throw fail("BYDAY ordinal in '\(raw)' is out of range") }
                        ordinal = n
                    }
                    return DayOfWeek(day, weekNumber: ordinal)
                }
            case "WKST":
                guard let day = Weekday(code: value) else { throw fail("WKST '\(value)' is not a weekday") }
                rule.firstDayOfTheWeek = day
            case "RSCALE": rule.scale = value.uppercased()
            case "SKIP": rule.skip = value.uppercased()
            default:
                rule.extensionParts.append((name: name, value: value))
            }
        }
        guard let frequency else { throw fail("FREQ is missing") }
        rule.frequency = frequency
        self = rule
    }

    /// RFC 5545 §3.3.10's ranges of the parts' values; zero is a value only of the time parts.
    public enum PartRange {
        public static let second = 0...60
        public static let minute = 0...59
        public static let hour = 0...23
        public static let dayOfTheMonth = -31...31
        public static let weekOfTheYear = -53...53
        public static let setPosition = -366...366
        /// Month 13 exists in some calendar systems (RFC 7529).
        public static let month = 1...13
        /// RFC 7529 §4: a Hebrew leap year has up to 385 days.
        public static func dayOfTheYear(nonGregorian: Bool) -> ClosedRange<Int> { nonGregorian ? -390...390 : -366...366 }
    }

    /// The first value outside `PartRange` (or an INTERVAL or COUNT below 1), in the words the text form's parser
    /// uses. Readers of structured rules (JSCalendar, calport's JSON) check with it what the text form's parser
    /// refuses, so that no rule is written that a reader of ICS would refuse.
    public var outOfRangeValue: String? {
        func first(_ name: String, _ values: [Int], _ range: ClosedRange<Int>, zero: Bool = false) -> String? {
            values.first { !range.contains($0) || (!zero && $0 == 0) }.map { "\(name) value \($0) is out of range \(range)" }
        }
        if interval < 1 { return "INTERVAL must be a positive integer" }
        if case .count(let n) = end, n < 1 { return "COUNT must be a positive integer" }
        return first("BYSECOND", bySecond, PartRange.second, zero: true) ?? first("BYMINUTE", byMinute, PartRange.minute, zero: true)
            ?? first("BYHOUR", byHour, PartRange.hour, zero: true) ?? first("BYMONTHDAY", daysOfTheMonth, PartRange.dayOfTheMonth)
            ?? first("BYYEARDAY", daysOfTheYear, PartRange.dayOfTheYear(nonGregorian: hasNonGregorianScale))
            ?? first("BYWEEKNO", weeksOfTheYear, PartRange.weekOfTheYear) ?? first("BYSETPOS", setPositions, PartRange.setPosition)
            ?? first("BYMONTH", months.map(\.number), PartRange.month)
            ?? first("BYDAY ordinal", daysOfTheWeek.map(\.weekNumber).filter { $0 != 0 }, PartRange.weekOfTheYear)
    }

    /// Constraint problems RFC 5545 §3.3.10 names, for a reader's diagnostics.
    public var validationProblems: [String] {
        var problems: [String] = []
        let hasOtherBy =
            !bySecond.isEmpty || !byMinute.isEmpty || !byHour.isEmpty || !daysOfTheWeek.isEmpty
            || !daysOfTheMonth.isEmpty || !daysOfTheYear.isEmpty || !weeksOfTheYear.isEmpty || !months.isEmpty
        if !setPositions.isEmpty && !hasOtherBy { problems.append("BYSETPOS needs another BYxxx part") }
        if !weeksOfTheYear.isEmpty && frequency != .yearly { problems.append("BYWEEKNO is only valid with FREQ=YEARLY") }
        if !daysOfTheYear.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
            problems.append("BYYEARDAY is not valid with FREQ=\(frequency.rawValue)")
        }
        if !daysOfTheMonth.isEmpty && frequency == .weekly { problems.append("BYMONTHDAY is not valid with FREQ=WEEKLY") }
        if daysOfTheWeek.contains(where: { $0.weekNumber != 0 })
            && !(frequency == .monthly || (frequency == .yearly && weeksOfTheYear.isEmpty))
        {
            problems.append("BYDAY ordinals need FREQ=MONTHLY or FREQ=YEARLY without BYWEEKNO")
        }
        if skip != nil && scale == nil { problems.append("SKIP needs RSCALE (RFC 7529); it is ignored") }
        if let scale, RecurrenceRule.calendarScaleIdentifier(scale) == nil {
            problems.append(
                "RSCALE=\(scale) names no calendar system calport knows (RFC 7529 §5; known: "
                    + RecurrenceRule.calendarScales.map { $0.uppercased() }.joined(separator: ", ") + "); the rule is kept but not expanded"
            )
        }
        if let skip, !["OMIT", "BACKWARD", "FORWARD"].contains(skip.uppercased()) {
            problems.append("SKIP=\(skip) is not OMIT, BACKWARD or FORWARD (RFC 7529 §4)")
        }
        if !hasNonGregorianScale, let day = daysOfTheYear.first(where: { abs($0) > 366 }) {
            problems.append("BYYEARDAY=\(day) is out of range -366...366 for the Gregorian calendar")
        }
        if months.contains(where: { $0.isLeap }) && RecurrenceRule.calendarScaleIdentifier(scale ?? "GREGORIAN") == "gregorian" {
            problems.append("leap months (BYMONTH=…L) need an RSCALE that has them")
        }
        return problems
    }

    /// `validationProblems` plus what only DTSTART shows (RFC 5545 §3.3.10): time parts on a
    /// DATE start, an UNTIL of the wrong kind, and day numbers no month of the rule has.
    public func validationProblems(start: CalendarDateTime?) -> [String] {
        var problems = validationProblems
        if let start {
            if start.isDateOnly && (!byHour.isEmpty || !byMinute.isEmpty || !bySecond.isEmpty) {
                problems.append("BYHOUR, BYMINUTE and BYSECOND must not be used with a DATE DTSTART; they are ignored")
            }
            if case .until(let until) = end {
                if until.isDateOnly != start.isDateOnly {
                    problems.append("UNTIL must have the same value type as DTSTART (\(start.isDateOnly ? "DATE" : "DATE-TIME"))")
                } else if !start.isDateOnly && start.reference != .floating && until.reference != .utc {
                    problems.append("UNTIL must be in UTC when DTSTART has a time zone or is in UTC")
                }
            }
        }
        if !daysOfTheMonth.isEmpty && !months.isEmpty && daysOfTheWeek.isEmpty && daysOfTheYear.isEmpty && weeksOfTheYear.isEmpty
            && !hasNonGregorianScale
        {
            let longest = months.map { CalendarDate.daysInMonth(year: 2000, month: min(max($0.number, 1), 12)) }.max() ?? 31
            if daysOfTheMonth.allSatisfy({ abs($0) > longest }) {
                let days = daysOfTheMonth.map(String.init).joined(separator: ",")
                let monthList = months.map { String($0.number) }.joined(separator: ",")
                problems.append("BYMONTHDAY=\(days) never occurs in BYMONTH=\(monthList); the rule has no instance")
            }
        }
        return problems
    }

    /// The canonical text: FREQ first, then the parts in RFC 5545's order.
    public var rfc5545Text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        appendRFC5545Text(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `rfc5545Text` as UTF-8, without the Strings and arrays of its parts.
    @inlinable
    public func appendRFC5545Text(to bytes: inout some UTF8Output) {
        var first = true
        func part(_ name: String) {
            if !first { bytes.append(UInt8(ascii: ";")) }
            first = false
            bytes.appendUTF8(name)
            bytes.append(UInt8(ascii: "="))
        }
        if let scale {
            part("RSCALE")
            bytes.appendUTF8(scale)
        }
        part("FREQ")
        bytes.appendUTF8(frequency.rawValue)
        switch end {
        case .until(let d):
            part("UNTIL")
            d.appendBasicISO(to: &bytes)
        case .count(let n):
            part("COUNT")
            bytes.appendDecimal(n)
        case nil: break
        }
        if interval != 1 || intervalWasExplicit {
            part("INTERVAL")
            bytes.appendDecimal(interval)
        }
        func list(_ name: String, _ values: [Int]) {
            guard !values.isEmpty else { return }
            part(name)
            for (index, v) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.appendDecimal(v)
            }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !daysOfTheWeek.isEmpty {
            part("BYDAY")
            for (index, day) in daysOfTheWeek.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if day.weekNumber != 0 { bytes.appendDecimal(day.weekNumber) }
                bytes.appendUTF8(day.weekday.code)
            }
        }
        list("BYMONTHDAY", daysOfTheMonth)
        list("BYYEARDAY", daysOfTheYear)
        list("BYWEEKNO", weeksOfTheYear)
        if !months.isEmpty {
            part("BYMONTH")
            for (index, month) in months.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.appendDecimal(month.number)
                if month.isLeap { bytes.append(UInt8(ascii: "L")) }
            }
        }
        list("BYSETPOS", setPositions)
        if let firstDayOfTheWeek {
            part("WKST")
            bytes.appendUTF8(firstDayOfTheWeek.code)
        }
        if let skip {
            part("SKIP")
            bytes.appendUTF8(skip)
        }
        for p in extensionParts {
            part(p.name)
            bytes.appendUTF8(p.value)
        }
    }
}

extension Substring {
    /// The parts between separators, as `split` gives them. On ASCII text every Character is
    /// one byte, so splitting the UTF-8 view gives the same parts at a fraction of the cost of
    /// the Character-wise split (a rule is parsed for every RRULE of every conversion).
    fileprivate func parts(separatedBy separator: Unicode.Scalar, omittingEmpty: Bool = false) -> [Substring] {
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return split(separator: Character(separator), omittingEmptySubsequences: omittingEmpty)
        }
        return utf8.split(separator: UInt8(ascii: separator), omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }
}

extension CalendarDateTime {
    /// Parses RFC 5545's basic forms: `20240501`, `20240501T090000`, `20240501T090000Z`.
    /// The result is floating unless it ends in Z.
    public init?(basicISO text: String) {
        var text = text
        guard let d = text.withUTF8({ CalendarDateTime(basicISO: $0) }) else { return nil }
        self = d
    }

    /// The same from UTF-8 bytes, for readers that have them (no String, no array).
    public init?(basicISO b: UnsafeBufferPointer<UInt8>) {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                n = n * 10 + Int(c - 48)
            }
            return n
        }
        guard b.count == 8 || b.count == 15 || b.count == 16, let y = number(0, 4), let m = number(4, 2), let d = number(6, 2)
        else { return nil }
        let date = CalendarDate(year: y, month: m, day: d)
        guard date.isValid else { return nil }
        if b.count == 8 {
            self.init(date: date)
            return
        }
        guard b[8] == UInt8(ascii: "T") || b[8] == UInt8(ascii: "t"), let h = number(9, 2), let mi = number(11, 2), let s = number(13, 2)
        else { return nil }
        let time = TimeOfDay(hour: h, minute: mi, second: s)
        guard time.isValid else { return nil }
        var reference = TimeReference.floating
        if b.count == 16 {
            guard b[15] == UInt8(ascii: "Z") || b[15] == UInt8(ascii: "z") else { return nil }
            reference = .utc
        }
        self.init(date: date, time: time, reference: reference)
    }

    /// RFC 5545's basic form; zoned values print their wall time (the zone travels in TZID).
    public var basicISO: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendBasicISO(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `basicISO` as UTF-8: this runs for every date-time of every conversion, so the
    /// usual 8 to 16 bytes are put together in two words and appended at once (one room check
    /// and copy, not one per digit).
    @inlinable
    public func appendBasicISO(to bytes: inout some UTF8Output) {
        guard (0...9999).contains(date.year) else {
            bytes.appendDecimal(date.year)
            bytes.appendTwoDigits(date.month)
            bytes.appendTwoDigits(date.day)
            appendBasicTime(to: &bytes)
            return
        }
        // Each pair of digits as `appendTwoDigits` spells it, the first in the low byte.
        func pair(_ n: Int) -> UInt64 {
            UInt64(UInt8(truncatingIfNeeded: 48 + n / 10)) | UInt64(UInt8(truncatingIfNeeded: 48 + n % 10)) << 8
        }
        let day = pair(date.year / 100) | pair(date.year % 100) << 16 | pair(date.month) << 32 | pair(date.day) << 48
        var words = (day.littleEndian, UInt64(0))
        var count = 8
        if let time {
            var t = UInt64(UInt8(ascii: "T")) | pair(time.hour) << 8 | pair(time.minute) << 24 | pair(time.second) << 40
            count = 15
            if case .utc = reference {
                t |= UInt64(UInt8(ascii: "Z")) << 56
                count = 16
            }
            words.1 = t.littleEndian
        }
        withUnsafeBytes(of: &words) { bytes.append(UnsafeBufferPointer(rebasing: $0.assumingMemoryBound(to: UInt8.self)[..<count])) }
    }

    /// The time part of `basicISO` (nothing for a DATE), digit by digit.
    @inlinable
    func appendBasicTime(to bytes: inout some UTF8Output) {
        if let time {
            bytes.append(UInt8(ascii: "T"))
            bytes.appendTwoDigits(time.hour)
            bytes.appendTwoDigits(time.minute)
            bytes.appendTwoDigits(time.second)
            if case .utc = reference { bytes.append(UInt8(ascii: "Z")) }
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces; rules almost never have any, so that
    /// case costs one scan and no copy beyond the String itself.
    fileprivate var trimmingSpaces: String {
        let u = utf8
        guard u.first == 0x20 || u.last == 0x20 else { return String(self) }
        var start = u.startIndex
        var end = u.endIndex
        while start < end, u[start] == 0x20 { start = u.index(after: start) }
        while end > start, u[u.index(before: end)] == 0x20 { end = u.index(before: end) }
        return String(self[start..<end])
    }
}

extension String {
    fileprivate var trimmingSpaces: String { Substring(self).trimmingSpaces }
}
