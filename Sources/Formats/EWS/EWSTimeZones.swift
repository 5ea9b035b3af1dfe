import CalendarModel
import ExchangeData
import Recurrence
import TimeZones
import XMLSupport

/// A zone an EWS document names, resolved: the TZID its times carry and their offsets.
struct EWSReadZone {
    /// The TZID written on times: today's IANA id, or the document's own id when the zone was
    /// built from its definition.
    var tzid: String
    /// Whether times in it are UTC (written with Z).
    var isUTC: Bool
    /// The offset from UTC at an instant.
    var offset: (Int) -> Int
    /// The VTIMEZONE built from the document's own definition, to be sent before the items.
    var definition: Component?

    /// The wall time of an instant in this zone.
    func wall(instant: Int) -> CalendarDateTime {
        CalendarDateTime(date: CalendarDate(daysSinceEpoch: 0), time: TimeOfDay(hour: 0, minute: 0, second: 0), reference: reference)
            .withWallSeconds(instant + (isUTC ? 0 : offset(instant)))
    }

    var reference: TimeReference { isUTC ? .utc : .zone(tzid) }

    static let utc = EWSReadZone(tzid: "UTC", isUTC: true, offset: { _ in 0 }, definition: nil)
}

/// Offsets of the zones a document had defined at one point of it, else of the time-zone
/// database's. A value: what later items define does not change it.
struct EWSZoneClock: WallClock, @unchecked Sendable {
    let built: [String: EWSReadZone]

    func offset(zone: String, utcSeconds: Int) -> Int? {
        if let found = built[zone] { return found.offset(utcSeconds) }
        return TimeZoneDatabaseClock.shared.offset(zone: zone, utcSeconds: utcSeconds)
    }
}

/// Resolves EWS's three ways of naming a zone: a Windows id (`StartTimeZone Id=`), a full
/// `TimeZoneDefinition` (Periods, TransitionsGroups, Transitions; Exchange 2010+) and Exchange
/// 2007's `MeetingTimeZone` (BaseOffset, Standard, Daylight). Known ids go through TimeZones'
/// resolver (CLDR's Windows table, Outlook display names) to today's IANA zone; an unknown id
/// with a definition becomes a VTIMEZONE built from its transitions.
final class EWSTimeZones: WallClock, @unchecked Sendable {
    private let resolver: TimeZoneResolver
    private let clock = TimeZoneDatabaseClock.shared
    private var byName: [String: EWSReadZone?] = [:]
    /// TZIDs whose built VTIMEZONE has been sent.
    var sentDefinitions: Set<String> = []
    /// Zones built from the document's own definitions, by TZID.
    private var builtZones: [String: EWSReadZone] = [:]

    /// Offsets of the zones this document defines, else of the time-zone database's (so a
    /// series' end date becomes UNTIL in the zone it was written in). One reader's thread only.
    func offset(zone: String, utcSeconds: Int) -> Int? {
        if let built = builtZones[zone] { return built.offset(utcSeconds) }
        return clock.offset(zone: zone, utcSeconds: utcSeconds)
    }

    /// The offsets as they stand now, for mapping an item on another thread while later items
    /// define more zones.
    var offsetsNow: EWSZoneClock { EWSZoneClock(built: builtZones) }

    init(resolver: TimeZoneResolver = TimeZoneResolver()) {
        self.resolver = resolver
    }

    /// The zone a name resolves to (IANA, alias, Windows id, Outlook display name), or nil.
    func zone(named name: String) -> EWSReadZone? {
        if let cached = byName[name] { return cached }
        var found: EWSReadZone?
        let resolution = resolver.resolveName(name)
        if let id = resolution.zoneID, !resolution.isGuess, let offset = clock.offsetFunction(zone: id) {
            let isUTC = ["Etc/UTC", "UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu"].contains(id)
            found = EWSReadZone(tzid: id, isUTC: isUTC, offset: offset, definition: nil)
        }
        byName[name] = found
        return found
    }

    /// A `StartTimeZone`, `EndTimeZone` or `TimeZoneDefinition` element: by its Id, else by its
    /// own Periods and Transitions, else by its Name. `problem` says why it did not resolve.
    func zone(definition element: XMLElement, problem: inout String?) -> EWSReadZone? {
        let id = element.attribute("Id")
        let name = element.attribute("Name")
        if let id, let zone = zone(named: id) { return zone }
        if element.ews("Periods") != nil {
            let tzid = id ?? name ?? "EWS Time Zone"
            do {
                return try built(tzid: tzid, component: Self.vtimezone(definition: element, tzid: tzid))
            } catch let error as DefinitionError {
                problem = "the TimeZoneDefinition of '\(tzid)' cannot be read: \(error.message)"
            } catch {
                problem = "the TimeZoneDefinition of '\(tzid)' cannot be read"
            }
        }
        if let name, let zone = zone(named: name) { return zone }
        if problem == nil { problem = "the time zone '\(id ?? name ?? "")' is unknown and the document does not define it" }
        return nil
    }

    /// Exchange 2007's `MeetingTimeZone`: by TimeZoneName, else by its BaseOffset and rules.
    func zone(meetingTimeZone element: XMLElement, problem: inout String?) -> EWSReadZone? {
        let name = element.attribute("TimeZoneName")
        if let name, let zone = zone(named: name) { return zone }
        guard element.ews("BaseOffset") != nil else {
            problem = "the MeetingTimeZone '\(name ?? "")' is unknown and carries no BaseOffset"
            return nil
        }
        let tzid = name ?? "EWS Meeting Time Zone"
        do {
            return try built(tzid: tzid, component: Self.vtimezone(meetingTimeZone: element, tzid: tzid))
        } catch let error as DefinitionError {
            problem = "the MeetingTimeZone '\(tzid)' cannot be read: \(error.message)"
        } catch {
            problem = "the MeetingTimeZone '\(tzid)' cannot be read"
        }
        return nil
    }

    private func built(tzid: String, component: Component) throws -> EWSReadZone {
        guard let rules = VTimeZoneRules(component) else { throw DefinitionError(message: "it defines no offsets") }
        let zone = EWSReadZone(tzid: tzid, isUTC: false, offset: { rules.offset(utcSeconds: $0) }, definition: component)
        builtZones[tzid] = zone
        return zone
    }

    /// Every zone's offsets (and the times of day its changes happen at) are within a day; beyond that a fuzzed
    /// definition only makes arithmetic overflow further on.
    private static func withinADay(_ seconds: Int, _ what: String) throws -> Int {
        guard seconds.magnitude < 86_400 else { throw DefinitionError(message: "\(what) is not within a day") }
        return seconds
    }

    struct DefinitionError: Error {
        var message: String
    }

    // MARK: - VTIMEZONE from a TimeZoneDefinition

    /// A yearly onset: the n-th weekday (or a day) of a month at a local time, into an offset.
    private struct Onset {
        var month: Int
        var weekday: RecurrenceRule.Weekday?
        var occurrence: Int
        var day: Int?
        var time: Int
        var offsetTo: Int
        var name: String?
    }

    /// One stretch of a zone's history: a fixed offset, or a pair of yearly onsets.
    private enum Era {
        case fixed(offset: Int, name: String?)
        case yearly([Onset])
    }

    /// [MS-OXWSGTZ] TimeZoneDefinitionType: Periods give offsets (Bias is UTC minus local time),
    /// TransitionsGroups give the yearly rules, Transitions say which group holds from when.
    static func vtimezone(definition element: XMLElement, tzid: String) throws -> Component {
        var periods: [String: (offset: Int, name: String?)] = [:]
        for period in element.ews("Periods")?.ewsAll("Period") ?? [] {
            guard let id = period.attribute("Id"), let bias = period.attribute("Bias").flatMap(EWSDateTime.seconds) else {
                throw DefinitionError(message: "a Period lacks its Id or Bias")
            }
            periods[id] = (try withinADay(-bias, "the Bias of Period '\(id)'"), period.attribute("Name"))
        }
        func period(_ id: String) throws -> (offset: Int, name: String?) {
            guard let found = periods[id] else { throw DefinitionError(message: "no Period with Id '\(id)'") }
            return found
        }
        var groups: [String: Era] = [:]
        for group in element.ews("TransitionsGroups")?.ewsAll("TransitionsGroup") ?? [] {
            guard let id = group.attribute("Id") else { throw DefinitionError(message: "a TransitionsGroup lacks its Id") }
            var onsets: [Onset] = []
            var fixed: (offset: Int, name: String?)?
            for transition in group.children {
                guard let to = transition.ews("To")?.trimmedText else { throw DefinitionError(message: "a transition lacks To") }
                let target = try period(to)
                let time = try withinADay(transition.ewsText("TimeOffset").flatMap(EWSDateTime.seconds) ?? 0, "a TimeOffset")
                let month = transition.ewsText("Month").flatMap { Int($0) }.flatMap { (1...12).contains($0) ? $0 : nil }
                switch transition.name.local {
                case "RecurringDayTransition":
                    guard let month, let weekday = transition.ewsText("DayOfWeek").flatMap(RecurrenceRule.Weekday.init(ews:)),
                        let occurrence = transition.ewsText("Occurrence").flatMap({ Int($0) }),
                        (1...5).contains(occurrence) || occurrence == -1
                    else { throw DefinitionError(message: "a RecurringDayTransition lacks Month, DayOfWeek or an Occurrence of 1 to 5") }
                    onsets.append(
                        Onset(
                            month: month, weekday: weekday, occurrence: occurrence == 5 ? -1 : occurrence, time: time,
                            offsetTo: target.offset, name: target.name))
                case "RecurringDateTransition":
                    guard let month, let day = transition.ewsText("Day").flatMap({ Int($0) }), (1...31).contains(day) else {
                        throw DefinitionError(message: "a RecurringDateTransition lacks Month or a Day of 1 to 31")
                    }
                    onsets.append(
                        Onset(month: month, weekday: nil, occurrence: 0, day: day, time: time, offsetTo: target.offset, name: target.name))
                default:
                    fixed = target
                }
            }
            if onsets.count >= 2 {
                groups[id] = .yearly(onsets)
            } else if let only = onsets.first {
                groups[id] = .fixed(offset: only.offsetTo, name: only.name)
            } else if let fixed {
                groups[id] = .fixed(offset: fixed.offset, name: fixed.name)
            }
        }
        var eras: [(start: Int?, era: Era)] = []
        for transition in element.ews("Transitions")?.children ?? [] {
            guard let toElement = transition.ews("To") else { continue }
            let to = toElement.trimmedText
            let era: Era
            if toElement.attribute("Kind") == "Group" {
                guard let group = groups[to] else { throw DefinitionError(message: "no TransitionsGroup with Id '\(to)'") }
                era = group
            } else {
                let target = try period(to)
                era = .fixed(offset: target.offset, name: target.name)
            }
            var start: Int?
            if let text = transition.ewsText("DateTime") {
                guard let stamp = EWSDateTime.dateTime(text) else {
                    throw DefinitionError(message: "DateTime '\(text)' is not a date-time")
                }
                start = stamp.instant ?? stamp.wall.wallSecondsSinceEpoch
            }
            eras.append((start, era))
        }
        if eras.isEmpty, groups.count == 1, let only = groups.values.first { eras = [(nil, only)] }
        guard !eras.isEmpty else { throw DefinitionError(message: "it has no Transitions") }
        return component(tzid: tzid, eras: eras)
    }

    /// Exchange 2007's MeetingTimeZone: BaseOffset is UTC minus standard time; Standard and
    /// Daylight each add their Offset and name the yearly day their time starts.
    static func vtimezone(meetingTimeZone element: XMLElement, tzid: String) throws -> Component {
        guard let base = element.ewsText("BaseOffset").flatMap(EWSDateTime.seconds) else {
            throw DefinitionError(message: "BaseOffset is not a duration")
        }
        _ = try withinADay(base, "BaseOffset")
        var onsets: [Onset] = []
        for part in ["Standard", "Daylight"] {
            guard let observance = element.ews(part) else { continue }
            let offset = try withinADay(
                -(base + (observance.ewsText("Offset").flatMap(EWSDateTime.seconds) ?? 0)), "the BaseOffset and \(part) Offset")
            var time = 0
            if let text = observance.ewsText("Time") {
                let parts = text.split(separator: ":").compactMap { Int($0) }
                if parts.count >= 2 {
                    // Checked before they are multiplied: a fuzzed hour of 17 digits overflowed.
                    guard (0...24).contains(parts[0]), (0...59).contains(parts[1]), parts.count < 3 || (0...59).contains(parts[2]) else {
                        throw DefinitionError(message: "the \(part) Time '\(text)' is not a time of day")
                    }
                    time = parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
                }
            }
            guard let rule = observance.ews("RelativeYearlyRecurrence"),
                let month = rule.ewsText("Month").flatMap(ExchangeRecurrence.month(ews:)),
                let weekday = rule.ewsText("DaysOfWeek").flatMap(RecurrenceRule.Weekday.init(ews:)),
                let index = rule.ewsText("DayOfWeekIndex").flatMap(ExchangeWeekIndex.init(word:))
            else {
                onsets.append(Onset(month: 1, weekday: nil, occurrence: 0, day: nil, time: 0, offsetTo: offset, name: part))
                continue
            }
            onsets.append(Onset(month: month, weekday: weekday, occurrence: index.position, time: time, offsetTo: offset, name: part))
        }
        let yearly = onsets.filter { $0.weekday != nil }
        if yearly.count == 2 { return component(tzid: tzid, eras: [(nil, .yearly(yearly))]) }
        return component(tzid: tzid, eras: [(nil, .fixed(offset: onsets.first?.offsetTo ?? -base, name: "Standard"))])
    }

    private static func component(tzid: String, eras: [(start: Int?, era: Era)]) -> Component {
        var observances: [Component] = []
        var previousOffset: Int?
        for (i, entry) in eras.enumerated() {
            let end = i + 1 < eras.count ? eras[i + 1].start : nil
            // Eras without a date begin with the definition (1970: early enough for calendars).
            let startYear = entry.start.map { CalendarDate(daysSinceEpoch: Int(($0 / 86_400))).year } ?? 1970
            switch entry.era {
            case .fixed(let offset, let name):
                let wall = (entry.start ?? 0) + (previousOffset ?? offset)
                observances.append(
                    observance(
                        "STANDARD",
                        start: CalendarDateTime(date: .init(year: 1970, month: 1, day: 1), time: .init(hour: 0, minute: 0, second: 0))
                            .withWallSeconds(entry.start == nil ? 0 : wall),
                        from: previousOffset ?? offset, to: offset, name: name, rule: nil))
                previousOffset = offset
            case .yearly(let onsets):
                for onset in onsets.prefix(2) {
                    let other = onsets.first { $0.offsetTo != onset.offsetTo }?.offsetTo ?? onset.offsetTo
                    var rule = RecurrenceRule(frequency: .yearly, months: [.init(onset.month)])
                    if let weekday = onset.weekday {
                        rule.daysOfTheWeek = [.init(weekday, weekNumber: onset.occurrence)]
                    } else if let day = onset.day {
                        rule.daysOfTheMonth = [day]
                    }
                    if let end {
                        rule.end = .until(
                            CalendarDateTime(
                                date: .init(year: 1970, month: 1, day: 1), time: .init(hour: 0, minute: 0, second: 0), reference: .utc
                            ).withWallSeconds(end - 1))
                    }
                    let first = firstOnset(onset, year: startYear, after: entry.start, offsetBefore: other)
                    let isDaylight = onset.offsetTo > other
                    observances.append(
                        observance(
                            isDaylight ? "DAYLIGHT" : "STANDARD", start: first, from: other, to: onset.offsetTo,
                            name: onset.name, rule: rule))
                }
                previousOffset = onsets.max { $0.offsetTo > $1.offsetTo }?.offsetTo
            }
        }
        return Component(name: "VTIMEZONE", properties: [Property(name: "TZID", value: .text([tzid]))], components: observances)
    }

    /// The first onset on or after the era's start (local wall time in the offset before it).
    private static func firstOnset(_ onset: Onset, year: Int, after start: Int?, offsetBefore: Int) -> CalendarDateTime {
        var y = year
        while true {
            let day: CalendarDate
            if let weekday = onset.weekday {
                day = nthWeekday(weekday, onset.occurrence, month: onset.month, year: y)
            } else {
                day = CalendarDate(
                    year: y, month: onset.month, day: min(onset.day ?? 1, CalendarDate.daysInMonth(year: y, month: onset.month)))
            }
            let wall = CalendarDateTime(date: day, time: .init(hour: 0, minute: 0, second: 0)).withWallSeconds(
                day.daysSinceEpoch * 86_400 + onset.time)
            if let start, wall.wallSecondsSinceEpoch - offsetBefore < start, y < year + 400 {
                y += 1
                continue
            }
            return wall
        }
    }

    private static func nthWeekday(_ weekday: RecurrenceRule.Weekday, _ n: Int, month: Int, year: Int) -> CalendarDate {
        let last = CalendarDate.daysInMonth(year: year, month: month)
        let matching = (1...last).map { CalendarDate(year: year, month: month, day: $0) }.filter {
            RecurrenceRule.Weekday(isoWeekday: $0.isoWeekday) == weekday
        }
        if n < 0 || n > matching.count { return matching[matching.count - 1] }
        return matching[max(n, 1) - 1]
    }

    private static func observance(_ kind: String, start: CalendarDateTime, from: Int, to: Int, name: String?, rule: RecurrenceRule?)
        -> Component
    {
        var properties = [
            Property(name: "DTSTART", value: .dateTimes([start])), Property(name: "TZOFFSETFROM", value: .utcOffset(from)),
            Property(name: "TZOFFSETTO", value: .utcOffset(to)),
        ]
        if let rule { properties.append(Property(name: "RRULE", value: .recurrence(rule))) }
        if let name, !name.isEmpty { properties.append(Property(name: "TZNAME", value: .text([name]))) }
        return Component(name: kind, properties: properties)
    }
}
