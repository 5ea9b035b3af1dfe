import CalendarModel
import Foundation
import JSONCoding

/// Turns native JSON values (one calendar, one entry, one JSON Lines line) back into the model.
/// Errors carry the input line where the value began and a JSON-pointer-like path to the
/// field; members the schema does not know are reported as warnings (or errors in strict mode),
/// never dropped silently. Fields the writer derives (`isAllDay`, `availability`,
/// `isCompleted`, `isDetached`) are accepted and ignored.
struct NativeJSONDecoder {
    let file: String
    let line: Int
    let strict: Bool
    let log: DiagnosticLog
    let vocabulary: ParticipantVocabulary

    func fail(_ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: file, line: line, location: path, message)
    }

    /// An object's members with the keys read so far, so leftovers can be reported.
    final class Fields {
        let object: JSONObject
        let path: String
        let decoder: NativeJSONDecoder
        /// Per member of `object`, whether its name was asked for. Flags, not a set of names:
        /// hashing every name read into a growing set was a quarter of a JSON read.
        private var used: [Bool]

        init(_ value: JSONValue, path: String, decoder: NativeJSONDecoder) throws {
            guard let o = value.objectValue else { throw decoder.fail(path, "expected an object, found \(value.typeName)") }
            self.object = o
            self.path = path
            self.decoder = decoder
            self.used = [Bool](repeating: false, count: o.members.count)
        }

        /// The first member called `key` (nil when it is null); every member of that name
        /// counts as read.
        func raw(_ key: String) -> JSONValue? {
            var found: JSONValue?
            let length = key.utf8.count
            for i in object.members.indices where object.members[i].key.utf8.count == length && object.members[i].key == key {
                used[i] = true
                if found == nil { found = object.members[i].value }
            }
            guard let v = found else { return nil }
            if case .null = v { return nil }
            return v
        }

        func sub(_ key: String) -> String { path + "/" + key }

        func string(_ key: String) throws -> String? {
            guard let v = raw(key) else { return nil }
            guard let s = v.stringValue else { throw decoder.fail(sub(key), "expected a string, found \(v.typeName)") }
            return s
        }

        func requiredString(_ key: String) throws -> String {
            guard let s = try string(key) else { throw decoder.fail(sub(key), "missing required member") }
            return s
        }

        func int(_ key: String) throws -> Int? {
            guard let v = raw(key) else { return nil }
            return try decoder.int(v, sub(key))
        }

        func bool(_ key: String) throws -> Bool? {
            guard let v = raw(key) else { return nil }
            guard let b = v.boolValue else { throw decoder.fail(sub(key), "expected true or false, found \(v.typeName)") }
            return b
        }

        func array(_ key: String) throws -> [JSONValue] {
            guard let v = raw(key) else { return [] }
            guard let a = v.arrayValue else { throw decoder.fail(sub(key), "expected an array, found \(v.typeName)") }
            return a
        }

        func strings(_ key: String) throws -> [String] {
            try array(key).enumerated().map { i, v in
                guard let s = v.stringValue else { throw decoder.fail(sub(key) + "/\(i)", "expected a string, found \(v.typeName)") }
                return s
            }
        }

        func ints(_ key: String) throws -> [Int] {
            try array(key).enumerated().map { i, v in try decoder.int(v, sub(key) + "/\(i)") }
        }

        func dateTime(_ key: String) throws -> CalendarDateTime? {
            guard let v = raw(key) else { return nil }
            return try decoder.dateTime(v, sub(key))
        }

        func duration(_ key: String) throws -> CalendarDuration? {
            guard let s = try string(key) else { return nil }
            guard let d = ISO8601Text.parseDuration(s) else { throw decoder.fail(sub(key), "'\(s)' is not a duration") }
            return d
        }

        func word<T>(_ key: String, _ table: [(T, String)]) throws -> T? {
            guard let s = try string(key) else { return nil }
            guard let v = NativeJSONVocabulary.value(s, in: table) else {
                throw decoder.fail(sub(key), "unknown value '\(s)'; expected one of \(table.map(\.1).joined(separator: ", "))")
            }
            return v
        }

        /// A word of an open vocabulary: a known word, any other string, or `{"other": word}`.
        func openWord<T>(_ key: String, known: (String) -> T?, other: (String) -> T) throws -> T? {
            guard let v = raw(key) else { return nil }
            if let s = v.stringValue { return known(s) ?? other(s) }
            let f = try Fields(v, path: sub(key), decoder: decoder)
            let w = try f.requiredString("other")
            try f.finish()
            return other(w)
        }

        /// Reports members nobody read.
        func finish(ignoring derived: Set<String> = []) throws {
            for (i, k) in object.keys.enumerated() where !used[i] && !derived.contains(k) {
                let message = "unknown member '\(k)' is ignored"
                if decoder.strict { throw decoder.fail(sub(k), "unknown member '\(k)'") }
                decoder.log.warning(file: decoder.file, line: decoder.line, location: sub(k), message)
            }
        }
    }

    func fields(_ v: JSONValue, _ path: String) throws -> Fields {
        try Fields(v, path: path, decoder: self)
    }

    func int(_ v: JSONValue, _ path: String) throws -> Int {
        guard let n = v.intValue else { throw fail(path, "expected an integer, found \(v.typeName)") }
        return n
    }

    func double(_ v: JSONValue, _ path: String) throws -> Double {
        if let d = v.doubleValue { return d }
        switch v.stringValue {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: throw fail(path, "expected a number, found \(v.typeName)")
        }
    }

    // MARK: Values

    func dateTime(_ v: JSONValue, _ path: String) throws -> CalendarDateTime {
        let f = try fields(v, path)
        if let d = try f.string("date") {
            guard let date = ISO8601Text.parseDate(d) else { throw fail(path + "/date", "'\(d)' is not a date (YYYY-MM-DD)") }
            try f.finish()
            return CalendarDateTime(date: date)
        }
        let text = try f.requiredString("dateTime")
        guard var value = ISO8601Text.parseDateTime(text) else {
            throw fail(path + "/dateTime", "'\(text)' is not a date-time (YYYY-MM-DDThh:mm:ss, Z for UTC)")
        }
        if let zone = try f.string("timeZone") {
            guard value.reference == .floating else { throw fail(path, "a UTC date-time ('Z') cannot also name a timeZone") }
            value.reference = .zone(zone)
        }
        _ = try f.string("offset")  // derived from the zone; the wall time and zone are the value
        try f.finish()
        return value
    }

    func period(_ v: JSONValue, _ path: String) throws -> CalendarPeriod {
        let f = try fields(v, path)
        guard let start = try f.dateTime("start") else { throw fail(path + "/start", "missing required member") }
        let extent: CalendarPeriod.Extent
        if let end = try f.dateTime("end") {
            extent = .end(end)
        } else if let d = try f.duration("duration") {
            extent = .duration(d)
        } else {
            throw fail(path, "a period needs an end or a duration")
        }
        try f.finish()
        return CalendarPeriod(start: start, extent: extent)
    }

    func parameters(_ values: [JSONValue], _ path: String) throws -> [Parameter] {
        try values.enumerated().map { i, v in
            let f = try fields(v, path + "/\(i)")
            let p = Parameter(name: try f.requiredString("name"), values: try f.strings("values"))
            try f.finish()
            return p
        }
    }

    func propertyParameters(_ f: Fields) throws -> [String: [Parameter]] {
        guard let v = f.raw("propertyParameters") else { return [:] }
        let inner = try fields(v, f.sub("propertyParameters"))
        var map: [String: [Parameter]] = [:]
        for k in inner.object.keys {
            map[k] = try parameters(try inner.array(k), inner.sub(k))
        }
        return map
    }

    func propertyValue(_ v: JSONValue, _ path: String) throws -> PropertyValue {
        let f = try fields(v, path)
        let type = try f.requiredString("type")
        let result: PropertyValue
        switch type {
        case "text": result = .text(try f.strings("values"))
        case "dateTimes": result = .dateTimes(try f.array("values").enumerated().map { try dateTime($1, f.sub("values") + "/\($0)") })
        case "periods": result = .periods(try f.array("values").enumerated().map { try period($1, f.sub("values") + "/\($0)") })
        case "duration":
            guard let d = try f.duration("value") else { throw fail(f.sub("value"), "missing required member") }
            result = .duration(d)
        case "utcOffset":
            guard let n = try f.int("value") else { throw fail(f.sub("value"), "missing required member") }
            result = .utcOffset(n)
        case "recurrence":
            guard let r = f.raw("value") else { throw fail(f.sub("value"), "missing required member") }
            result = .recurrence(try recurrenceRule(r, f.sub("value")))
        case "integer": result = .integer(try f.ints("values"))
        case "float": result = .float(try f.array("values").enumerated().map { try double($1, f.sub("values") + "/\($0)") })
        case "boolean":
            guard let b = try f.bool("value") else { throw fail(f.sub("value"), "missing required member") }
            result = .boolean(b)
        case "geo":
            guard let lat = f.raw("latitude"), let lon = f.raw("longitude") else { throw fail(path, "geo needs latitude and longitude") }
            result = .geo(latitude: try double(lat, f.sub("latitude")), longitude: try double(lon, f.sub("longitude")))
        case "binary":
            let s = try f.requiredString("value")
            guard let data = Data(base64Encoded: s) else { throw fail(f.sub("value"), "not valid base64") }
            result = .binary([UInt8](data))
        case "uri": result = .uri(try f.requiredString("value"))
        case "calendarAddress": result = .calendarAddress(try f.requiredString("value"))
        case "times":
            var utc = false
            let times = try f.strings("values").enumerated().map { i, s in
                guard let (t, isUTC) = ISO8601Text.parseTime(s) else { throw fail(f.sub("values") + "/\(i)", "'\(s)' is not a time") }
                utc = isUTC
                return t
            }
            if let u = try f.bool("utc") { utc = u }
            result = .times(times, utc: utc)
        case "unknown": result = .unknown(type: try f.string("valueType"), literal: try f.requiredString("value"))
        default: throw fail(f.sub("type"), "unknown value type '\(type)'")
        }
        try f.finish()
        return result
    }

    func property(_ v: JSONValue, _ path: String) throws -> Property {
        let f = try fields(v, path)
        let name = try f.requiredString("name")
        let params = try parameters(try f.array("parameters"), f.sub("parameters"))
        guard let value = f.raw("value") else { throw fail(f.sub("value"), "missing required member") }
        let p = Property(name: name, parameters: params, value: try propertyValue(value, f.sub("value")))
        try f.finish()
        return p
    }

    func properties(_ f: Fields, _ key: String = "properties") throws -> [Property] {
        try f.array(key).enumerated().map { try property($1, f.sub(key) + "/\($0)") }
    }

    func component(_ v: JSONValue, _ path: String) throws -> Component {
        let f = try fields(v, path)
        let c = Component(name: try f.requiredString("name"), properties: try properties(f), components: try components(f))
        try f.finish()
        return c
    }

    func components(_ f: Fields) throws -> [Component] {
        try f.array("components").enumerated().map { try component($1, f.sub("components") + "/\($0)") }
    }

    // MARK: Model types

    func recurrenceRule(_ v: JSONValue, _ path: String) throws -> RecurrenceRule {
        let f = try fields(v, path)
        guard let frequency = try f.word("frequency", NativeJSONVocabulary.frequencies) else {
            throw fail(f.sub("frequency"), "missing required member")
        }
        var r = RecurrenceRule(frequency: frequency)
        r.interval = try f.int("interval") ?? 1
        r.intervalWasExplicit = try f.bool("intervalWasExplicit") ?? false
        if let endValue = f.raw("recurrenceEnd") {
            let e = try fields(endValue, f.sub("recurrenceEnd"))
            if let d = try e.dateTime("endDate") {
                r.end = .until(d)
            } else if let n = try e.int("occurrenceCount") {
                r.end = .count(n)
            } else {
                throw fail(e.path, "recurrenceEnd needs endDate or occurrenceCount")
            }
            try e.finish()
        }
        r.bySecond = try f.ints("bySecond")
        r.byMinute = try f.ints("byMinute")
        r.byHour = try f.ints("byHour")
        r.daysOfTheWeek = try f.array("daysOfTheWeek").enumerated().map { i, v in
            let d = try fields(v, f.sub("daysOfTheWeek") + "/\(i)")
            guard let day = try d.word("dayOfTheWeek", NativeJSONVocabulary.weekdays) else {
                throw fail(d.sub("dayOfTheWeek"), "missing required member")
            }
            let n = try d.int("weekNumber") ?? 0
            try d.finish()
            return RecurrenceRule.DayOfWeek(day, weekNumber: n)
        }
        r.daysOfTheMonth = try f.ints("daysOfTheMonth")
        r.daysOfTheYear = try f.ints("daysOfTheYear")
        r.weeksOfTheYear = try f.ints("weeksOfTheYear")
        r.months = try f.array("monthsOfTheYear").enumerated().map { i, v in
            if let n = v.intValue { return RecurrenceRule.Month(n) }
            if let s = v.stringValue, s.hasSuffix("L"), let n = Int(s.dropLast()) { return RecurrenceRule.Month(n, isLeap: true) }
            throw fail(f.sub("monthsOfTheYear") + "/\(i)", "expected a month number or a leap month like \"5L\"")
        }
        r.setPositions = try f.ints("setPositions")
        r.firstDayOfTheWeek = try f.word("firstDayOfTheWeek", NativeJSONVocabulary.weekdays)
        r.scale = try f.string("calendarScale")
        r.skip = try f.string("skip")
        r.extensionParts = try f.array("extensionParts").enumerated().map { i, v in
            let p = try fields(v, f.sub("extensionParts") + "/\(i)")
            let part = (name: try p.requiredString("name"), value: try p.requiredString("value"))
            try p.finish()
            return part
        }
        try f.finish()
        // A value the RRULE text refuses would be written into a rule no reader of ICS takes.
        if let problem = r.outOfRangeValue { throw fail(path, problem) }
        return r
    }

    func structuredLocation(_ v: JSONValue, _ path: String) throws -> StructuredLocation {
        let f = try fields(v, path)
        var l = StructuredLocation(title: try f.string("title"))
        if let g = f.raw("geoLocation") {
            let gf = try fields(g, f.sub("geoLocation"))
            if let lat = gf.raw("latitude") { l.latitude = try double(lat, gf.sub("latitude")) }
            if let lon = gf.raw("longitude") { l.longitude = try double(lon, gf.sub("longitude")) }
            try gf.finish()
        }
        if let r = f.raw("radius") { l.radius = try double(r, f.sub("radius")) }
        l.extraParameters = try parameters(try f.array("extraParameters"), f.sub("extraParameters"))
        try f.finish()
        return l
    }

    func participant(_ v: JSONValue, _ path: String) throws -> Participant {
        let f = try fields(v, path)
        let voc = vocabulary
        var p = Participant(name: try f.string("name"), url: try f.requiredString("url"))
        p.role = try f.openWord("participantRole", known: { w in voc.roles.first { $0.1 == w }?.0 }, other: { .other($0) })
        p.status = try f.openWord("participantStatus", known: { w in voc.statuses.first { $0.1 == w }?.0 }, other: { .other($0) })
        p.type = try f.openWord("participantType", known: { w in voc.types.first { $0.1 == w }?.0 }, other: { .other($0) })
        p.expectsReply = try f.bool("expectsReply")
        p.delegatedTo = try f.strings("delegatedTo")
        p.delegatedFrom = try f.strings("delegatedFrom")
        p.sentBy = try f.string("sentBy")
        p.members = try f.strings("members")
        p.directory = try f.string("directory")
        p.language = try f.string("language")
        p.email = try f.string("email")
        p.extraParameters = try parameters(try f.array("extraParameters"), f.sub("extraParameters"))
        try f.finish()
        return p
    }

    func participants(_ f: Fields, _ key: String) throws -> [Participant] {
        try f.array(key).enumerated().map { try participant($1, f.sub(key) + "/\($0)") }
    }

    func alarm(_ v: JSONValue, _ path: String) throws -> Alarm {
        let f = try fields(v, path)
        guard
            let action = try f.openWord(
                "type", known: { NativeJSONVocabulary.value($0, in: NativeJSONVocabulary.alarmActions) },
                other: { Alarm.Action.other($0) })
        else { throw fail(f.sub("type"), "missing required member") }
        var a = Alarm(action: action)
        if let offset = try f.duration("relativeOffset") {
            a.trigger = .relative(offset, relativeToEnd: try f.bool("relativeToEnd") ?? false)
        } else if let d = try f.dateTime("absoluteDate") {
            a.trigger = .absolute(d)
        }
        a.description = try f.string("description")
        a.summary = try f.string("summary")
        a.repeatInterval = try f.duration("repeatInterval")
        a.repeatCount = try f.int("repeatCount")
        a.attendees = try participants(f, "attendees")
        a.proximity = try f.word("proximity", NativeJSONVocabulary.proximities)
        if let l = f.raw("structuredLocation") { a.structuredLocation = try structuredLocation(l, f.sub("structuredLocation")) }
        a.uid = try f.string("uid")
        a.properties = try properties(f)
        a.components = try components(f)
        a.propertyParameters = try propertyParameters(f)
        try f.finish()
        return a
    }

    func dateLists(_ f: Fields, _ key: String) throws -> [CalendarItem.DateList] {
        try f.array(key).enumerated().map { i, v in
            let l = try fields(v, f.sub(key) + "/\(i)")
            let list = CalendarItem.DateList(
                dates: try l.array("dates").enumerated().map { try dateTime($1, l.sub("dates") + "/\($0)") },
                periods: try l.array("periods").enumerated().map { try period($1, l.sub("periods") + "/\($0)") },
                extraParameters: try parameters(try l.array("extraParameters"), l.sub("extraParameters")))
            try l.finish()
            return list
        }
    }

    /// Reads the shared item fields from an event's or reminder's object.
    func item(_ f: Fields) throws -> CalendarItem {
        var i = CalendarItem(uid: try f.string("uid"), title: try f.string("title"), start: try f.dateTime("startDate"))
        i.location = try f.string("location")
        if let l = f.raw("structuredLocation") { i.structuredLocation = try structuredLocation(l, f.sub("structuredLocation")) }
        if let g = f.raw("geo") {
            let gf = try fields(g, f.sub("geo"))
            guard let lat = gf.raw("latitude"), let lon = gf.raw("longitude") else {
                throw fail(gf.path, "geo needs latitude and longitude")
            }
            i.geo = GeoCoordinate(latitude: try double(lat, gf.sub("latitude")), longitude: try double(lon, gf.sub("longitude")))
            try gf.finish()
        }
        i.notes = try f.string("notes")
        i.url = try f.string("url")
        i.status = try f.openWord(
            "status", known: { NativeJSONVocabulary.value($0, in: NativeJSONVocabulary.statuses) },
            other: { CalendarItem.Status.other($0) })
        i.classification = try f.openWord(
            "privacy", known: { NativeJSONVocabulary.value($0, in: NativeJSONVocabulary.classifications) },
            other: { CalendarItem.Classification.other($0) })
        i.priority = try f.int("priority")
        i.categories = try f.array("categories").enumerated().map { n, group in
            guard let values = group.arrayValue else { throw fail(f.sub("categories") + "/\(n)", "expected an array of strings") }
            return try values.map { v in
                guard let s = v.stringValue else { throw fail(f.sub("categories") + "/\(n)", "expected a string, found \(v.typeName)") }
                return s
            }
        }
        if let o = f.raw("organizer") { i.organizer = try participant(o, f.sub("organizer")) }
        i.attendees = try participants(f, "attendees")
        i.alarms = try f.array("alarms").enumerated().map { try alarm($1, f.sub("alarms") + "/\($0)") }
        i.recurrenceRules = try f.array("recurrenceRules").enumerated().map { try recurrenceRule($1, f.sub("recurrenceRules") + "/\($0)") }
        i.recurrenceDates = try dateLists(f, "recurrenceDates")
        i.exceptionDates = try dateLists(f, "exceptionDates")
        i.recurrenceID = try f.dateTime("occurrenceDate")
        i.recurrenceAppliesToFuture = try f.bool("appliesToFutureEvents") ?? false
        i.sequence = try f.int("sequence")
        i.created = try f.dateTime("creationDate")
        i.lastModified = try f.dateTime("lastModifiedDate")
        i.timestamp = try f.dateTime("timestamp")
        i.properties = try properties(f)
        i.components = try components(f)
        i.propertyParameters = try propertyParameters(f)
        return i
    }

    func event(_ v: JSONValue, _ path: String) throws -> Event {
        let f = try fields(v, path)
        var e = Event(item: try item(f))
        e.end = try f.dateTime("endDate")
        e.duration = try f.duration("duration")
        e.transparency = try f.string("transparency")
        e.busyStatus = try f.word("busyStatus", NativeJSONVocabulary.availabilities)
        if let v = f.raw("birthday") {
            let bf = try fields(v, f.sub("birthday"))
            let occasions = Birthday.Occasion.allCases.map { ($0, $0.rawValue) }
            guard let month = try bf.int("month"), (1...12).contains(month) else { throw fail(bf.sub("month"), "expected a month 1...12") }
            guard let day = try bf.int("day"), (1...31).contains(day) else { throw fail(bf.sub("day"), "expected a day 1...31") }
            e.birthday = Birthday(
                occasion: try bf.word("occasion", occasions) ?? .birthday, contactIdentifier: try f.string("birthdayContactIdentifier"),
                month: month, day: day, year: try bf.int("year"))
            try bf.finish()
        }
        try f.finish(ignoring: ["isAllDay", "availability", "isDetached"])
        return e
    }

    func reminder(_ v: JSONValue, _ path: String) throws -> Reminder {
        let f = try fields(v, path)
        var r = Reminder(item: try item(f))
        r.due = try f.dateTime("dueDate")
        r.duration = try f.duration("duration")
        r.completionDate = try f.dateTime("completionDate")
        r.percentComplete = try f.int("percentComplete")
        try f.finish(ignoring: ["isCompleted", "isDetached"])
        return r
    }

    /// The entry an object carries as its `event`, `reminder`, `timeZone` or `component`
    /// member; nil when it carries none of them.
    func entry(_ f: Fields) throws -> CalendarEntry? {
        var found: [CalendarEntry] = []
        if let v = f.raw("event") { found.append(.event(try event(v, f.sub("event")))) }
        if let v = f.raw("reminder") { found.append(.reminder(try reminder(v, f.sub("reminder")))) }
        if let v = f.raw("timeZone") { found.append(.timeZone(try component(v, f.sub("timeZone")))) }
        if let v = f.raw("component") { found.append(.other(try component(v, f.sub("component")))) }
        guard found.count <= 1 else { throw fail(f.path, "an entry holds exactly one of event, reminder, timeZone, component") }
        return found.first
    }

    func calendar(_ v: JSONValue, _ path: String) throws -> CalendarModel.Calendar {
        let f = try fields(v, path)
        var c = CalendarModel.Calendar(title: try f.string("title"))
        c.description = try f.string("description")
        c.kind = try f.word("type", NativeJSONVocabulary.calendarKinds) ?? .local
        c.color = try f.string("color")
        c.allowsContentModifications = try f.bool("allowsContentModifications") ?? true
        if let s = f.raw("source") {
            let sf = try fields(s, f.sub("source"))
            guard let kind = try sf.word("sourceType", NativeJSONVocabulary.sourceKinds) else {
                throw fail(sf.sub("sourceType"), "missing required member")
            }
            c.source = CalendarSource(title: try sf.requiredString("title"), kind: kind)
            try sf.finish()
        }
        c.subscriptionURL = try f.string("subscriptionURL")
        c.refreshInterval = try f.duration("refreshInterval")
        c.defaultTimeZone = try f.string("defaultTimeZone")
        c.productID = try f.string("productID")
        c.version = try f.string("version")
        c.scale = try f.string("calendarScale")
        c.method = try f.string("method")
        c.properties = try properties(f)
        c.propertyParameters = try propertyParameters(f)
        if let v = f.raw("spellings") {
            let sf = try fields(v, f.sub("spellings"))
            for k in sf.object.keys { c.spellings[k] = try sf.requiredString(k) }
        }
        try f.finish()
        return c
    }
}
