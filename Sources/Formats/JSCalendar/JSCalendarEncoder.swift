import CalendarModel
import ICalendarData
import JSONCoding

/// Maps the typed model to JSCalendar objects (RFC 8984) field by field. It writes only what
/// JSCalendar can say; what it cannot say exactly is found afterwards by decoding the result
/// and comparing (see `ICalendarRemainder`), so this type never has to judge losslessness.
struct JSCalendarEncoder {
    var clock = ZoneClock()
    /// The participant words, with a run's `--map` overrides.
    var vocabulary = JSCalendarVocabulary.participants

    // MARK: Values

    /// RFC 8984 §1.4.4 LocalDateTime: the wall time without zone.
    static func local(_ v: CalendarDateTime) -> String {
        ISO8601Text.date(v.date) + "T" + ISO8601Text.time(v.time ?? TimeOfDay(hour: 0, minute: 0, second: 0))
    }

    /// RFC 8984 §1.4.3 UTCDateTime, for UTC values only.
    static func utc(_ v: CalendarDateTime?) -> String? {
        guard let v, v.reference == .utc, let t = v.time else { return nil }
        return ISO8601Text.date(v.date) + "T" + ISO8601Text.time(t) + "Z"
    }

    /// The `timeZone` a value implies: its TZID, `Etc/UTC` for UTC, nil for floating and dates.
    static func zone(_ v: CalendarDateTime) -> String? {
        if v.isDateOnly { return nil }
        switch v.reference {
        case .utc: return "Etc/UTC"
        case .zone(let id): return id
        case .floating: return nil
        }
    }

    /// A date or date-time of the item as a LocalDateTime in the item's own zone (the start's),
    /// converting UTC values into a named zone; nil when that cannot be done exactly.
    mutating func localInItemZone(_ v: CalendarDateTime, start: CalendarDateTime?) -> String? {
        guard let start else { return v.isDateOnly || v.reference == .floating ? Self.local(v) : nil }
        if v.isDateOnly || start.isDateOnly { return v.isDateOnly == start.isDateOnly ? Self.local(v) : nil }
        if v.reference == start.reference { return Self.local(v) }
        if v.reference == .utc, case .zone(let id) = start.reference, let l = clock.local(v, in: id) { return Self.local(l) }
        return nil
    }

    /// RFC 8984 §1.4.6 Duration from seconds: days when whole, then the time part.
    static func duration(seconds: Int) -> String {
        CalendarDuration(seconds: seconds).rfc5545Text
    }

    // MARK: Items

    /// Room for the members an item usually has, taken at once rather than regrown.
    private static let itemMembers = 24

    mutating func event(_ e: Event) -> JSONObject {
        var o = JSONObject()
        o.members.reserveCapacity(Self.itemMembers)
        o.append("@type", .string("Event"))
        common(e.item, into: &o)
        if let start = e.start {
            // DTEND wins over a DURATION given as well (invalid, but seen), as `effectiveEnd` has it.
            if e.end == nil, let duration = e.duration {
                o.append("duration", .string(duration.rfc5545Text))
            } else if let end = e.end {
                if end.isDateOnly == start.isDateOnly, end.reference == start.reference {
                    o.append("duration", .string(Self.duration(seconds: end.wallSecondsSinceEpoch - start.wallSecondsSinceEpoch)))
                } else if let s = instant(start), let t = instant(end) {
                    // Different zones: the exact length, which JSCalendar's time part keeps.
                    o.append("duration", .string(Self.duration(seconds: t - s)))
                }
            }
        }
        if let s = e.status, let w = JSCalendarVocabulary.word(s, in: JSCalendarVocabulary.eventStatuses) {
            o.append("status", .string(w))
        }
        switch e.transparency?.uppercased() {
        case "TRANSPARENT": o.append("freeBusyStatus", .string("free"))
        case "OPAQUE": o.append("freeBusyStatus", .string("busy"))
        default: break
        }
        trailing(e.item, into: &o)
        return o
    }

    mutating func task(_ r: Reminder) -> JSONObject {
        var o = JSONObject()
        o.members.reserveCapacity(Self.itemMembers)
        o.append("@type", .string("Task"))
        common(r.item, into: &o)
        if let due = r.due {
            if let start = r.start {
                if let l = localInItemZone(due, start: start) { o.append("due", .string(l)) }
            } else {
                o.append("due", .string(Self.local(due)))
                if let z = Self.zone(due) { o.append("timeZone", .string(z)) }
                if due.isDateOnly { o.append("showWithoutTime", .bool(true)) }
            }
        }
        if let p = r.percentComplete, (0...100).contains(p) { o.append("percentComplete", .number(String(p))) }
        if let s = r.status, let w = JSCalendarVocabulary.word(s, in: JSCalendarVocabulary.taskProgress) {
            o.append("progress", .string(w))
        }
        trailing(r.item, into: &o)
        return o
    }

    private mutating func instant(_ v: CalendarDateTime) -> Int? {
        switch v.reference {
        case .utc where !v.isDateOnly: return v.wallSecondsSinceEpoch
        case .zone(let id) where !v.isDateOnly: return clock.utc(v, in: id)?.wallSecondsSinceEpoch
        default: return nil
        }
    }

    /// uid, recurrence id, dates of change, title, description and start.
    private mutating func common(_ i: CalendarItem, into o: inout JSONObject) {
        o.append("uid", i.uid)
        if let rid = i.recurrenceID {
            o.append("recurrenceId", .string(Self.local(rid)))
            if let z = Self.zone(rid) { o.append("recurrenceIdTimeZone", .string(z)) }
        }
        o.append("created", Self.utc(i.created))
        o.append("updated", Self.utc(i.lastModified))
        // Out-of-range numbers (seen in damaged files) stay in the remainder, not in JSCalendar.
        if let n = i.sequence, n >= 0 { o.append("sequence", .number(String(n))) }
        o.append("title", i.title)
        o.append("description", i.notes)
        if let start = i.start {
            o.append("start", .string(Self.local(start)))
            if let z = Self.zone(start) { o.append("timeZone", .string(z)) }
            if start.isDateOnly { o.append("showWithoutTime", .bool(true)) }
        }
    }

    private mutating func trailing(_ i: CalendarItem, into o: inout JSONObject) {
        if let c = i.classification, let w = JSCalendarVocabulary.word(c, in: JSCalendarVocabulary.privacy) {
            o.append("privacy", .string(w))
        }
        if let p = i.priority, (0...9).contains(p) { o.append("priority", .number(String(p))) }
        if let color = i.properties.first(where: { $0.name == "COLOR" }), case .text(let t) = color.value, t.count == 1 {
            o.append("color", .string(t[0]))
        }
        let keywords = i.allCategories
        if !keywords.isEmpty {
            var k = JSONObject()
            for word in keywords where k[word] == nil { k.append(word, .bool(true)) }
            o.append("keywords", .object(k))
        }
        if let url = i.url {
            var link = JSONObject()
            link.append("@type", .string("Link"))
            link.append("href", .string(url))
            var links = JSONObject()
            links.append("url", .object(link))
            o.append("links", .object(links))
        }
        locations(i, into: &o)
        participants(i, into: &o)
        if !i.recurrenceRules.isEmpty {
            o.append("recurrenceRules", .array(i.recurrenceRules.map { .object(rule($0, start: i.start)) }))
        }
        var overrides = JSONObject()
        for list in i.recurrenceDates where list.periods.isEmpty {
            for d in list.dates { if let key = localInItemZone(d, start: i.start) { overrides.set(key, .object(JSONObject())) } }
        }
        for list in i.exceptionDates {
            for d in list.dates {
                if let key = localInItemZone(d, start: i.start) {
                    overrides.set(key, .object(JSONObject([.init(key: "excluded", value: .bool(true))])))
                }
            }
        }
        if !overrides.members.isEmpty { o.append("recurrenceOverrides", .object(overrides)) }
        alerts(i, into: &o)
    }

    /// LOCATION and GEO become the first location; an Apple structured location the second.
    private func locations(_ i: CalendarItem, into o: inout JSONObject) {
        var locations = JSONObject()
        func location(name: String?, latitude: Double?, longitude: Double?) -> JSONValue {
            var l = JSONObject()
            l.append("@type", .string("Location"))
            l.append("name", name)
            if let latitude, let longitude {
                l.append("coordinates", .string("geo:\(Self.number(latitude)),\(Self.number(longitude))"))
            }
            return .object(l)
        }
        if i.location != nil || i.geo != nil {
            locations.append("1", location(name: i.location, latitude: i.geo?.latitude, longitude: i.geo?.longitude))
        }
        if let s = i.structuredLocation {
            locations.append("2", location(name: s.title, latitude: s.latitude, longitude: s.longitude))
        }
        if !locations.members.isEmpty { o.append("locations", .object(locations)) }
    }

    static func number(_ d: Double) -> String {
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private func sendTo(_ url: String) -> JSONValue {
        var s = JSONObject()
        s.append(Participant.mailtoAddress(url) != nil ? "imip" : "other", .string(url))
        return .object(s)
    }

    /// ORGANIZER becomes an owner and `replyTo`; ATTENDEEs become attendees. An organizer who
    /// is also an attendee is one participant with both roles (RFC 8984 §4.4.6).
    private func participants(_ i: CalendarItem, into o: inout JSONObject) {
        guard i.organizer != nil || !i.attendees.isEmpty else { return }
        var ids: [String: String] = [:]
        var order: [(id: String, participant: Participant, owner: Bool, attendee: Bool)] = []
        if let org = i.organizer {
            ids[ASCIICaseFolding.lowercased(org.url)] = "p1"
            order.append(("p1", org, true, false))
        }
        for a in i.attendees {
            let key = ASCIICaseFolding.lowercased(a.url)
            if let id = ids[key], let index = order.firstIndex(where: { $0.id == id }), !order[index].attendee {
                order[index].participant = a
                order[index].attendee = true
                continue
            }
            let id = "p\(order.count + 1)"
            if ids[key] == nil { ids[key] = id }
            order.append((id, a, false, true))
        }
        if let org = i.organizer { o.append("replyTo", sendTo(org.url)) }
        var map = JSONObject()
        for entry in order {
            let p = entry.participant
            var j = JSONObject()
            // Room for every member a participant may have, taken at once rather than regrown.
            j.members.reserveCapacity(12)
            j.append("@type", .string("Participant"))
            j.append("name", p.name ?? (entry.owner ? i.organizer?.name : nil))
            if let email = p.emailAddress {
                j.append("email", .string(email))
            }
            j.append("sendTo", sendTo(p.url))
            if let t = p.type, let w = vocabulary.word(for: t), vocabulary.types.contains(where: { $0.1 == w }) {
                j.append("kind", .string(w))
            }
            var roles = JSONObject()
            if entry.owner { roles.append("owner", .bool(true)) }
            if entry.attendee {
                switch p.role {
                case .nonParticipant?: roles.append("informational", .bool(true))
                case .optional?:
                    roles.append("attendee", .bool(true))
                    roles.append("optional", .bool(true))
                case .chair?:
                    roles.append("attendee", .bool(true))
                    roles.append("chair", .bool(true))
                default: roles.append("attendee", .bool(true))
                }
            }
            j.append("roles", .object(roles))
            if entry.attendee, let s = p.status, case let w? = vocabulary.word(for: s), vocabulary.statuses.contains(where: { $0.1 == w }) {
                j.append("participationStatus", .string(w))
            }
            if let r = p.expectsReply { j.append("expectReply", .bool(r)) }
            let to = p.delegatedTo.compactMap { ids[ASCIICaseFolding.lowercased($0)] }
            if !to.isEmpty { j.append("delegatedTo", .object(JSONObject(to.map { .init(key: $0, value: .bool(true)) }))) }
            let from = p.delegatedFrom.compactMap { ids[ASCIICaseFolding.lowercased($0)] }
            if !from.isEmpty { j.append("delegatedFrom", .object(JSONObject(from.map { .init(key: $0, value: .bool(true)) }))) }
            j.append("language", p.language)
            map.append(entry.id, .object(j))
        }
        o.append("participants", .object(map))
    }

    private func alerts(_ i: CalendarItem, into o: inout JSONObject) {
        var alerts = JSONObject()
        for (n, a) in i.alarms.enumerated() {
            var j = JSONObject()
            j.append("@type", .string("Alert"))
            var trigger = JSONObject()
            switch a.trigger {
            case .relative(let d, let toEnd):
                trigger.append("@type", .string("OffsetTrigger"))
                trigger.append("offset", .string(d.rfc5545Text))
                if toEnd { trigger.append("relativeTo", .string("end")) }
            case .absolute(let d):
                if let when = Self.utc(d) {
                    trigger.append("@type", .string("AbsoluteTrigger"))
                    trigger.append("when", .string(when))
                } else {
                    trigger.append("@type", .string("UnknownTrigger"))
                }
            case nil:
                trigger.append("@type", .string("UnknownTrigger"))
            }
            j.append("trigger", .object(trigger))
            switch a.action {
            case .email: j.append("action", .string("email"))
            default: j.append("action", .string("display"))
            }
            alerts.append("alert\(n + 1)", .object(j))
        }
        if !alerts.members.isEmpty { o.append("alerts", .object(alerts)) }
    }

    /// RFC 8984 §4.3.3 RecurrenceRule; UNTIL becomes a local date-time in the start's zone.
    mutating func rule(_ r: RecurrenceRule, start: CalendarDateTime?) -> JSONObject {
        var o = JSONObject()
        o.append("@type", .string("RecurrenceRule"))
        o.append("frequency", .string(r.frequency.rawValue.lowercased()))
        if r.interval != 1 || r.intervalWasExplicit { o.append("interval", .number(String(r.interval))) }
        if let scale = r.scale { o.append("rscale", .string(scale.lowercased())) }
        if let skip = r.skip { o.append("skip", .string(skip.lowercased())) }
        if let w = r.firstDayOfTheWeek { o.append("firstDayOfWeek", .string(w.code.lowercased())) }
        if !r.daysOfTheWeek.isEmpty {
            o.append(
                "byDay",
                .array(
                    r.daysOfTheWeek.map { d in
                        var n = JSONObject()
                        n.append("@type", .string("NDay"))
                        n.append("day", .string(d.weekday.code.lowercased()))
                        if d.weekNumber != 0 { n.append("nthOfPeriod", .number(String(d.weekNumber))) }
                        return .object(n)
                    }))
        }
        func ints(_ name: String, _ values: [Int]) {
            if !values.isEmpty { o.append(name, .array(values.map { .number(String($0)) })) }
        }
        ints("byMonthDay", r.daysOfTheMonth)
        if !r.months.isEmpty { o.append("byMonth", .array(r.months.map { .string("\($0.number)" + ($0.isLeap ? "L" : "")) })) }
        ints("byYearDay", r.daysOfTheYear)
        ints("byWeekNo", r.weeksOfTheYear)
        ints("byHour", r.byHour)
        ints("byMinute", r.byMinute)
        ints("bySecond", r.bySecond)
        ints("bySetPosition", r.setPositions)
        switch r.end {
        case .count(let n) where n >= 0: o.append("count", .number(String(n)))
        case .count: break
        case .until(let u):
            if let l = localInItemZone(u, start: start) ?? (start == nil ? Self.local(u) : nil) { o.append("until", .string(l)) }
        case nil: break
        }
        return o
    }

    // MARK: Calendars

    /// A calendar's own fields as a Group's (entries are added as they stream).
    func group(_ c: CalendarModel.Calendar) -> JSONObject {
        var o = JSONObject()
        o.append("@type", .string("Group"))
        if let uid = c.properties.first(where: { $0.name == "UID" }), case .text(let t) = uid.value, t.count == 1 {
            o.append("uid", .string(t[0]))
        }
        if let m = c.properties.first(where: { $0.name == "LAST-MODIFIED" }), case .dateTimes(let d) = m.value, d.count == 1 {
            o.append("updated", Self.utc(d[0]))
        }
        o.append("title", c.title)
        o.append("description", c.description)
        o.append("color", c.color)
        o.append("prodId", c.productID)
        o.append("source", c.subscriptionURL)
        return o
    }
}
