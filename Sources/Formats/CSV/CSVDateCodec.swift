import CICUShim
import CalendarModel

/// Reads and writes the date and time cells of the Outlook and Google layouts with ICU
/// patterns: the ones given (`--date-format`, `--time-format`), else the locale's short date
/// pattern and its short and medium time patterns (Outlook writes seconds, Google does not).
/// ISO 8601 (`2024-05-01`, `13:30:00`) is always accepted too, since spreadsheets often rewrite
/// dates that way.
final class CSVDateCodec {
    let locale: String
    private let dateReaders: [ICUDatePattern]
    private let timeReaders: [ICUDatePattern]
    private let dateWriter: ICUDatePattern
    private let timeWriter: ICUDatePattern
    /// What ICU gave for the dates, times and cell texts already seen. ICU takes about ten
    /// thousand instructions to format or parse one value, and the rows of a calendar repeat the
    /// same days and times; the answer depends on nothing else (the patterns and locale are
    /// fixed), so it is kept. Each cache is emptied when it reaches `cacheLimit` entries, which
    /// keeps memory flat however long the file.
    private var dateTexts: [CalendarDate: String] = [:]
    private var timeTexts: [TimeOfDay: String] = [:]
    private var readDates: [String: CalendarDate?] = [:]
    private var readTimes: [String: TimeOfDay?] = [:]
    private static let cacheLimit = 4096

    /// Opens the patterns; throws a usage error naming an unknown locale or a pattern ICU rejects.
    init(locale: String, dateFormat: String?, timeFormat: String?, writesSeconds: Bool, place: String) throws {
        guard ICUDatePattern.isKnownLocale(locale) else {
            throw CalendarError(.usage, file: place, "unknown locale '\(locale)' (expected an ICU locale id such as en_US or de_DE)")
        }
        self.locale = locale
        func open(_ pattern: String, _ what: String) throws -> ICUDatePattern {
            guard let p = ICUDatePattern(pattern: pattern, locale: locale) else {
                throw CalendarError(.usage, file: place, "\(what) '\(pattern)' is not an ICU date pattern")
            }
            return p
        }
        let localeDate = ICUDatePattern.localePattern(locale, kind: Int32(CP_DATE_SHORT)) ?? "yyyy-MM-dd"
        let shortTime = ICUDatePattern.localePattern(locale, kind: Int32(CP_TIME_SHORT)) ?? "HH:mm"
        let mediumTime = ICUDatePattern.localePattern(locale, kind: Int32(CP_TIME_MEDIUM)) ?? "HH:mm:ss"
        let datePattern = dateFormat ?? localeDate
        let timePatterns = timeFormat.map { [$0] } ?? [shortTime, mediumTime]
        dateWriter = try open(datePattern, "date format")
        timeWriter = try open(timeFormat ?? (writesSeconds ? mediumTime : shortTime), "time format")
        var dates: [ICUDatePattern] = []
        for p in Self.unique([Self.relaxed(datePattern), "y-M-d"]) { dates.append(try open(p, "date format")) }
        var times: [ICUDatePattern] = []
        for p in Self.unique(timePatterns.map(Self.relaxed) + ["H:m:s", "H:m"]) { times.append(try open(p, "time format")) }
        dateReaders = dates
        timeReaders = times
    }

    /// The patterns tried for dates, for messages.
    var datePatternsDescription: String { dateReaders.map(\.pattern).joined(separator: " or ") }
    /// The patterns tried for times, for messages.
    var timePatternsDescription: String { timeReaders.map(\.pattern).joined(separator: " or ") }

    /// The date a cell holds, or nil when no pattern reads all of it or the day does not exist.
    func date(_ text: String) -> CalendarDate? {
        Self.cached(text, in: &readDates) {
            Self.read(text, with: dateReaders) { f in CalendarDate(year: f[0], month: f[1], day: f[2]) }.flatMap { $0.isValid ? $0 : nil }
        }
    }

    /// The time of day a cell holds, or nil.
    func time(_ text: String) -> TimeOfDay? {
        Self.cached(text, in: &readTimes) {
            Self.read(text, with: timeReaders) { f in TimeOfDay(hour: f[3], minute: f[4], second: f[5]) }.flatMap { $0.isValid ? $0 : nil }
        }
    }

    /// The value of the fields the first pattern that reads all of `text` finds.
    private static func read<Value>(_ text: String, with readers: [ICUDatePattern], _ value: ([Int]) -> Value) -> Value? {
        for reader in readers {
            if let fields = reader.parse(text) { return value(fields) }
        }
        return nil
    }

    /// A date in the written pattern.
    func text(_ date: CalendarDate) -> String {
        Self.cached(date, in: &dateTexts) { dateWriter.format([date.year, date.month, date.day, 0, 0, 0]) ?? "" }
    }

    /// A time in the written pattern.
    func text(_ time: TimeOfDay) -> String {
        Self.cached(time, in: &timeTexts) { timeWriter.format([1970, 1, 1, time.hour, time.minute, time.second]) ?? "" }
    }

    /// The value kept for `key`, else `make()`'s, kept (after emptying a full cache).
    private static func cached<Key: Hashable, Value>(_ key: Key, in cache: inout [Key: Value], _ make: () -> Value) -> Value {
        if let known = cache[key] { return known }
        let value = make()
        if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = value
        return value
    }

    /// The pattern with two-letter numeric fields made one letter (`dd.MM.yyyy` → `d.M.y`), so a
    /// strict parse takes `6.4.1990` as well as `06.04.1990`; writing keeps the original pattern.
    static func relaxed(_ pattern: String) -> String {
        var result = ""
        var quoted = false
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                quoted.toggle()
                result.append(c)
                i += 1
                continue
            }
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            if !quoted && "dMHhmsKky".contains(c) && (run == 2 || (c == "y" && run == 4)) {
                result.append(c)
            } else {
                result.append(String(repeating: c, count: run))
            }
            i += run
        }
        return result
    }

    private static func unique(_ patterns: [String]) -> [String] {
        var seen = Set<String>()
        return patterns.filter { seen.insert($0).inserted }
    }
}
