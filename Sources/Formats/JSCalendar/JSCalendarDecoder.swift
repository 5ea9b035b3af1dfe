import CalendarModel
import ICalendarData
import JSONCoding

/// Maps JSCalendar objects (RFC 8984) to the typed model. Accepts the names of RFC 8984 and,
/// for reading others' data, those of the JSCalendar iCalendar mapping draft
/// (`recurrenceRule`, `calendarAddress`, `organizerCalendarAddress`). Members it does not map
/// are reported as warnings, except vendor members (`example.com:name`) and `calport:` data,
/// which the reader handles.
struct JSCalendarDecoder {
    let file: String
    let line: Int
    let strict: Bool
    let log: DiagnosticLog
    var clock = ZoneClock()
    /// The participant words, with a run's `--map` overrides.
    var vocabulary = JSCalendarVocabulary.participants
    /// Whether members calport does not map are reported; the writer's check of what it wrote
    /// (lenient, its log discarded) needs no such report, and looking was 4% of a write.
    var reportsUnmappedMembers = true

    func fail(_ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: file, line: line, location: path.isEmpty ? nil : path, message)
    }

    func warn(_ path: String, _ message: String) throws {
        if strict { throw fail(path, message) }
        log.warning(file: file, line: line, location: path.isEmpty ? nil : path, message)
    }

    /// Members every JSCalendar object may carry that calport reads or knowingly ignores.
    /// `...` marks omitted content in RFC 8984's own examples.
    static let ignoredMembers: Set<String> = ["@type", "..."]

    // The paths below are made only for a message: the writer checks every item it writes by
    // reading it back, and paths made ahead were a few percent of that.

    private func string(_ o: JSONObject, _ key: String, _ path: @autoclosure () -> String) throws -> String? {
        guard let v = o[key], v != .null else { return nil }
        guard let s = v.stringValue else { throw fail("\(path())/\(key)", "expected a string, found \(v.typeName)") }
        return s
    }

    private func localDateTime(_ text: String, _ path: @autoclosure () -> String) throws -> CalendarDateTime {
        guard let v = ISO8601Text.parseDateTime(text), v.reference == .floating else {
            throw fail(path(), "'\(text)' is not a LocalDateTime (YYYY-MM-DDThh:mm:ss)")
        }
        return v
    }

    /// A LocalDateTime anchored as the item's start is: in its zone, UTC, floating, or a date.
    private mutating func anchored(_ local: CalendarDateTime, zone: String?, dateOnly: Bool) -> CalendarDateTime {
        if dateOnly, local.time == TimeOfDay(hour: 0, minute: 0, second: 0) { return CalendarDateTime(date: local.date) }
        guard let zone else { return local }
        if zone == "Etc/UTC" || zone == "UTC" {
            return CalendarDateTime(date: local.date, time: local.time, reference: .utc)
        }
        return CalendarDateTime(date: local.date, time: local.time, reference: .zone(zone))
    }

    private func utcDateTime(_ o: JSONObject, _ key: String, _ path: @autoclosure () -> String) throws -> CalendarDateTime? {
        guard let s = try string(o, key, path()) else { return nil }
        guard let v = ISO8601Text.parseDateTime(s), v.reference == .utc else {
            throw fail("\(path())/\(key)", "'\(s)' is not a UTCDateTime (YYYY-MM-DDThh:mm:ssZ)")
        }
        return v
    }

    private func duration(_ o: JSONObject, _ key: String, _ path: @autoclosure () -> String) throws -> CalendarDuration? {
        guard let s = try string(o, key, path()) else { return nil }
        guard let d = ISO8601Text.parseDuration(s) else { throw fail("\(path())/\(key)", "'\(s)' is not a duration") }
        return d
    }

    private func int(_ o: JSONObject, _ key: String, _ path: @autoclosure () -> String) throws -> Int? {
        guard let v = o[key], v != .null else { return nil }
        guard let n = v.intValue else { throw fail("\(path())/\(key)", "expected an integer, found \(v.typeName)") }
        return n
    }

    // MARK: Items

    /// The entry an Event or Task object describes.
    mutating func entry(_ o: JSONObject, _ path: String) throws -> CalendarEntry {
        switch try string(o, "@type", path) {
        case "Event"?: return .event(try event(o, path))
        case "Task"?: return .reminder(try task(o, path))
        case let t: throw fail("\(path)/@type", "expected Event or Task, found \(t.map { "'\($0)'" } ?? "none")")
        }
    }

    mutating func event(_ o: JSONObject, _ path: String) throws -> Event {
        var e = Event(item: try item(o, path, isTask: false))
        if let start = e.start, let d = try duration(o, "duration", path) {
            // JSCalendar's duration ends the event; iCalendar's usual way to say so is DTEND.
            if start.isDateOnly, let days = d.wholeDays {
                e.end = CalendarDateTime(date: start.date.adding(days: days))
            } else if !start.isDateOnly {
                e.end = start.withWallSeconds(start.wallSecondsSinceEpoch + d.totalSeconds)
            } else {
                e.duration = d
            }
        }
        if let s = try string(o, "status", path) {
            e.item.status = JSCalendarVocabulary.value(s, in: JSCalendarVocabulary.eventStatuses) ?? .other(s.uppercased())
        }
        switch try string(o, "freeBusyStatus", path) {
        case "free"?: e.transparency = "TRANSPARENT"
        case "busy"?: e.transparency = "OPAQUE"
        case let s?: try warn("\(path)/freeBusyStatus", "freeBusyStatus '\(s)' is not free or busy; ignored")
        case nil: break
        }
        try checkMembers(o, path, known: Self.eventMembers)
        return e
    }

    mutating func task(_ o: JSONObject, _ path: String) throws -> Reminder {
        var r = Reminder(item: try item(o, path, isTask: true))
        let zone = try string(o, "timeZone", path)
        if let due = try string(o, "due", path) {
            let local = try localDateTime(due, "\(path)/due")
            r.due = anchored(local, zone: zone, dateOnly: o["showWithoutTime"] == .bool(true))
        }
        r.percentComplete = try int(o, "percentComplete", path)
        if let p = try string(o, "progress", path) {
            r.item.status = JSCalendarVocabulary.value(p, in: JSCalendarVocabulary.taskProgress) ?? .other(p.uppercased())
        }
        try checkMembers(o, path, known: Self.taskMembers)
        return r
    }

    static let commonMembers: Set<String> = [
        "uid", "recurrenceId", "recurrenceIdTimeZone", "created", "updated", "sequence", "title", "description", "start",
        "timeZone", "showWithoutTime", "privacy", "priority", "color", "keywords", "categories", "links", "locations",
        "participants", "replyTo", "organizerCalendarAddress", "recurrenceRules", "recurrenceRule", "recurrenceOverrides",
        "alerts",
    ]
    static let eventMembers = commonMembers.union(["duration", "status", "freeBusyStatus"])
    static let taskMembers = commonMembers.union(["due", "percentComplete", "progress"])
    static let locationMembers: Set<String> = ["name", "title", "coordinates"]
    static let participantMembers: Set<String> = [
        "name", "email", "sendTo", "calendarAddress", "kind", "roles", "participationStatus", "expectReply", "delegatedTo",
        "delegatedFrom", "language",
    ]
    static let alertMembers: Set<String> = ["trigger", "action"]
    static let ruleMembers: Set<String> = [
        "frequency", "interval", "rscale", "skip", "firstDayOfWeek", "byDay", "byMonthDay", "byMonth", "byYearDay", "byWeekNo",
        "byHour", "byMinute", "bySecond", "bySetPosition", "count", "until",
    ]

    /// Reports members calport does not map, so nothing is skipped silently.
    func checkMembers(_ o: JSONObject, _ path: @autoclosure () -> String, known: Set<String>) throws {
        guard reportsUnmappedMembers else { return }
        // Walked in place: `o.keys` built an array of every name of every object read.
        for m in o.members where !known.contains(m.key) && !Self.ignoredMembers.contains(m.key) && !m.key.contains(":") {
            try warn("\(path())/\(m.key)", "JSCalendar member '\(m.key)' has no iCalendar counterpart in calport; ignored")
        }
    }

    private mutating func item(_ o: JSONObject, _ path: String, isTask: Bool) throws -> CalendarItem {
        var i = CalendarItem(uid: try string(o, "uid", path), title: try string(o, "title", path))
        i.notes = try string(o, "description", path)
        let zone = try string(o, "timeZone", path)
        let dateOnly = o["showWithoutTime"] == .bool(true)
        if let s = try string(o, "start", path) {
            i.start = anchored(try localDateTime(s, "\(path)/start"), zone: zone, dateOnly: dateOnly)
        }
        if let rid = try string(o, "recurrenceId", path) {
            // RFC 8984 §4.1.3: the recurrence id is in recurrenceIdTimeZone when given, else the start's.
            let ridZone = o["recurrenceIdTimeZone"] == nil ? zone : try string(o, "recurrenceIdTimeZone", path)
            i.recurrenceID = anchored(
                try localDateTime(rid, "\(path)/recurrenceId"), zone: ridZone, dateOnly: dateOnly && o["recurrenceIdTimeZone"] == nil)
        }
        i.created = try utcDateTime(o, "created", path)
        i.lastModified = try utcDateTime(o, "updated", path)
        i.sequence = try int(o, "sequence", path)
        if let p = try string(o, "privacy", path) {
            i.classification = JSCalendarVocabulary.value(p, in: JSCalendarVocabulary.privacy) ?? .other(p.uppercased())
        }
        i.priority = try int(o, "priority", path)
        if let color = try string(o, "color", path) { i.properties.append(Property(name: "COLOR", value: .text([color]))) }
        if let k = o["keywords"]?.objectValue {
            let words = k.members.filter { $0.value == .bool(true) }.map(\.key)
            // One CATEGORIES line per keyword, as the JSCalendar–iCalendar mapping draft writes them.
            i.categories = words.map { [$0] }
        }
        if let links = o["links"]?.objectValue, let first = links.members.first?.value.objectValue, let href = first["href"]?.stringValue {
            i.url = href
        }
        try locations(o, path, into: &i)
        try participants(o, path, into: &i)
        var rules: [JSONValue] = o["recurrenceRules"]?.arrayValue ?? []
        if let single = o["recurrenceRule"], single != .null { rules.append(single) }
        for (n, r) in rules.enumerated() {
            guard let ro = r.objectValue else { throw fail("\(path)/recurrenceRules/\(n)", "expected a RecurrenceRule object") }
            i.recurrenceRules.append(try rule(ro, "\(path)/recurrenceRules/\(n)", start: i.start, zone: zone))
        }
        if let overrides = o["recurrenceOverrides"]?.objectValue {
            var added: [CalendarDateTime] = []
            var excluded: [CalendarDateTime] = []
            for m in overrides.members {
                let key = anchored(try localDateTime(m.key, "\(path)/recurrenceOverrides/\(m.key)"), zone: zone, dateOnly: dateOnly)
                guard let patch = m.value.objectValue else { throw fail("\(path)/recurrenceOverrides/\(m.key)", "expected a patch object") }
                if patch["excluded"] == .bool(true) {
                    excluded.append(key)
                } else if patch.members.isEmpty {
                    added.append(key)
                }
                // A non-empty patch is an occurrence of its own; the reader emits it separately.
            }
            if !added.isEmpty { i.recurrenceDates = [CalendarItem.DateList(dates: added)] }
            if !excluded.isEmpty { i.exceptionDates = [CalendarItem.DateList(dates: excluded)] }
        }
        try alerts(o, path, title: i.title, into: &i)
        return i
    }

    private func coordinates(_ text: String) -> GeoCoordinate? {
        // Two numbers or three (an altitude, which calport has no place for).
        guard let parts = GeoCoordinate.numbers(inGeoURI: text), parts.count == 2 || parts.count == 3, let lat = Double(parts[0]),
            let lon = Double(parts[1]), lat.isFinite, lon.isFinite
        else { return nil }
        return GeoCoordinate(latitude: lat, longitude: lon)
    }

    /// The first location becomes LOCATION and GEO, the second an Apple structured location.
    private func locations(_ o: JSONObject, _ path: String, into i: inout CalendarItem) throws {
        guard let locations = o["locations"]?.objectValue else { return }
        for (n, m) in locations.members.enumerated() {
            func here() -> String { "\(path)/locations/\(m.key)" }
            guard let l = m.value.objectValue else { throw fail(here(), "expected a Location object") }
            // RFC 8984's own examples name some locations with "title"; accept both.
            let name = try string(l, "name", here()) ?? (try string(l, "title", here()))
            let text = try string(l, "coordinates", here())
            let geo = text.flatMap(coordinates)
            if let text, geo == nil {
                try warn("\(here())/coordinates", "'\(text)' is not a geo: URI with a finite latitude and longitude; ignored")
            }
            switch n {
            case 0:
                i.location = name
                i.geo = geo
            case 1 where geo != nil:
                // A second place with coordinates is what Apple's structured location holds.
                i.structuredLocation = StructuredLocation(title: name, latitude: geo?.latitude, longitude: geo?.longitude)
            default:
                try warn(here(), "a further location has no iCalendar place in calport; ignored")
                continue
            }
            try checkMembers(l, here(), known: Self.locationMembers)
        }
    }

    private func address(_ sendTo: JSONValue?) -> String? {
        guard let s = sendTo?.objectValue else { return nil }
        return s["imip"]?.stringValue ?? s.members.first?.value.stringValue
    }

    /// `replyTo` (or an owner) is the ORGANIZER; participants with an attendee-like role, or
    /// none, are ATTENDEEs (RFC 8984 §4.4.6: roles default to attendee).
    private func participants(_ o: JSONObject, _ path: String, into i: inout CalendarItem) throws {
        let map = o["participants"]?.objectValue ?? JSONObject()
        var byID: [String: String] = [:]
        byID.reserveCapacity(map.members.count)
        var owners: [(url: String, name: String?)] = []
        for m in map.members {
            guard let p = m.value.objectValue else { throw fail("\(path)/participants/\(m.key)", "expected a Participant object") }
            let url = address(p["sendTo"]) ?? p["calendarAddress"]?.stringValue ?? p["email"]?.stringValue.map { "mailto:" + $0 }
            if let url { byID[m.key] = url }
            if p["roles"]?.objectValue?["owner"] == .bool(true), let url { owners.append((url, p["name"]?.stringValue)) }
        }
        let replyTo = address(o["replyTo"]) ?? o["organizerCalendarAddress"]?.stringValue
        if let org = replyTo ?? owners.first?.url {
            i.organizer = Participant(name: owners.first { ASCIICaseFolding.equal($0.url, org) }?.name, url: org)
        }
        for m in map.members {
            let p = m.value.objectValue!
            // Made only for a message: the writer's check reads every participant it wrote.
            func here() -> String { "\(path)/participants/\(m.key)" }
            guard let url = byID[m.key] else {
                try warn(here(), "participant has no sendTo, calendarAddress or email; ignored")
                continue
            }
            let roles = Roles(p["roles"]?.objectValue)
            guard roles.isAttendeeLike else { continue }
            var a = Participant(name: p["name"]?.stringValue, url: url)
            if roles.informational {
                a.role = .nonParticipant
            } else if roles.optional {
                a.role = .optional
            } else if roles.chair {
                a.role = .chair
            } else if roles.contact && !roles.attendee {
                a.role = .other("CONTACT")
            }
            if let s = p["participationStatus"]?.stringValue {
                a.status = vocabulary.statuses.first { $0.1 == s }?.0 ?? .other(s.uppercased())
            }
            if let k = p["kind"]?.stringValue { a.type = vocabulary.types.first { $0.1 == k }?.0 ?? .other(k.uppercased()) }
            if case .bool(let b)? = p["expectReply"] { a.expectsReply = b }
            if let email = p["email"]?.stringValue, !ASCIICaseFolding.equal(email, url, after: "mailto:") { a.email = email }
            a.delegatedTo = (p["delegatedTo"]?.objectValue?.keys ?? []).compactMap { byID[$0] }
            a.delegatedFrom = (p["delegatedFrom"]?.objectValue?.keys ?? []).compactMap { byID[$0] }
            a.language = p["language"]?.stringValue
            try checkMembers(p, here(), known: Self.participantMembers)
            i.attendees.append(a)
        }
    }

    /// The roles a participant's `roles` sets to true, found in one walk of its members (a
    /// Set of their names cost more than the rest of reading the participant).
    private struct Roles {
        var any = false
        var attendee = false
        var optional = false
        var informational = false
        var chair = false
        var contact = false

        init(_ roles: JSONObject?) {
            for m in roles?.members ?? [] where m.value == .bool(true) {
                any = true
                switch m.key {
                case "attendee": attendee = true
                case "optional": optional = true
                case "informational": informational = true
                case "chair": chair = true
                case "contact": contact = true
                default: break
                }
            }
        }

        /// Whether the participant is an ATTENDEE: an attendee-like role, or none.
        var isAttendeeLike: Bool { !any || attendee || optional || informational || chair || contact }
    }

    private func alerts(_ o: JSONObject, _ path: String, title: String?, into i: inout CalendarItem) throws {
        guard let alerts = o["alerts"]?.objectValue else { return }
        for m in alerts.members {
            func here() -> String { "\(path)/alerts/\(m.key)" }
            guard let a = m.value.objectValue else { throw fail(here(), "expected an Alert object") }
            guard let t = a["trigger"]?.objectValue else {
                try warn(here(), "an alert without a trigger has no iCalendar form; ignored")
                continue
            }
            let action: Alarm.Action = a["action"]?.stringValue == "email" ? .email : .display
            var alarm = Alarm(action: action)
            switch t["@type"]?.stringValue {
            case "OffsetTrigger"?:
                guard let d = try duration(t, "offset", "\(here())/trigger") else { throw fail("\(here())/trigger/offset", "missing") }
                alarm.trigger = .relative(d, relativeToEnd: t["relativeTo"]?.stringValue == "end")
            case "AbsoluteTrigger"?:
                alarm.trigger = .absolute(
                    try utcDateTime(t, "when", "\(here())/trigger") ?? { throw fail("\(here())/trigger/when", "missing") }())
            default:
                try warn("\(here())/trigger", "an alert without an offset or absolute trigger has no iCalendar form; ignored")
                continue
            }
            try checkMembers(a, here(), known: Self.alertMembers)
            // RFC 5545 §3.6.6 requires a DESCRIPTION on DISPLAY alarms; the title says what is due.
            if action == .display { alarm.description = title ?? "Reminder" }
            i.alarms.append(alarm)
        }
    }

    mutating func rule(_ o: JSONObject, _ path: @autoclosure () -> String, start: CalendarDateTime?, zone: String?) throws -> RecurrenceRule
    {
        guard let f = try string(o, "frequency", path()), let frequency = RecurrenceRule.Frequency(rawValue: f.uppercased()) else {
            throw fail("\(path())/frequency", "missing or unknown frequency")
        }
        var r = RecurrenceRule(frequency: frequency)
        if let n = try int(o, "interval", path()) {
            r.interval = n
            r.intervalWasExplicit = true
        }
        r.scale = try string(o, "rscale", path())?.uppercased()
        r.skip = try string(o, "skip", path())?.uppercased()
        if let w = try string(o, "firstDayOfWeek", path()) {
            guard let d = RecurrenceRule.Weekday(code: w) else { throw fail("\(path())/firstDayOfWeek", "'\(w)' is not a weekday") }
            r.firstDayOfTheWeek = d
        }
        for (n, v) in (o["byDay"]?.arrayValue ?? []).enumerated() {
            guard let d = v.objectValue, let code = d["day"]?.stringValue, let day = RecurrenceRule.Weekday(code: code) else {
                throw fail("\(path())/byDay/\(n)", "expected an NDay with a day")
            }
            r.daysOfTheWeek.append(.init(day, weekNumber: d["nthOfPeriod"]?.intValue ?? 0))
        }
        func ints(_ key: String) throws -> [Int] {
            try (o[key]?.arrayValue ?? []).enumerated().map { n, v in
                guard let i = v.intValue else { throw fail("\(path())/\(key)/\(n)", "expected an integer") }
                return i
            }
        }
        r.daysOfTheMonth = try ints("byMonthDay")
        r.months = try (o["byMonth"]?.arrayValue ?? []).enumerated().map { n, v in
            let text = v.stringValue ?? v.intValue.map(String.init) ?? ""
            let leap = text.hasSuffix("L")
            guard let m = Int(leap ? String(text.dropLast()) : text) else {
                throw fail("\(path())/byMonth/\(n)", "'\(text)' is not a month")
            }
            return RecurrenceRule.Month(m, isLeap: leap)
        }
        r.daysOfTheYear = try ints("byYearDay")
        r.weeksOfTheYear = try ints("byWeekNo")
        r.byHour = try ints("byHour")
        r.byMinute = try ints("byMinute")
        r.bySecond = try ints("bySecond")
        r.setPositions = try ints("bySetPosition")
        try checkMembers(o, path(), known: Self.ruleMembers)
        if let n = try int(o, "count", path()) { r.end = .count(n) }
        if let u = try string(o, "until", path()) {
            let local = try localDateTime(u, "\(path())/until")
            if let start, start.isDateOnly, local.time == TimeOfDay(hour: 0, minute: 0, second: 0) {
                r.end = .until(CalendarDateTime(date: local.date))
            } else if let start, case .zone(let id) = start.reference {
                // RFC 5545 §3.3.10: with a zoned DTSTART, UNTIL is given in UTC.
                let wall = CalendarDateTime(date: local.date, time: local.time, reference: .zone(id))
                r.end = .until(clock.utc(wall, in: id) ?? wall)
            } else if let start, start.reference == .utc {
                r.end = .until(CalendarDateTime(date: local.date, time: local.time, reference: .utc))
            } else {
                r.end = .until(local)
            }
        }
        // A value the RRULE text refuses would be written into a rule no reader of ICS takes.
        if let problem = r.outOfRangeValue { throw fail(path(), problem) }
        return r
    }

    // MARK: Groups

    /// A Group's own fields as a calendar.
    func calendar(_ o: JSONObject, _ path: String) throws -> CalendarModel.Calendar {
        var c = CalendarModel.Calendar(title: try string(o, "title", path) ?? (try string(o, "name", path)))
        c.description = try string(o, "description", path)
        c.color = try string(o, "color", path)
        c.productID = try string(o, "prodId", path)
        c.subscriptionURL = try string(o, "source", path)
        // RFC 7986 §5.3 and §5.4 give a VCALENDAR its own UID and LAST-MODIFIED.
        if let uid = try string(o, "uid", path) { c.properties.append(Property(name: "UID", value: .text([uid]))) }
        if let updated = try utcDateTime(o, "updated", path) {
            c.properties.append(Property(name: "LAST-MODIFIED", value: .dateTimes([updated])))
        }
        return c
    }
}
