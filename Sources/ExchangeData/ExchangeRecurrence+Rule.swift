import CalendarModel
import Recurrence

extension ExchangeRecurrence {
    /// Why a recurrence rule cannot become an Exchange pattern without changing which days it
    /// gives; writers expand such a rule into occurrences or report the loss.
    public struct Unrepresentable: Error, CustomStringConvertible, Hashable, Sendable {
        /// What Exchange cannot hold, in words a user understands.
        public var reason: String

        public init(_ reason: String) { self.reason = reason }

        public var description: String { "Exchange cannot hold this recurrence: \(reason)" }
    }

    /// The two syntaxes of Exchange's one model, which differ in what they can spell.
    public enum Syntax: String, Sendable {
        /// EWS `t:Recurrence` (Types.xsd).
        case ews
        /// Microsoft Graph `patternedRecurrence`.
        case graph
    }

    // MARK: Exchange → rule

    /// The RFC 5545 rule that gives exactly the days this pattern and range give, for a series
    /// whose occurrences start at `start`'s wall time (and anchor).
    ///
    /// A day of month past a month's end means that month's last day (EWS `DayOfMonth` reference:
    /// "the last day of the month is assumed"; CDO's RecurrencePattern.DayOfMonth: Outlook puts a
    /// yearly February 29 on February 28 in common years), which RFC 5545's BYMONTHDAY would
    /// skip instead; so 31 becomes BYMONTHDAY=-1 and 29 or 30 in a monthly pattern becomes
    /// BYMONTHDAY=28,…,n;BYSETPOS=-1. An end date means "through that day in the pattern's zone":
    /// UNTIL is that day's 23:59:59 there (in UTC for a zoned start, as RFC 5545 §3.3.10 asks).
    ///
    /// - Parameter clock: converts the end date's wall time to UTC for a zoned start.
    public func recurrenceRule(start: CalendarDateTime, clock: any WallClock = TimeZoneDatabaseClock.shared) -> RecurrenceRule {
        var rule = RecurrenceRule(frequency: .daily, interval: max(1, pattern.interval))
        rule.firstDayOfTheWeek = pattern.firstDayOfWeek
        let index = (pattern.index ?? .first).position
        switch pattern.kind {
        case .daily:
            rule.frequency = .daily
        case .weekly:
            rule.frequency = .weekly
            let days = Self.distinctWeekdays(pattern.daysOfWeek)
            rule.daysOfTheWeek = (days.isEmpty ? [Self.weekday(of: start.date)] : days).map { .init($0) }
        case .absoluteMonthly:
            rule.frequency = .monthly
            Self.setDayOfMonth(pattern.dayOfMonth ?? start.date.day, month: nil, in: &rule)
        case .relativeMonthly:
            rule.frequency = .monthly
            Self.setRelativeDays(pattern.daysOfWeek, index: index, start: start, in: &rule)
        case .absoluteYearly:
            rule.frequency = .yearly
            let month = pattern.month ?? start.date.month
            rule.months = [.init(month)]
            Self.setDayOfMonth(pattern.dayOfMonth ?? start.date.day, month: month, in: &rule)
        case .relativeYearly:
            rule.frequency = .yearly
            rule.months = [.init(pattern.month ?? start.date.month)]
            Self.setRelativeDays(pattern.daysOfWeek, index: index, start: start, in: &rule)
        }
        rule.intervalWasExplicit = rule.interval != 1
        switch range.kind {
        case .noEnd:
            rule.end = nil
        case .numbered:
            rule.end = .count(max(1, range.numberOfOccurrences ?? 1))
        case .endDate:
            rule.end = range.endDate.map { .until(Self.until(endDate: $0, start: start, clock: clock)) }
        }
        return rule
    }

    /// The first occurrence of the series: the first day on or after the range's start date that
    /// the pattern gives, at `start`'s wall time. Exchange counts occurrences from there, while
    /// RFC 5545 always counts DTSTART, so a reader makes this the DTSTART (nil: the series is empty).
    public func firstOccurrence(start: CalendarDateTime, clock: any WallClock = TimeZoneDatabaseClock.shared) -> CalendarDateTime? {
        let rangeStart = CalendarDateTime(date: range.startDate, time: start.time, reference: start.reference)
        var rule = recurrenceRule(start: rangeStart, clock: clock)
        if case .count = rule.end { rule.end = nil }
        // A yearly pattern's interval counts years from its first occurrence ([MS-OXOCAL] keeps
        // yearly patterns as monthly ones with a period of 12·n months from the start's month),
        // so the first is the next matching day whatever the interval.
        if pattern.kind == .absoluteYearly || pattern.kind == .relativeYearly { rule.interval = 1 }
        guard var iterator = try? RecurrenceRuleIterator(rule: rule, start: rangeStart, startAlwaysOccurs: false, clock: clock)
        else { return nil }
        return iterator.next()
    }

    /// Whether `firstOccurrence(start:)` gives what `other`'s gives for every start: it reads the
    /// pattern and the range, all but the range's zone name (the start's reference is the zone).
    /// Keep this beside `firstOccurrence`, and in step with what it reads.
    public func hasFirstOccurrence(of other: ExchangeRecurrence) -> Bool {
        pattern == other.pattern && range.kind == other.range.kind && range.startDate == other.range.startDate
            && range.endDate == other.range.endDate && range.numberOfOccurrences == other.range.numberOfOccurrences
    }

    /// Why a series of this pattern cannot start at `start`, or nil when it can: RFC 5545
    /// counts DTSTART as the first occurrence even when the rule does not give that day
    /// (RFC 5545 §3.8.5.3), while Exchange starts the series on the pattern's first day on or
    /// after it (`firstOccurrence`), so that occurrence would move.
    public func offPatternReason(start: CalendarDateTime, clock: any WallClock = TimeZoneDatabaseClock.shared) -> String? {
        Self.offPatternReason(start: start, firstOccurrence: firstOccurrence(start: start, clock: clock))
    }

    /// `offPatternReason(start:)` where `first` is `firstOccurrence(start:)`, found already (a
    /// writer hands it on, so that reading its body back need not find it again).
    public static func offPatternReason(start: CalendarDateTime, firstOccurrence first: CalendarDateTime?) -> String? {
        guard let first else { return "the pattern gives no day on or after DTSTART" }
        guard first.date != start.date || first.wallSecondsSinceEpoch != start.wallSecondsSinceEpoch else { return nil }
        return "DTSTART is not a day of its rule, and Exchange starts a series on the rule's first day"
    }

    /// BYMONTHDAY for Exchange's day of month: a day every month (or the given month) has is
    /// itself; the month's last possible day or later is -1; a day only some years' or months'
    /// ends reach is "the last of 28…day".
    private static func setDayOfMonth(_ day: Int, month: Int?, in rule: inout RecurrenceRule) {
        let shortest = month.map { $0 == 2 ? 28 : CalendarDate.daysInMonth(year: 2001, month: $0) } ?? 28
        let longest = month.map { CalendarDate.daysInMonth(year: 2000, month: $0) } ?? 31
        let day = min(max(day, 1), 31)
        if day <= shortest || shortest == longest {
            rule.daysOfTheMonth = [min(day, longest)]
        } else if day >= longest {
            rule.daysOfTheMonth = [-1]
        } else {
            rule.daysOfTheMonth = Array(shortest...day)
            rule.setPositions = [-1]
        }
    }

    /// "The n-th of these days": one weekday takes an ordinal (BYDAY=2TU), a set takes BYSETPOS
    /// (the n-th day that is one of them, not the n-th of each).
    private static func setRelativeDays(
        _ daysOfWeek: [ExchangeDayOfWeek], index: Int, start: CalendarDateTime, in rule: inout RecurrenceRule
    ) {
        let days = distinctWeekdays(daysOfWeek)
        if days.isEmpty {
            rule.daysOfTheWeek = [.init(weekday(of: start.date), weekNumber: index)]
        } else if days.count == 1 {
            rule.daysOfTheWeek = [.init(days[0], weekNumber: index)]
        } else {
            rule.daysOfTheWeek = days.map { .init($0) }
            rule.setPositions = [index]
        }
    }

    private static func until(endDate: CalendarDate, start: CalendarDateTime, clock: any WallClock) -> CalendarDateTime {
        guard start.time != nil else { return CalendarDateTime(date: endDate) }
        let lastSecond = CalendarDateTime(date: endDate, time: TimeOfDay(hour: 23, minute: 59, second: 59), reference: start.reference)
        guard case .zone(let zone) = start.reference else { return lastSecond }
        guard let instant = clock.utcSeconds(zone: zone, wallSeconds: lastSecond.wallSecondsSinceEpoch) else {
            return CalendarDateTime(date: endDate, time: TimeOfDay(hour: 23, minute: 59, second: 59), reference: .utc)
        }
        return CalendarDateTime(date: endDate, time: TimeOfDay(hour: 0, minute: 0, second: 0), reference: .utc).withWallSeconds(instant)
    }

    static func distinctWeekdays(_ days: [ExchangeDayOfWeek]) -> [RecurrenceRule.Weekday] {
        var seen: [RecurrenceRule.Weekday] = []
        for day in days {
            for weekday in day.weekdays where !seen.contains(weekday) { seen.append(weekday) }
        }
        return seen
    }

    static func weekday(of date: CalendarDate) -> RecurrenceRule.Weekday {
        RecurrenceRule.Weekday(isoWeekday: date.isoWeekday)
    }

    // MARK: rule → Exchange

    /// The Exchange pattern and range that give exactly the rule's days from `start`, or
    /// `Unrepresentable` naming what Exchange cannot hold (finer than daily, BYHOUR and finer,
    /// BYWEEKNO, BYYEARDAY, several BYSETPOS, ordinals other than 1–4 and -1, every Monday of a
    /// month, a BYMONTHDAY 29–31 that RFC 5545 skips in short months but Exchange would move, …).
    public init(rule: RecurrenceRule, start: CalendarDateTime, clock: any WallClock = TimeZoneDatabaseClock.shared) throws {
        func fail(_ reason: String) -> Unrepresentable { Unrepresentable(reason) }
        switch rule.frequency {
        case .secondly, .minutely, .hourly: throw fail("FREQ=\(rule.frequency.rawValue) (Exchange repeats daily at the finest)")
        default: break
        }
        if !rule.bySecond.isEmpty || !rule.byMinute.isEmpty || !rule.byHour.isEmpty {
            throw fail("BYHOUR/BYMINUTE/BYSECOND (an Exchange series repeats at one time of day)")
        }
        if !rule.daysOfTheYear.isEmpty { throw fail("BYYEARDAY") }
        if !rule.weeksOfTheYear.isEmpty { throw fail("BYWEEKNO") }
        if let scale = rule.scale, scale.uppercased() != "GREGORIAN" { throw fail("RSCALE=\(scale)") }
        if rule.skip != nil { throw fail("SKIP") }
        if let part = rule.extensionParts.first { throw fail("rule part \(part.name)") }
        if rule.setPositions.count > 1 { throw fail("several BYSETPOS values") }
        if rule.months.contains(where: \.isLeap) { throw fail("a leap month") }
        if rule.interval < 1 { throw fail("INTERVAL=\(rule.interval)") }

        let interval = rule.interval
        let firstDay = rule.firstDayOfTheWeek
        let pattern: Pattern
        switch rule.frequency {
        case .daily:
            guard rule.daysOfTheMonth.isEmpty, rule.months.isEmpty, rule.setPositions.isEmpty else {
                throw fail("FREQ=DAILY with BYMONTHDAY, BYMONTH or BYSETPOS")
            }
            if rule.daysOfTheWeek.isEmpty {
                pattern = Pattern(kind: .daily, interval: interval, firstDayOfWeek: firstDay)
            } else {
                // Every day that is one of these = weekly on them, but only without an interval.
                guard interval == 1, rule.daysOfTheWeek.allSatisfy({ $0.weekNumber == 0 }) else {
                    throw fail("FREQ=DAILY;INTERVAL=\(interval) with BYDAY")
                }
                pattern = Pattern(
                    kind: .weekly, interval: 1, daysOfWeek: rule.daysOfTheWeek.map { .weekday($0.weekday) },
                    firstDayOfWeek: firstDay)
            }
        case .weekly:
            guard rule.daysOfTheMonth.isEmpty, rule.months.isEmpty, rule.setPositions.isEmpty else {
                throw fail("FREQ=WEEKLY with BYMONTHDAY, BYMONTH or BYSETPOS")
            }
            guard rule.daysOfTheWeek.allSatisfy({ $0.weekNumber == 0 }) else { throw fail("FREQ=WEEKLY with a BYDAY ordinal") }
            let days = rule.daysOfTheWeek.isEmpty ? [Self.weekday(of: start.date)] : rule.daysOfTheWeek.map(\.weekday)
            pattern = Pattern(kind: .weekly, interval: interval, daysOfWeek: days.map { .weekday($0) }, firstDayOfWeek: firstDay)
        case .monthly:
            guard rule.months.isEmpty else { throw fail("FREQ=MONTHLY with BYMONTH") }
            pattern = try Self.monthlyPattern(rule: rule, start: start, month: nil)
        case .yearly:
            guard rule.months.count <= 1 else { throw fail("several BYMONTH values") }
            if rule.months.isEmpty, !rule.daysOfTheWeek.isEmpty { throw fail("FREQ=YEARLY with BYDAY but no BYMONTH") }
            if rule.months.isEmpty, !rule.daysOfTheMonth.isEmpty, rule.daysOfTheMonth != [start.date.day] {
                throw fail("FREQ=YEARLY with BYMONTHDAY but no BYMONTH")
            }
            pattern = try Self.monthlyPattern(rule: rule, start: start, month: rule.months.first?.number ?? start.date.month)
        case .secondly, .minutely, .hourly:
            throw fail("FREQ=\(rule.frequency.rawValue)")
        }

        var range = Range(kind: .noEnd, startDate: start.date)
        switch rule.end {
        case nil: break
        case .count(let count):
            range.kind = .numbered
            range.numberOfOccurrences = count
        case .until(let until):
            range.kind = .endDate
            range.endDate = Self.endDate(until: until, start: start, clock: clock)
        }
        self.init(pattern: pattern, range: range)
    }

    /// A monthly (month nil) or yearly pattern from BYMONTHDAY / BYDAY / BYSETPOS.
    private static func monthlyPattern(rule: RecurrenceRule, start: CalendarDateTime, month: Int?) throws -> Pattern {
        func fail(_ reason: String) -> Unrepresentable { Unrepresentable(reason) }
        let yearly = month != nil
        let interval = rule.interval
        let firstDay = rule.firstDayOfTheWeek
        let shortest = month.map { $0 == 2 ? 28 : CalendarDate.daysInMonth(year: 2001, month: $0) } ?? 28
        let longest = month.map { CalendarDate.daysInMonth(year: 2000, month: $0) } ?? 31
        let what = yearly ? "FREQ=YEARLY" : "FREQ=MONTHLY"

        func absolute(_ day: Int) -> Pattern {
            Pattern(
                kind: yearly ? .absoluteYearly : .absoluteMonthly, interval: interval, month: month, dayOfMonth: day,
                firstDayOfWeek: firstDay)
        }
        func relative(_ days: [ExchangeDayOfWeek], _ position: Int) throws -> Pattern {
            guard let index = ExchangeWeekIndex(rawValue: position) else {
                throw fail("the \(position). matching day (Exchange knows first to fourth and last)")
            }
            return Pattern(
                kind: yearly ? .relativeYearly : .relativeMonthly, interval: interval, month: month, daysOfWeek: days, index: index,
                firstDayOfWeek: firstDay)
        }

        if !rule.daysOfTheWeek.isEmpty {
            guard rule.daysOfTheMonth.isEmpty else { throw fail("\(what) with both BYDAY and BYMONTHDAY") }
            if rule.daysOfTheWeek.count == 1, rule.daysOfTheWeek[0].weekNumber != 0 {
                guard rule.setPositions.isEmpty else { throw fail("\(what) with a BYDAY ordinal and BYSETPOS") }
                return try relative([.weekday(rule.daysOfTheWeek[0].weekday)], rule.daysOfTheWeek[0].weekNumber)
            }
            guard rule.daysOfTheWeek.allSatisfy({ $0.weekNumber == 0 }) else {
                throw fail("\(what) with several BYDAY days that carry ordinals")
            }
            guard let position = rule.setPositions.first else {
                throw fail("\(what) on every matching weekday of the \(yearly ? "year or month" : "month") (Exchange takes one of them)")
            }
            return try relative(collapsedDays(rule.daysOfTheWeek.map(\.weekday)), position)
        }

        let days = rule.daysOfTheMonth.isEmpty ? [start.date.day] : rule.daysOfTheMonth
        if rule.setPositions.isEmpty {
            guard days.count == 1 else { throw fail("\(what) with several BYMONTHDAY values") }
            let day = days[0]
            if day == -1 { return absolute(longest) }
            guard day >= 1, day <= shortest else {
                throw fail(
                    "\(what) on day \(day) of the month, which RFC 5545 skips in shorter months while Exchange moves it to their last day")
            }
            return absolute(day)
        }
        // "The last of 28…n": the clamped day n that setDayOfMonth writes.
        guard rule.setPositions == [-1], let last = days.last, days == Array(shortest...max(shortest, last)), last <= longest else {
            throw fail("\(what) with BYMONTHDAY and BYSETPOS")
        }
        return absolute(last)
    }

    /// A set of weekdays as EWS's one value when it is one of its sets (every day, weekdays,
    /// weekend days), else the weekdays themselves.
    public static func collapsedDays(_ days: [RecurrenceRule.Weekday]) -> [ExchangeDayOfWeek] {
        let set = Set(days)
        for special in [ExchangeDayOfWeek.day, .weekdays, .weekendDays] where Set(special.weekdays) == set && days.count == set.count {
            return [special]
        }
        return days.map { .weekday($0) }
    }

    /// The last day an occurrence at `start`'s time of day may fall on under UNTIL.
    private static func endDate(until: CalendarDateTime, start: CalendarDateTime, clock: any WallClock) -> CalendarDate {
        guard let startTime = start.time else { return until.date }
        guard let untilTime = until.time else { return until.date }
        var wall = until
        if until.reference == .utc, case .zone(let zone) = start.reference,
            let offset = clock.offset(zone: zone, utcSeconds: until.wallSecondsSinceEpoch)
        {
            wall = until.withWallSeconds(until.wallSecondsSinceEpoch + offset)
        } else {
            wall.time = untilTime
        }
        guard let wallTime = wall.time else { return wall.date }
        return wallTime >= startTime ? wall.date : wall.date.adding(days: -1)
    }

    // MARK: what each syntax can spell

    /// Why `syntax` cannot spell this pattern, or nil when it can: EWS's relative patterns take
    /// one DayOfWeekType (a weekday or one of Day/Weekday/WeekendDay), not a list, and its
    /// yearly patterns have no interval; Graph spells every pattern of the model.
    public func unrepresentableReason(in syntax: Syntax) -> String? {
        switch syntax {
        case .graph:
            return nil
        case .ews:
            if pattern.kind == .relativeMonthly || pattern.kind == .relativeYearly {
                let days = Self.collapsedDays(Self.distinctWeekdays(pattern.daysOfWeek))
                if days.count > 1 {
                    return
                        "the n-th day of several weekdays (\(days.map { "\($0)" }.joined(separator: ", "))): EWS takes one day or day set"
                }
            }
            if pattern.kind == .absoluteYearly || pattern.kind == .relativeYearly, pattern.interval != 1 {
                return "a yearly pattern every \(pattern.interval) years: EWS yearly patterns have no interval"
            }
            return nil
        }
    }

    /// The one EWS `DaysOfWeek` value of a relative pattern, when its days collapse to one.
    public var ewsRelativeDay: ExchangeDayOfWeek? {
        let days = Self.collapsedDays(Self.distinctWeekdays(pattern.daysOfWeek))
        return days.count == 1 ? days[0] : nil
    }
}
