import CalendarModel

/// Builds a VTIMEZONE (RFC 5545 §3.6.5) from the current tz data, so that an ICS output is right
/// for clients without a tz database: every transition from a chosen year as dated onsets
/// (RDATE), and the rule the zone follows today as yearly RRULE observances.
public struct TimeZoneDefinitionBuilder: Sendable {
    /// Where the transitions come from.
    public let database: TimeZoneDatabase
    /// How far dated onsets go for zones whose current rule RRULE cannot express (Cairo's
    /// "last Thursday at 24:00").
    public static let datedHorizonYear = 2100

    /// A builder over `database`.
    public init(database: TimeZoneDatabase = .system) {
        self.database = database
    }

    /// The VTIMEZONE of `zone` named `tzid` (the spelling the output uses), exact from January 1
    /// of `fromYear` until at least the end of `throughYear` and, where the zone follows a rule
    /// today, for ever after. Nil for an unknown zone.
    public func definition(zone: String, tzid: String, fromYear: Int, throughYear: Int = 2037) -> Component? {
        guard let compiled = database.zone(zone) else { return nil }
        let from = CalendarDate(year: fromYear, month: 1, day: 1).daysSinceEpoch * 86_400
        let lastYear = max(throughYear, fromYear)
        let to = CalendarDate(year: lastYear + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        var dated = compiled.transitions(from: from, to: to)
        var ruled: [Component] = []
        if let footer = compiled.footer, let ruleStart = ruleEraStart(compiled, footer: footer, lastYear: lastYear) {
            if let observances = ruleObservances(footer, fromYear: max(ruleStart, fromYear)) {
                let eraStart = CalendarDate(year: max(ruleStart, fromYear), month: 1, day: 1).daysSinceEpoch * 86_400
                dated.removeAll { $0.utcSeconds >= eraStart }
                ruled = observances
            } else {
                // A rule RRULE cannot say: list its onsets far enough that no calendar runs out.
                let horizon = CalendarDate(year: max(lastYear, Self.datedHorizonYear) + 1, month: 1, day: 1).daysSinceEpoch * 86_400
                dated = compiled.transitions(from: from, to: horizon)
            }
        }
        var observances: [Component] = []
        if dated.isEmpty && ruled.isEmpty {
            // A zone without changes in the range: one observance stating its offset.
            let type = compiled.localTimeType(utcSeconds: from)
            observances.append(
                observance(
                    daylight: type.isDaylight, start: from + type.offset, rdates: [], offsetFrom: type.offset,
                    offsetTo: type.offset, name: type.abbreviation, rule: nil))
        }
        // Transitions alike in offsets, kind and name share one observance with RDATEs.
        var groups: [[ZoneTransition]] = []
        var groupIndex: [String: Int] = [:]
        for transition in dated {
            let key = "\(transition.isDaylight) \(transition.offsetBefore) \(transition.offsetAfter) \(transition.abbreviation ?? "")"
            if let i = groupIndex[key] {
                groups[i].append(transition)
            } else {
                groupIndex[key] = groups.count
                groups.append([transition])
            }
        }
        for group in groups {
            let first = group[0]
            observances.append(
                observance(
                    daylight: first.isDaylight, start: first.utcSeconds + first.offsetBefore,
                    rdates: group.dropFirst().map { $0.utcSeconds + $0.offsetBefore }, offsetFrom: first.offsetBefore,
                    offsetTo: first.offsetAfter, name: first.abbreviation, rule: nil))
        }
        observances += ruled
        observances.sort { Self.start(of: $0) < Self.start(of: $1) }
        return Component(
            name: "VTIMEZONE",
            properties: [
                Property(name: "TZID", value: .text([tzid])),
                // Thunderbird and libical read the zone's IANA id from here when TZID is not one.
                Property(name: "X-LIC-LOCATION", value: .unknown(type: nil, literal: zone)),
            ],
            components: observances)
    }

    /// The first year from which the POSIX footer reproduces every listed transition, so that
    /// later years can be written as RRULEs; nil when the zone has no daylight rule today.
    private func ruleEraStart(_ zone: CompiledZone, footer: PosixTimeZoneRule, lastYear: Int) -> Int? {
        guard footer.daylightStart != nil, !footer.isPermanentDaylight else { return nil }
        guard let lastListed = zone.listedTransitions.last else { return nil }
        let lastListedYear = Self.year(of: lastListed.utcSeconds)
        var year = lastListedYear
        func conforms(_ y: Int) -> Bool {
            let start = CalendarDate(year: y, month: 1, day: 1).daysSinceEpoch * 86_400
            let end = CalendarDate(year: y + 1, month: 1, day: 1).daysSinceEpoch * 86_400
            let listed = zone.listedTransitions.filter { $0.utcSeconds >= start && $0.utcSeconds < end }
            let ruled = footer.transitions(in: y)
            return listed.map { [$0.utcSeconds, $0.offsetAfter] } == ruled.map { [$0.utcSeconds, $0.offsetAfter] }
        }
        guard conforms(year) else { return lastListedYear + 1 }
        while year > 1900 && conforms(year - 1) { year -= 1 }
        return year
    }

    private func ruleObservances(_ footer: PosixTimeZoneRule, fromYear: Int) -> [Component]? {
        guard let startRule = footer.daylightStart, let endRule = footer.daylightEnd, let daylight = footer.daylightOffset,
            let on = rrule(startRule), let off = rrule(endRule)
        else { return nil }
        let transitions = footer.transitions(in: fromYear)
        guard transitions.count == 2 else { return nil }
        return transitions.map { t in
            observance(
                daylight: t.isDaylight, start: t.utcSeconds + t.offsetBefore, rdates: [], offsetFrom: t.offsetBefore,
                offsetTo: t.isDaylight ? daylight : footer.standardOffset, name: t.abbreviation,
                rule: t.isDaylight ? on : off)
        }
    }

    /// `Mm.w.d` as `FREQ=YEARLY;BYMONTH=m;BYDAY=wD` (week 5 = last). A time outside the day
    /// (Greenland's `M3.5.0/-1`: Saturday 23:00 before the last Sunday) moves the weekday and
    /// becomes `BYDAY=SA;BYMONTHDAY=24,…,30`, which works while those days stay in the month;
    /// nil otherwise (and for the Julian forms), and the caller writes dated onsets instead.
    private func rrule(_ rule: PosixTimeZoneRule.DateRule) -> RecurrenceRule? {
        guard case .monthWeekDay(let month, let week, let weekday) = rule.day else { return nil }
        let shift = Int((Double(rule.time) / 86_400).rounded(.down))
        if shift == 0 {
            return RecurrenceRule(
                frequency: .yearly,
                daysOfTheWeek: [
                    RecurrenceRule.DayOfWeek(RecurrenceRule.Weekday(rawValue: weekday + 1)!, weekNumber: week == 5 ? -1 : week)
                ],
                months: [RecurrenceRule.Month(month)])
        }
        // The days the rule's weekday can fall on, moved by the shift.
        let first: Int
        let length = CalendarDate.daysInMonth(year: 2001, month: month)
        if week == 5 {
            guard month != 2 else { return nil }
            first = length - 6
        } else {
            first = 7 * (week - 1) + 1
        }
        let days = (first + shift)...(first + 6 + shift)
        guard days.lowerBound >= 1, days.upperBound <= (month == 2 ? 28 : length) else { return nil }
        let movedWeekday = ((weekday + shift) % 7 + 7) % 7
        return RecurrenceRule(
            frequency: .yearly,
            daysOfTheWeek: [RecurrenceRule.DayOfWeek(RecurrenceRule.Weekday(rawValue: movedWeekday + 1)!)],
            daysOfTheMonth: Array(days), months: [RecurrenceRule.Month(month)])
    }

    private func observance(
        daylight: Bool, start: Int, rdates: [Int], offsetFrom: Int, offsetTo: Int, name: String?, rule: RecurrenceRule?
    ) -> Component {
        func local(_ wall: Int) -> CalendarDateTime {
            CalendarDateTime(date: CalendarDate(year: 1970, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0, second: 0))
                .withWallSeconds(wall)
        }
        var properties = [
            Property(name: "DTSTART", value: .dateTimes([local(start)])),
            Property(name: "TZOFFSETFROM", value: .utcOffset(offsetFrom)),
            Property(name: "TZOFFSETTO", value: .utcOffset(offsetTo)),
        ]
        if let name, !name.isEmpty { properties.append(Property(name: "TZNAME", value: .text([name]))) }
        if let rule { properties.append(Property(name: "RRULE", value: .recurrence(rule))) }
        if !rdates.isEmpty { properties.append(Property(name: "RDATE", value: .dateTimes(rdates.map(local)))) }
        return Component(name: daylight ? "DAYLIGHT" : "STANDARD", properties: properties)
    }

    private static func start(of observance: Component) -> Int {
        if case .dateTimes(let d)? = observance.property("DTSTART")?.value, let first = d.first { return first.wallSecondsSinceEpoch }
        return 0
    }

    private static func year(of utc: Int) -> Int {
        CalendarDate(daysSinceEpoch: Int((Double(utc) / 86_400).rounded(.down))).year
    }
}
