import CalendarModel
import Foundation
import JSONCoding

/// Writes the calendar model as calport's native JSON (schemas/calport.schema.json). Field
/// names are EventKit's; absent optionals and empty lists are left out, so the output stays
/// small and every field that is present means something.
extension JSONOutput {
    // MARK: Words with an escape hatch

    /// A word from an open vocabulary: a known value's word, or the source's own word for
    /// `.other`; an `.other` word that collides with a known word is written `{"other": word}`
    /// so reading it back cannot turn it into the known value.
    mutating func openWord(known: String?, other: String?, words: [String]) {
        if let known {
            string(known)
        } else if let other {
            if words.contains(other) {
                beginObject()
                key("other")
                string(other)
                endObject()
            } else {
                string(other)
            }
        }
    }

    mutating func status(_ s: CalendarItem.Status) {
        let words = NativeJSONVocabulary.statuses.map(\.1)
        if case .other(let w) = s {
            openWord(known: nil, other: w, words: words)
        } else {
            string(NativeJSONVocabulary.word(s, in: NativeJSONVocabulary.statuses))
        }
    }

    mutating func classification(_ c: CalendarItem.Classification) {
        let words = NativeJSONVocabulary.classifications.map(\.1)
        if case .other(let w) = c {
            openWord(known: nil, other: w, words: words)
        } else {
            string(NativeJSONVocabulary.word(c, in: NativeJSONVocabulary.classifications))
        }
    }

    mutating func action(_ a: Alarm.Action) {
        let words = NativeJSONVocabulary.alarmActions.map(\.1)
        if case .other(let w) = a {
            openWord(known: nil, other: w, words: words)
        } else {
            string(NativeJSONVocabulary.word(a, in: NativeJSONVocabulary.alarmActions))
        }
    }

    // MARK: Values

    /// `{"date": …}` for all-day values, else `{"dateTime": …}` with `Z` for UTC or a
    /// `timeZone` with the TZID verbatim, and the `offset` at that time when the TZID resolves.
    mutating func dateTime(_ v: CalendarDateTime) {
        beginObject()
        if v.isDateOnly {
            key("date")
            string(ISO8601Text.date(v.date))
        } else {
            key("dateTime")
            string(ISO8601Text.dateTime(v))
            if case .zone(let id) = v.reference {
                key("timeZone")
                string(id)
                if let offset = ZoneOffsets.offset(of: v) {
                    key("offset")
                    string(offset)
                }
            }
        }
        endObject()
    }

    mutating func dateTimeField(_ name: String, _ v: CalendarDateTime?) {
        guard let v else { return }
        key(name)
        dateTime(v)
    }

    mutating func durationField(_ name: String, _ d: CalendarDuration?) {
        guard let d else { return }
        key(name)
        string(d.rfc5545Text)
    }

    mutating func stringField(_ name: String, _ s: String?) {
        guard let s else { return }
        key(name)
        string(s)
    }

    mutating func intField(_ name: String, _ n: Int?) {
        guard let n else { return }
        key(name)
        int(n)
    }

    mutating func intsField(_ name: String, _ values: [Int]) {
        guard !values.isEmpty else { return }
        key(name)
        beginArray()
        for v in values { int(v) }
        endArray()
    }

    mutating func stringsField(_ name: String, _ values: [String]) {
        guard !values.isEmpty else { return }
        key(name)
        beginArray()
        for v in values { string(v) }
        endArray()
    }

    mutating func period(_ p: CalendarPeriod) {
        beginObject()
        key("start")
        dateTime(p.start)
        switch p.extent {
        case .end(let e):
            key("end")
            dateTime(e)
        case .duration(let d):
            key("duration")
            string(d.rfc5545Text)
        }
        endObject()
    }

    mutating func parameters(_ params: [Parameter]) {
        beginArray()
        for p in params {
            beginObject()
            key("name")
            string(p.name)
            key("values")
            beginArray()
            for v in p.values { string(v) }
            endArray()
            endObject()
        }
        endArray()
    }

    mutating func parametersField(_ name: String, _ params: [Parameter]) {
        guard !params.isEmpty else { return }
        key(name)
        parameters(params)
    }

    /// Parameters by property name, names sorted so output is stable.
    mutating func propertyParametersField(_ map: [String: [Parameter]]) {
        guard !map.isEmpty else { return }
        key("propertyParameters")
        beginObject()
        for name in map.keys.sorted() {
            key(name)
            parameters(map[name]!)
        }
        endObject()
    }

    // MARK: Generic properties and components

    mutating func propertyValue(_ value: PropertyValue) {
        beginObject()
        key("type")
        switch value {
        case .text(let values):
            string("text")
            key("values")
            beginArray()
            for v in values { string(v) }
            endArray()
        case .dateTimes(let values):
            string("dateTimes")
            key("values")
            beginArray()
            for v in values { dateTime(v) }
            endArray()
        case .periods(let values):
            string("periods")
            key("values")
            beginArray()
            for v in values { period(v) }
            endArray()
        case .duration(let d):
            string("duration")
            key("value")
            string(d.rfc5545Text)
        case .utcOffset(let seconds):
            string("utcOffset")
            key("value")
            int(seconds)
        case .recurrence(let rule):
            string("recurrence")
            key("value")
            recurrenceRule(rule)
        case .integer(let values):
            string("integer")
            key("values")
            beginArray()
            for v in values { int(v) }
            endArray()
        case .float(let values):
            string("float")
            key("values")
            beginArray()
            for v in values { double(v) }
            endArray()
        case .boolean(let b):
            string("boolean")
            key("value")
            bool(b)
        case .geo(let latitude, let longitude):
            string("geo")
            key("latitude")
            double(latitude)
            key("longitude")
            double(longitude)
        case .binary(let bytes):
            string("binary")
            key("value")
            string(Data(bytes).base64EncodedString())
        case .uri(let s):
            string("uri")
            key("value")
            string(s)
        case .calendarAddress(let s):
            string("calendarAddress")
            key("value")
            string(s)
        case .times(let times, let utc):
            string("times")
            key("values")
            beginArray()
            for t in times { string(ISO8601Text.time(t)) }
            endArray()
            if utc {
                key("utc")
                bool(true)
            }
        case .unknown(let type, let literal):
            string("unknown")
            stringField("valueType", type)
            key("value")
            string(literal)
        }
        endObject()
    }

    mutating func property(_ p: Property) {
        beginObject()
        key("name")
        string(p.name)
        parametersField("parameters", p.parameters)
        key("value")
        propertyValue(p.value)
        endObject()
    }

    mutating func propertiesField(_ name: String, _ props: [Property]) {
        guard !props.isEmpty else { return }
        key(name)
        beginArray()
        for p in props { property(p) }
        endArray()
    }

    mutating func component(_ c: Component) {
        beginObject()
        key("name")
        string(c.name)
        propertiesField("properties", c.properties)
        componentsField(c.components)
        endObject()
    }

    mutating func componentsField(_ comps: [Component]) {
        guard !comps.isEmpty else { return }
        key("components")
        beginArray()
        for c in comps { component(c) }
        endArray()
    }

    // MARK: Model types

    mutating func recurrenceRule(_ r: RecurrenceRule) {
        beginObject()
        key("frequency")
        string(NativeJSONVocabulary.word(r.frequency, in: NativeJSONVocabulary.frequencies))
        key("interval")
        int(r.interval)
        if r.intervalWasExplicit {
            key("intervalWasExplicit")
            bool(true)
        }
        switch r.end {
        case .until(let d):
            key("recurrenceEnd")
            beginObject()
            key("endDate")
            dateTime(d)
            endObject()
        case .count(let n):
            key("recurrenceEnd")
            beginObject()
            key("occurrenceCount")
            int(n)
            endObject()
        case nil: break
        }
        intsField("bySecond", r.bySecond)
        intsField("byMinute", r.byMinute)
        intsField("byHour", r.byHour)
        if !r.daysOfTheWeek.isEmpty {
            key("daysOfTheWeek")
            beginArray()
            for d in r.daysOfTheWeek {
                beginObject()
                key("dayOfTheWeek")
                string(NativeJSONVocabulary.word(d.weekday, in: NativeJSONVocabulary.weekdays))
                key("weekNumber")
                int(d.weekNumber)
                endObject()
            }
            endArray()
        }
        intsField("daysOfTheMonth", r.daysOfTheMonth)
        intsField("daysOfTheYear", r.daysOfTheYear)
        intsField("weeksOfTheYear", r.weeksOfTheYear)
        if !r.months.isEmpty {
            key("monthsOfTheYear")
            beginArray()
            // RFC 7529 leap months are strings ("5L"); plain months stay numbers, as in EventKit.
            for m in r.months { if m.isLeap { string("\(m.number)L") } else { int(m.number) } }
            endArray()
        }
        intsField("setPositions", r.setPositions)
        if let w = r.firstDayOfTheWeek {
            key("firstDayOfTheWeek")
            string(NativeJSONVocabulary.word(w, in: NativeJSONVocabulary.weekdays))
        }
        stringField("calendarScale", r.scale)
        stringField("skip", r.skip)
        if !r.extensionParts.isEmpty {
            key("extensionParts")
            beginArray()
            for part in r.extensionParts {
                beginObject()
                key("name")
                string(part.name)
                key("value")
                string(part.value)
                endObject()
            }
            endArray()
        }
        endObject()
    }

    mutating func structuredLocation(_ l: StructuredLocation) {
        beginObject()
        stringField("title", l.title)
        if l.latitude != nil || l.longitude != nil {
            key("geoLocation")
            beginObject()
            if let lat = l.latitude {
                key("latitude")
                double(lat)
            }
            if let lon = l.longitude {
                key("longitude")
                double(lon)
            }
            endObject()
        }
        if let r = l.radius {
            key("radius")
            double(r)
        }
        parametersField("extraParameters", l.extraParameters)
        endObject()
    }

    mutating func participant(_ p: Participant, vocabulary v: ParticipantVocabulary) {
        beginObject()
        stringField("name", p.name)
        key("url")
        string(p.url)
        // A value the (overridden) vocabulary has no word for is left out, as ICS does.
        if let role = p.role, let word = v.word(for: role) {
            key("participantRole")
            if case .other = role { openWord(known: nil, other: word, words: v.roles.map(\.1)) } else { string(word) }
        }
        // A value the (overridden) vocabulary has no word for is left out, as ICS does.
        if let status = p.status, let word = v.word(for: status) {
            key("participantStatus")
            if case .other = status {
                openWord(known: nil, other: word, words: v.statuses.map(\.1))
            } else {
                string(word)
            }
        }
        // A value the (overridden) vocabulary has no word for is left out, as ICS does.
        if let type = p.type, let word = v.word(for: type) {
            key("participantType")
            if case .other = type { openWord(known: nil, other: word, words: v.types.map(\.1)) } else { string(word) }
        }
        if let r = p.expectsReply {
            key("expectsReply")
            bool(r)
        }
        stringsField("delegatedTo", p.delegatedTo)
        stringsField("delegatedFrom", p.delegatedFrom)
        stringField("sentBy", p.sentBy)
        stringsField("members", p.members)
        stringField("directory", p.directory)
        stringField("language", p.language)
        stringField("email", p.email)
        parametersField("extraParameters", p.extraParameters)
        endObject()
    }

    mutating func participantsField(_ name: String, _ ps: [Participant], vocabulary: ParticipantVocabulary) {
        guard !ps.isEmpty else { return }
        key(name)
        beginArray()
        for p in ps { participant(p, vocabulary: vocabulary) }
        endArray()
    }

    mutating func alarm(_ a: Alarm, vocabulary: ParticipantVocabulary) {
        beginObject()
        key("type")
        action(a.action)
        switch a.trigger {
        case .relative(let d, let toEnd):
            key("relativeOffset")
            string(d.rfc5545Text)
            if toEnd {
                key("relativeToEnd")
                bool(true)
            }
        case .absolute(let d):
            key("absoluteDate")
            dateTime(d)
        case nil: break
        }
        stringField("description", a.description)
        stringField("summary", a.summary)
        durationField("repeatInterval", a.repeatInterval)
        intField("repeatCount", a.repeatCount)
        participantsField("attendees", a.attendees, vocabulary: vocabulary)
        if let p = a.proximity {
            key("proximity")
            string(NativeJSONVocabulary.word(p, in: NativeJSONVocabulary.proximities))
        }
        if let l = a.structuredLocation {
            key("structuredLocation")
            structuredLocation(l)
        }
        stringField("uid", a.uid)
        propertiesField("properties", a.properties)
        componentsField(a.components)
        propertyParametersField(a.propertyParameters)
        endObject()
    }

    mutating func dateListsField(_ name: String, _ lists: [CalendarItem.DateList]) {
        guard !lists.isEmpty else { return }
        key(name)
        beginArray()
        for list in lists {
            beginObject()
            if !list.dates.isEmpty {
                key("dates")
                beginArray()
                for d in list.dates { dateTime(d) }
                endArray()
            }
            if !list.periods.isEmpty {
                key("periods")
                beginArray()
                for p in list.periods { period(p) }
                endArray()
            }
            parametersField("extraParameters", list.extraParameters)
            endObject()
        }
        endArray()
    }

    /// The identifying fields every item shares, written first so a reader of the text sees
    /// what the item is before its details. Events and reminders both call the start
    /// `startDate` (EventKit says `startDateComponents` for reminders; one name is easier to query).
    mutating func itemFields(_ i: CalendarItem, vocabulary: ParticipantVocabulary) {
        stringField("uid", i.uid)
        stringField("title", i.title)
        dateTimeField("startDate", i.start)
    }

    /// The rest of the shared item fields, after the event's or reminder's own.
    mutating func itemTrailingFields(_ i: CalendarItem, vocabulary: ParticipantVocabulary) {
        stringField("location", i.location)
        if let l = i.structuredLocation {
            key("structuredLocation")
            structuredLocation(l)
        }
        if let g = i.geo {
            key("geo")
            beginObject()
            key("latitude")
            double(g.latitude)
            key("longitude")
            double(g.longitude)
            endObject()
        }
        stringField("notes", i.notes)
        stringField("url", i.url)
        if let s = i.status {
            key("status")
            status(s)
        }
        if let c = i.classification {
            key("privacy")
            classification(c)
        }
        intField("priority", i.priority)
        if !i.categories.isEmpty {
            key("categories")
            beginArray()
            for group in i.categories {
                beginArray()
                for c in group { string(c) }
                endArray()
            }
            endArray()
        }
        if let o = i.organizer {
            key("organizer")
            participant(o, vocabulary: vocabulary)
        }
        participantsField("attendees", i.attendees, vocabulary: vocabulary)
        if !i.alarms.isEmpty {
            key("alarms")
            beginArray()
            for a in i.alarms { alarm(a, vocabulary: vocabulary) }
            endArray()
        }
        if !i.recurrenceRules.isEmpty {
            key("recurrenceRules")
            beginArray()
            for r in i.recurrenceRules { recurrenceRule(r) }
            endArray()
        }
        dateListsField("recurrenceDates", i.recurrenceDates)
        dateListsField("exceptionDates", i.exceptionDates)
        if let rid = i.recurrenceID {
            key("isDetached")
            bool(true)
            key("occurrenceDate")
            dateTime(rid)
        }
        if i.recurrenceAppliesToFuture {
            key("appliesToFutureEvents")
            bool(true)
        }
        intField("sequence", i.sequence)
        dateTimeField("creationDate", i.created)
        dateTimeField("lastModifiedDate", i.lastModified)
        dateTimeField("timestamp", i.timestamp)
        propertiesField("properties", i.properties)
        componentsField(i.components)
        propertyParametersField(i.propertyParameters)
    }

    mutating func event(_ e: Event, vocabulary: ParticipantVocabulary) {
        beginObject()
        itemFields(e.item, vocabulary: vocabulary)
        dateTimeField("endDate", e.end)
        durationField("duration", e.duration)
        key("isAllDay")
        bool(e.isAllDay)
        stringField("transparency", e.transparency)
        if let b = e.busyStatus {
            key("busyStatus")
            string(NativeJSONVocabulary.word(b, in: NativeJSONVocabulary.availabilities))
        }
        key("availability")
        string(NativeJSONVocabulary.word(e.availability, in: NativeJSONVocabulary.availabilities))
        if let b = e.birthday {
            stringField("birthdayContactIdentifier", b.contactIdentifier)
            key("birthday")
            beginObject()
            key("occasion")
            string(b.occasion.rawValue)
            intField("month", b.month)
            intField("day", b.day)
            intField("year", b.year)
            endObject()
        }
        itemTrailingFields(e.item, vocabulary: vocabulary)
        endObject()
    }

    mutating func reminder(_ r: Reminder, vocabulary: ParticipantVocabulary) {
        beginObject()
        itemFields(r.item, vocabulary: vocabulary)
        dateTimeField("dueDate", r.due)
        durationField("duration", r.duration)
        dateTimeField("completionDate", r.completionDate)
        intField("percentComplete", r.percentComplete)
        key("isCompleted")
        bool(r.isCompleted)
        itemTrailingFields(r.item, vocabulary: vocabulary)
        endObject()
    }

    /// An entry's members (`"event": {…}` and so on), written into an object the caller opened.
    mutating func entryMembers(_ entry: CalendarEntry, vocabulary: ParticipantVocabulary) {
        switch entry {
        case .event(let e):
            key("event")
            event(e, vocabulary: vocabulary)
        case .reminder(let r):
            key("reminder")
            reminder(r, vocabulary: vocabulary)
        case .timeZone(let c):
            key("timeZone")
            component(c)
        case .other(let c):
            key("component")
            component(c)
        }
    }

    mutating func calendar(_ c: CalendarModel.Calendar) {
        beginObject()
        stringField("title", c.title)
        stringField("description", c.description)
        key("type")
        string(NativeJSONVocabulary.word(c.kind, in: NativeJSONVocabulary.calendarKinds))
        stringField("color", c.color)
        key("allowsContentModifications")
        bool(c.allowsContentModifications)
        if let s = c.source {
            key("source")
            beginObject()
            key("title")
            string(s.title)
            key("sourceType")
            string(NativeJSONVocabulary.word(s.kind, in: NativeJSONVocabulary.sourceKinds))
            endObject()
        }
        stringField("subscriptionURL", c.subscriptionURL)
        durationField("refreshInterval", c.refreshInterval)
        stringField("defaultTimeZone", c.defaultTimeZone)
        stringField("productID", c.productID)
        stringField("version", c.version)
        stringField("calendarScale", c.scale)
        stringField("method", c.method)
        propertiesField("properties", c.properties)
        propertyParametersField(c.propertyParameters)
        if !c.spellings.isEmpty {
            key("spellings")
            beginObject()
            for field in c.spellings.keys.sorted() {
                key(field)
                string(c.spellings[field]!)
            }
            endObject()
        }
        endObject()
    }
}
