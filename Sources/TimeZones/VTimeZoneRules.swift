import CalendarModel

/// A file's own VTIMEZONE (RFC 5545 §3.6.5) evaluated as zone rules: the onsets of its STANDARD
/// and DAYLIGHT observances from DTSTART, RRULE and RDATE, each read in the offset before it.
public struct VTimeZoneRules: ZoneRules, Hashable {
    /// The TZID the definition declares.
    public let identifier: String?
    /// Every onset up to `horizonYear`, ascending.
    public let onsets: [ZoneTransition]
    /// The offset before the first onset.
    public let initialOffset: Int
    /// Rules are expanded up to the end of this year; later instants keep the last offset.
    public static let horizonYear = 2200

    /// Evaluates a VTIMEZONE component; nil when it holds no usable observance.
    public init?(_ component: Component) {
        guard component.name == "VTIMEZONE" else { return nil }
        identifier = component.property("TZID").flatMap { if case .text(let t) = $0.value { t.first } else { nil } }
        var onsets: [ZoneTransition] = []
        for observance in component.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            onsets += Self.onsets(of: observance, isDaylight: observance.name == "DAYLIGHT")
        }
        guard !onsets.isEmpty else { return nil }
        onsets.sort { $0.utcSeconds < $1.utcSeconds }
        var merged: [ZoneTransition] = []
        var offset = onsets[0].offsetBefore
        initialOffset = offset
        for var onset in onsets {
            if let last = merged.last, last.utcSeconds == onset.utcSeconds {
                merged[merged.count - 1].offsetAfter = onset.offsetAfter
                offset = onset.offsetAfter
                continue
            }
            onset.offsetBefore = offset
            merged.append(onset)
            offset = onset.offsetAfter
        }
        self.onsets = merged
    }

    private static func onsets(of observance: Component, isDaylight: Bool) -> [ZoneTransition] {
        var from: Int?
        var to: Int?
        var start: CalendarDateTime?
        var name: String?
        var rules: [RecurrenceRule] = []
        var extra: [CalendarDateTime] = []
        for property in observance.properties {
            switch (property.name, property.value) {
            case ("TZOFFSETFROM", .utcOffset(let s)): from = s
            case ("TZOFFSETTO", .utcOffset(let s)): to = s
            case ("DTSTART", .dateTimes(let d)): start = d.first
            case ("TZNAME", .text(let t)): name = t.first
            case ("RRULE", .recurrence(let r)): rules.append(r)
            case ("RDATE", .dateTimes(let d)): extra += d
            case ("RDATE", .periods(let p)): extra += p.map(\.start)
            default: break
            }
        }
        guard let from, let to, let start else { return [] }
        let time = start.time?.secondsOfDay ?? 0
        func make(_ wall: Int) -> ZoneTransition {
            ZoneTransition(utcSeconds: wall - from, offsetBefore: from, offsetAfter: to, isDaylight: isDaylight, abbreviation: name)
        }
        var walls: [Int] = [start.wallSecondsSinceEpoch]
        for rule in rules { walls += expand(rule, start: start, offsetFrom: from) }
        var result = walls.map(make)
        for date in extra {
            // A DATE RDATE takes DTSTART's time of day; a UTC one is already an instant.
            if date.reference == .utc {
                result.append(
                    ZoneTransition(
                        utcSeconds: date.wallSecondsSinceEpoch, offsetBefore: from, offsetAfter: to, isDaylight: isDaylight,
                        abbreviation: name))
            } else {
                result.append(make(date.date.daysSinceEpoch * 86_400 + (date.time?.secondsOfDay ?? time)))
            }
        }
        return result
    }

    /// Expands the yearly and monthly rules VTIMEZONEs use (BYMONTH, BYDAY with or without an
    /// ordinal, BYMONTHDAY, UNTIL, COUNT, INTERVAL) into wall times after DTSTART.
    static func expand(_ rule: RecurrenceRule, start: CalendarDateTime, offsetFrom: Int) -> [Int] {
        let time = start.time?.secondsOfDay ?? 0
        let startWall = start.wallSecondsSinceEpoch
        var untilWall: Int?
        var untilUTC: Int?
        if case .until(let until) = rule.end {
            if until.reference == .utc { untilUTC = until.wallSecondsSinceEpoch } else { untilWall = until.wallSecondsSinceEpoch }
        }
        let limit: Int? = if case .count(let c) = rule.end { c } else { nil }
        let interval = max(1, rule.interval)
        var result: [Int] = []
        var emitted = 1  // DTSTART counts as the first instance
        func days(year: Int, month: Int) -> [Int] {
            let length = CalendarDate.daysInMonth(year: year, month: month)
            var candidates: [Int]
            if !rule.daysOfTheWeek.isEmpty {
                candidates = []
                for entry in rule.daysOfTheWeek {
                    let matching = (1...length).filter {
                        CalendarDate(year: year, month: month, day: $0).isoWeekday == entry.weekday.isoNumber
                    }
                    if entry.weekNumber > 0, entry.weekNumber <= matching.count {
                        candidates.append(matching[entry.weekNumber - 1])
                    } else if entry.weekNumber < 0, -entry.weekNumber <= matching.count {
                        candidates.append(matching[matching.count + entry.weekNumber])
                    } else if entry.weekNumber == 0 {
                        candidates += matching
                    }
                }
                if !rule.daysOfTheMonth.isEmpty {
                    let allowed = Set(rule.daysOfTheMonth.map { $0 > 0 ? $0 : length + 1 + $0 })
                    candidates = candidates.filter(allowed.contains)
                }
            } else if !rule.daysOfTheMonth.isEmpty {
                candidates = rule.daysOfTheMonth.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { $0 >= 1 && $0 <= length }
            } else {
                candidates = start.date.day <= length ? [start.date.day] : []
            }
            return candidates.sorted()
        }
        var year = start.date.year
        var monthIndex = start.date.month  // used by MONTHLY
        while year <= horizonYear {
            let months: [Int]
            switch rule.frequency {
            case .yearly: months = rule.months.isEmpty ? [start.date.month] : rule.months.map(\.number).sorted()
            case .monthly:
                months = rule.months.isEmpty || rule.months.contains(where: { $0.number == monthIndex }) ? [monthIndex] : []
            default: return result
            }
            for month in months {
                for day in days(year: year, month: month) {
                    let wall = CalendarDate(year: year, month: month, day: day).daysSinceEpoch * 86_400 + time
                    if wall <= startWall { continue }
                    if let untilWall, wall > untilWall { return result }
                    // A UTC UNTIL compares with the onset's instant, read in TZOFFSETFROM.
                    if let untilUTC, wall - offsetFrom > untilUTC { return result }
                    if let limit, emitted >= limit { return result }
                    result.append(wall)
                    emitted += 1
                }
            }
            if rule.frequency == .yearly {
                year += interval
            } else {
                monthIndex += interval
                while monthIndex > 12 {
                    monthIndex -= 12
                    year += 1
                }
            }
        }
        return result
    }

    /// The offset after the last onset at or before the instant.
    public func offset(utcSeconds t: Int) -> Int {
        var low = 0
        var high = onsets.count
        while low < high {
            let mid = (low + high) / 2
            if onsets[mid].utcSeconds <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? initialOffset : onsets[low - 1].offsetAfter
    }

    /// The onsets in the range that change the offset.
    public func transitions(from: Int, to: Int) -> [ZoneTransition] {
        onsets.filter { $0.utcSeconds >= from && $0.utcSeconds < to && $0.offsetBefore != $0.offsetAfter }
    }
}
