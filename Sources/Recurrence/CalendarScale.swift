internal import CICUShim
import CalendarModel
import Foundation

/// A calendar system an RFC 7529 RSCALE names (Chinese, Hebrew, Islamic, Persian, …), seen
/// through ICU as years of months laid out on Gregorian days.
///
/// One object per calendar for the whole process: ICU's calendar objects are costly to make and
/// its lunisolar years costly to compute, so each year's layout is computed once and kept (a
/// century of a Chinese rule is a hundred small arrays). ICU calendars are not thread-safe: every
/// call into ICU holds the lock.
///
/// Where a year's months come from (`Source`): the system's ICU through the C shim, except for
/// two calendars it gets wrong. ICU 72 (Debian 12) places Chinese new moons near midnight on
/// the wrong day (New Year 2027-02-07 and 2030-02-02; the Hong Kong Observatory, lunardate and
/// Foundation's newer ICU say 02-06 and 02-03), so the Chinese calendar comes from the ICU that
/// Foundation carries (also six times faster there). Both ICUs start Hebrew year 5807 a day late
/// (2046-10-02: they apply the "BeTUTaKPaT" postponement after the "Lo ADU" one), so Hebrew years
/// are laid out by the calendar's own arithmetic (`HebrewYears`), as pyluach, convertdate and
/// Calendrical Calculations do.
public final class CalendarScale: @unchecked Sendable {
    /// One month of a year: its RFC 7529 label and where it lies in Gregorian days.
    public struct Month: Hashable, Sendable {
        /// RFC 7529 §4.2 number: 1…N for regular months; a leap month carries the number of the
        /// month it follows.
        public var number: Int
        /// Whether this is a leap month (`5L`).
        public var isLeap: Bool
        /// Its first day, in days since 1970-01-01.
        public var firstDay: Int
        /// Its length in days.
        public var length: Int
    }

    /// One year of the calendar (ICU's extended year: continuous, no eras).
    public struct Year: Hashable, Sendable {
        public var number: Int
        public var months: [Month]
        /// The year's first day, in days since 1970-01-01.
        public var firstDay: Int { months.first?.firstDay ?? 0 }
        /// Days in the year.
        public var length: Int { months.last.map { $0.firstDay + $0.length - firstDay } ?? 0 }
    }

    /// A day of the calendar: year, index of the month within that year, day of the month.
    public struct DayPosition: Hashable, Sendable {
        public var year: Int
        public var monthIndex: Int
        public var day: Int
    }

    /// Where the layouts of years come from.
    private enum Source {
        /// The system ICU, through CICUShim.
        case icu(OpaquePointer)
        /// Foundation's Calendar (the ICU the toolchain bundles); Chinese years (60-year cycles).
        case foundationChinese(Foundation.Calendar)
        /// The Hebrew calendar's arithmetic.
        case hebrew
    }

    /// The CLDR calendar name ICU uses (`chinese`, `islamic-umalqura`).
    public let identifier: String
    private let source: Source
    private let lock = NSLock()
    private var years: [Int: Year] = [:]

    private init(identifier: String, source: Source) {
        self.identifier = identifier
        self.source = source
    }

    deinit {
        if case .icu(let handle) = source { cp_icu_scale_close(handle) }
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var opened: [String: CalendarScale] = [:]

    /// The calendar an RSCALE value names; nil for the Gregorian calendar (which the rule engine
    /// expands itself) — throws for a name ICU has no calendar for.
    public static func forRSCALE(_ rscale: String) throws -> CalendarScale? {
        guard let name = RecurrenceRule.calendarScaleIdentifier(rscale) else {
            throw RecurrenceError(
                .unsupported,
                "RSCALE=\(rscale) names no calendar system calport knows (RFC 7529 §5; known: "
                    + RecurrenceRule.calendarScales.map { $0.uppercased() }.joined(separator: ", ") + "); the rule is not expanded")
        }
        if name == "gregorian" { return nil }
        registryLock.lock()
        defer { registryLock.unlock() }
        if let scale = opened[name] { return scale }
        let source: Source
        switch name {
        case "chinese":
            var calendar = Foundation.Calendar(identifier: .chinese)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            source = .foundationChinese(calendar)
        case "hebrew":
            source = .hebrew
        default:
            guard let handle = cp_icu_scale_open(name) else {
                throw RecurrenceError(.unsupported, "RSCALE=\(rscale): ICU on this machine has no \(name) calendar")
            }
            source = .icu(handle)
        }
        let scale = CalendarScale(identifier: name, source: source)
        opened[name] = scale
        return scale
    }

    /// The months of one (extended) year; nil when ICU cannot compute it.
    public func year(_ number: Int) -> Year? {
        lock.lock()
        defer { lock.unlock() }
        return lockedYear(number)
    }

    private func lockedYear(_ number: Int) -> Year? {
        if let year = years[number] { return year }
        let months: [Month]
        switch source {
        case .icu(let handle): months = icuMonths(handle, number)
        case .foundationChinese(let calendar): months = chineseMonths(calendar, number)
        case .hebrew: months = HebrewYears.months(ofYear: number)
        }
        guard !months.isEmpty else { return nil }
        let year = Year(number: number, months: months)
        years[number] = year
        return year
    }

    private func icuMonths(_ handle: OpaquePointer, _ number: Int) -> [Month] {
        guard let year32 = Int32(exactly: number) else { return [] }
        var numbers = [Int32](repeating: 0, count: 16)
        var leaps = [Int32](repeating: 0, count: 16)
        var firsts = [Int64](repeating: 0, count: 16)
        var lengths = [Int32](repeating: 0, count: 16)
        let count = cp_icu_scale_year(handle, year32, &numbers, &leaps, &firsts, &lengths, 16)
        guard count > 0 else { return [] }
        return (0..<Int(count)).map {
            Month(number: Int(numbers[$0]), isLeap: leaps[$0] != 0, firstDay: Int(firsts[$0]), length: Int(lengths[$0]))
        }
    }

    /// A Chinese year (ICU's extended year: 4650 began in 2013) from Foundation: the first day
    /// of each regular month and of the next year; a gap longer than a month holds the leap
    /// month, which is asked for by its leap flag.
    private func chineseMonths(_ calendar: Foundation.Calendar, _ number: Int) -> [Month] {
        func start(_ year: Int, _ month: Int, leap: Bool) -> Int? {
            var c = DateComponents()
            c.era = RuleEngine.floorDiv(year - 1, 60) + 1
            c.year = RuleEngine.floorMod(year - 1, 60) + 1
            c.month = month
            c.day = 1
            c.isLeapMonth = leap
            guard let date = calendar.date(from: c) else { return nil }
            // Foundation normalizes a leap month a year lacks into another month: refuse that.
            if leap && calendar.component(.month, from: date) != month { return nil }
            return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        }
        var starts: [Int] = []
        for month in 1...12 {
            guard let day = start(number, month, leap: false) else { return [] }
            starts.append(day)
        }
        guard let next = start(number + 1, 1, leap: false) else { return [] }
        starts.append(next)
        var months: [Month] = []
        for month in 1...12 {
            let first = starts[month - 1]
            let gap = starts[month] - first
            if gap > 31, let leapStart = start(number, month, leap: true), leapStart > first, leapStart < starts[month] {
                months.append(Month(number: month, isLeap: false, firstDay: first, length: leapStart - first))
                months.append(Month(number: month, isLeap: true, firstDay: leapStart, length: starts[month] - leapStart))
            } else {
                months.append(Month(number: month, isLeap: false, firstDay: first, length: gap))
            }
        }
        return months
    }

    /// A year near a day (exact, or one off near a year's ends), to start `position`'s search.
    private func approximateYear(ofDay day: Int) -> Int? {
        switch source {
        case .icu(let handle):
            var extendedYear: Int32 = 0
            var month: Int32 = 0
            var leap: Int32 = 0
            var dayOfMonth: Int32 = 0
            guard cp_icu_scale_date(handle, Int64(day), &extendedYear, &month, &leap, &dayOfMonth) == 1 else { return nil }
            return Int(extendedYear)
        case .foundationChinese(let calendar):
            let c = calendar.dateComponents([.era, .year], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            guard let era = c.era, let year = c.year else { return nil }
            return (era - 1) * 60 + year
        case .hebrew:
            return HebrewYears.approximateYear(ofDay: day)
        }
    }

    /// A known year and its first day, and the mean year length, from which `position(ofDay:)`
    /// guesses a day's year; set by the first call (ICU's time-to-fields direction costs some
    /// 100 µs for the Chinese calendar, so it is asked once and layouts answer after that).
    private var reference: (year: Int, firstDay: Int, meanLength: Double)?

    /// Where a Gregorian day (days since 1970-01-01) lies in this calendar.
    public func position(ofDay day: Int) -> DayPosition? {
        lock.lock()
        defer { lock.unlock() }
        if reference == nil {
            guard let approximate = approximateYear(ofDay: day), let year = lockedYear(approximate) else { return nil }
            // Lunar calendars (Islamic) have years of 354 or 355 days; the others keep pace with the sun.
            reference = (year.number, year.firstDay, year.length < 360 ? 354.367 : 365.2425)
        }
        guard let reference else { return nil }
        var number = reference.year + Int((Double(day - reference.firstDay) / reference.meanLength).rounded(.down))
        // The guess is off by a year at most near a year's ends; a few steps settle it.
        for _ in 0..<8 {
            guard let year = lockedYear(number) else { return nil }
            if day < year.firstDay {
                number -= 1
            } else if day >= year.firstDay + year.length {
                number += 1
            } else {
                let index = year.months.lastIndex(where: { $0.firstDay <= day }) ?? 0
                return DayPosition(year: number, monthIndex: index, day: day - year.months[index].firstDay + 1)
            }
        }
        return nil
    }
}
