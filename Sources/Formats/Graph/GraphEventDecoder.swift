import CalendarModel
import ExchangeData
import ICalendarData
import JCalCoding
import JSONCoding

/// Turns one Graph `event` object (REST camelCase; PowerShell's spelling is normalized before)
/// into the model. Members the model has no field for travel as iCalendar properties
/// (`GraphPropertyNames`), read-only bookkeeping Graph derives (`webLink`, `bodyPreview`,
/// `hasAttachments`, `@odata.etag`) is ignored.
struct GraphEventDecoder {
    let file: String
    let line: Int
    let strict: Bool
    let log: DiagnosticLog
    let vocabulary: ParticipantVocabulary
    /// Maps the model to iCalendar and back, for the writer's kept remainder.
    let mapper: ICalendarMapper
    /// Short strings of the kept iCalendar's JSON made before on this thread (nil: none).
    var strings: JSONStringTable? = nil

    func fail(_ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: file, line: line, location: path, message)
    }

    func warn(_ path: String, _ message: String) throws {
        if strict { throw fail(path, message) }
        log.warning(file: file, line: line, location: path, message)
    }

    // Paths are made only for a message: built for every member read, they cost ~7% of a read.
    private func string(_ o: some GraphMemberLookup, _ key: String, _ path: @autoclosure () -> String) throws -> String? {
        guard let v = o[key], v != .null else { return nil }
        guard let s = v.stringValue else { throw fail("\(path())/\(key)", "expected a string, found \(v.typeName)") }
        return s
    }

    private func object(_ o: some GraphMemberLookup, _ key: String, _ path: @autoclosure () -> String) throws -> JSONObject? {
        guard let v = o[key], v != .null else { return nil }
        guard let inner = v.objectValue else {
            // ConvertTo-Json's default depth (2) writes deeper objects as their type names.
            let hint = v.stringValue?.hasPrefix("Microsoft.Graph") == true ? " (PowerShell: use ConvertTo-Json -Depth 10)" : ""
            throw fail("\(path())/\(key)", "expected an object, found \(v.typeName)\(hint)")
        }
        return inner
    }

    private func bool(_ o: some GraphMemberLookup, _ key: String, _ path: @autoclosure () -> String) throws -> Bool? {
        guard let v = o[key], v != .null else { return nil }
        guard let b = v.boolValue else { throw fail("\(path())/\(key)", "expected true or false, found \(v.typeName)") }
        return b
    }

    /// Reads an event object at `path`.
    func event(_ json: JSONObject, path: String) throws -> GraphEvent {
        let o = GraphEventMembers(json)
        if let type = try string(o, "@odata.type", path), !type.lowercased().hasSuffix("microsoft.graph.event") {
            throw fail("\(path)/@odata.type", "not a Graph event: @odata.type is \"\(type)\"")
        }
        guard o["start"] != nil || o["subject"] != nil || o["iCalUId"] != nil || o["recurrence"] != nil else {
            throw fail(path, "not a Graph event: none of start, subject, iCalUId, recurrence")
        }
        // The event (and the result holding it) is made last, from `item` and these: an event
        // made first and given its item at the end was copied (a box made and freed for every
        // body the writer reads back).
        var item = CalendarItem()
        var end: CalendarDateTime?
        var transparency: String?
        var originalStart: CalendarDateTime?
        var recurrence: ExchangeRecurrence?
        var cancelledDays: [CalendarDate] = []
        var exceptionOccurrences: [(object: JSONObject, path: String)] = []
        let typeWord = try string(o, "type", path)
        let kind = typeWord.flatMap { w in [GraphEvent.Kind.singleInstance, .occurrence, .exception, .seriesMaster].first { $0.rawValue.caseInsensitiveEquals(w) } }
        if let typeWord, kind == nil { try warn("\(path)/type", "unknown event type \"\(typeWord)\"; read as a single instance") }
        // A POST body has no `type`: a pattern makes it a master.
        let implied: GraphEvent.Kind = o["recurrence"]?.objectValue != nil ? .seriesMaster : .singleInstance
        let id = try string(o, "id", path)
        let seriesMasterID = try string(o, "seriesMasterId", path)

        let hasSeriesUID: Bool
        if let uid = try string(o, "uid", path) {
            item.uid = uid
            hasSeriesUID = true
        } else {
            item.uid = try string(o, "iCalUId", path) ?? id
            hasSeriesUID = false
        }
        item.title = try string(o, "subject", path)

        // Body: text as DESCRIPTION; HTML as its text, with the HTML kept (X-ALT-DESC).
        if let body = try object(o, "body", path), let content = try string(body, "content", "\(path)/body"), !content.isEmpty {
            if (try string(body, "contentType", "\(path)/body"))?.lowercased() == "html" {
                let text = ExchangeHTMLBody.plainText(content)
                if !text.isEmpty { item.notes = text }
                item.properties.append(
                    Property(
                        name: ExchangeProperties.htmlDescription, parameters: [Parameter("FMTTYPE", ExchangeProperties.htmlMediaType)],
                        value: .text([content])))
            } else {
                item.notes = content
            }
        }

        // Times: read in UTC or the zone Graph gave, written in the event's own zone.
        let isAllDay = try bool(o, "isAllDay", path) ?? false
        let startZone = try string(o, "originalStartTimeZone", path)
        let endZone = try string(o, "originalEndTimeZone", path) ?? startZone
        item.start = try dateTime(o, "start", path, allDay: isAllDay, zone: startZone)
        end = try dateTime(o, "end", path, allDay: isAllDay, zone: endZone)
        if let u = try string(o, "originalStart", path) {
            guard let t = GraphDateTimes.timestamp(u) else { throw fail("\(path)/originalStart", "not a date-time: \"\(u)\"") }
            originalStart = t
        }

        if let r = try object(o, "recurrence", path) {
            recurrence = try GraphRecurrence.read(r, path: "\(path)/recurrence", fail: fail)
        }

        try locations(o, path, &item)
        try onlineMeeting(o, path, &item)

        if let organizer = try object(o, "organizer", path), let p = try participant(organizer, "\(path)/organizer") {
            item.organizer = p
        }
        let responseRequested = try bool(o, "responseRequested", path)
        for (i, v) in (o["attendees"]?.arrayValue ?? []).enumerated() {
            func p() -> String { "\(path)/attendees/\(i)" }
            guard let a = v.objectValue else { throw fail(p(), "expected an attendee object") }
            guard var attendee = try participant(a, p()) else { continue }
            if let type = try string(a, "type", p()) {
                attendee.role = vocabulary.role(for: type)
                let t = vocabulary.type(for: type)
                if case .other = t {} else { attendee.type = t }
            }
            if let status = try object(a, "status", p()), let response = try string(status, "response", "\(p())/status") {
                attendee.status = vocabulary.status(for: response)
            }
            if let proposed = try object(a, "proposedNewTime", p()) {
                for (key, name) in [("start", GraphPropertyNames.proposedStart), ("end", GraphPropertyNames.proposedEnd)] {
                    if let t = try dateTime(proposed, key, "\(p())/proposedNewTime", allDay: false, zone: nil),
                        let u = GraphDateTimes.timestampText(t)
                    {
                        attendee.extraParameters.append(Parameter(name, u))
                    }
                }
            }
            if let responseRequested { attendee.expectsReply = responseRequested }
            item.attendees.append(attendee)
        }

        if let showAs = try string(o, "showAs", path) {
            guard let status = ExchangeBusyStatus(graph: showAs) else { throw fail("\(path)/showAs", "unknown showAs \"\(showAs)\"") }
            transparency = status.transparency
            if status != .noData {
                item.properties.append(Property(name: ExchangeProperties.busyStatus, value: .text([status.cdo])))
            }
        }
        if let s = try string(o, "sensitivity", path) {
            guard let sensitivity = ExchangeSensitivity(word: s) else { throw fail("\(path)/sensitivity", "unknown sensitivity \"\(s)\"") }
            item.classification = sensitivity.classification
            if sensitivity.needsKeptWord {
                item.properties.append(Property(name: ExchangeProperties.sensitivity, value: .text([sensitivity.graph])))
            }
        }
        if let word = try string(o, "importance", path) {
            guard let importance = ExchangeImportance(word: word) else { throw fail("\(path)/importance", "unknown importance \"\(word)\"") }
            item.priority = importance.priority
        }
        if try bool(o, "isReminderOn", path) == true {
            let minutes = o["reminderMinutesBeforeStart"]?.intValue ?? 15
            guard minutes.magnitude < CalendarDuration.fieldLimit / 60 else {
                throw fail("\(path)/reminderMinutesBeforeStart", "\(minutes) minutes is out of range")
            }
            item.alarms.append(
                Alarm(action: .display, trigger: .relative(CalendarDuration(seconds: -60 * minutes), relativeToEnd: false), description: "Reminder"))
        }
        let categories = (o["categories"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !categories.isEmpty { item.categories = [categories] }
        if try bool(o, "isCancelled", path) == true { item.status = .cancelled }
        if let allow = try bool(o, "allowNewTimeProposals", path) {
            item.properties.append(Property(name: GraphPropertyNames.disallowCounter, value: .text([allow ? "FALSE" : "TRUE"])))
        }
        item.created = try timestamp(o, "createdDateTime", path)
        item.lastModified = try timestamp(o, "lastModifiedDateTime", path)
        for (key, name) in [
            ("id", ExchangeProperties.graphID), ("changeKey", ExchangeProperties.graphChangeKey),
            ("transactionId", ExchangeProperties.graphTransactionID),
        ] {
            if let v = try string(o, key, path), !v.isEmpty { item.properties.append(Property(name: name, value: .text([v]))) }
        }

        if let cancelled = o["cancelledOccurrences"]?.arrayValue {
            for (i, v) in cancelled.enumerated() {
                guard let s = v.stringValue, let day = ISO8601Text.parseDate(String(s.suffix(10))) else {
                    throw fail("\(path)/cancelledOccurrences/\(i)", "expected \"OID.<master id>.<yyyy-mm-dd>\", found \(v)")
                }
                cancelledDays.append(day)
            }
        }
        if let exceptions = o["exceptionOccurrences"]?.arrayValue {
            for (i, v) in exceptions.enumerated() {
                guard let e = v.objectValue else { throw fail("\(path)/exceptionOccurrences/\(i)", "expected an event object") }
                exceptionOccurrences.append((GraphMembers.normalized(e), "\(path)/exceptionOccurrences/\(i)"))
            }
        }
        var event = Event(item: item)
        event.end = end
        event.transparency = transparency
        return GraphEvent(
            event: event, kind: kind ?? implied, id: id, seriesMasterID: seriesMasterID, originalStart: originalStart,
            recurrence: recurrence, exceptionOccurrences: exceptionOccurrences, cancelledDays: cancelledDays,
            hasSeriesUID: hasSeriesUID,
            // Applied once the series is put together (`kept`), since the source's RRULE or
            // RECURRENCE-ID it may hold come after what Graph's members say.
            remainder: try remainder(o, path))
    }

    /// `event` with the source's own iCalendar restored where Graph's members could not say it.
    func kept(_ event: Event, _ remainder: ICalendarRemainder?) throws -> Event {
        guard let remainder else { return event }
        guard case .event(var kept) = remainder.entry(from: mapper.component(from: .event(event)), mapper: mapper) else {
            throw fail("", "calport's kept iCalendar data does not describe an event")
        }
        // iCalendar has no PARTSTAT for EventKit's Unknown (Graph's "none"): the trip through it
        // must not turn a status Graph stated into none at all.
        let unknown = Set(event.item.attendees.filter { $0.status == .unknown }.map(\.url))
        if !unknown.isEmpty {
            for i in kept.item.attendees.indices where kept.item.attendees[i].status == nil && unknown.contains(kept.item.attendees[i].url) {
                kept.item.attendees[i].status = .unknown
            }
        }
        return kept
    }

    /// A `dateTimeTimeZone` member: an all-day event's date, or a wall time in `zone` (the
    /// event's original zone) when that resolves, else in the zone Graph gave (UTC by default).
    func dateTime(
        _ o: some GraphMemberLookup, _ key: String, _ path: String, allDay: Bool, zone: String?
    ) throws -> CalendarDateTime? {
        guard let v = try object(o, key, path) else { return nil }
        func p() -> String { "\(path)/\(key)" }
        guard let text = try string(v, "dateTime", p()), let wall = GraphDateTimes.wallTime(text) else {
            throw fail("\(p())/dateTime", "expected a date-time such as 2024-05-01T09:00:00.0000000")
        }
        if allDay { return CalendarDateTime(date: wall.date) }
        let given = try string(v, "timeZone", p())
        var value = wall
        if GraphDateTimes.isUTC(given) {
            value.reference = .utc
        } else if let given {
            guard GraphDateTimes.resolves(given) else {
                throw fail("\(p())/timeZone", "unknown time zone \"\(given)\"")
            }
            value.reference = .zone(given)
        }
        guard let zone, !GraphDateTimes.isUTC(zone), zone != given else { return value }
        guard GraphDateTimes.resolves(zone) else {
            try warn(
                "\(path)/originalStartTimeZone",
                "time zone \"\(zone)\" is not known (tzone://Microsoft/Custom has no definition in Graph's event); times kept in \(given ?? "UTC")")
            return value
        }
        guard let utc = GraphDateTimes.utc(value), let local = GraphDateTimes.local(utc, in: zone) else { return value }
        return local
    }

    private func timestamp(_ o: some GraphMemberLookup, _ key: String, _ path: String) throws -> CalendarDateTime? {
        guard let s = try string(o, key, path) else { return nil }
        guard let t = GraphDateTimes.timestamp(s) else { throw fail("\(path)/\(key)", "not a date-time: \"\(s)\"") }
        return t
    }

    /// An `attendee`/`recipient`'s `emailAddress`; nil (with a warning) when it has no address.
    private func participant(_ o: JSONObject, _ path: @autoclosure () -> String) throws -> Participant? {
        guard let email = try object(o, "emailAddress", path()) else {
            try warn(path(), "no emailAddress; left out")
            return nil
        }
        let name = try string(email, "name", "\(path())/emailAddress")
        guard let address = try string(email, "address", "\(path())/emailAddress"), !address.isEmpty else {
            try warn("\(path())/emailAddress", "no address\(name.map { " for \"\($0)\"" } ?? ""); left out")
            return nil
        }
        return Participant(name: name.flatMap { $0.isEmpty ? nil : $0 }, url: "mailto:\(address)")
    }

    /// `location` and `locations`: LOCATION (the display name Outlook shows), GEO (the primary
    /// location's coordinates), and an RFC 9073 VLOCATION for each location that says more than
    /// its name.
    private func locations(_ o: some GraphMemberLookup, _ path: String, _ item: inout CalendarItem) throws {
        let primary = try object(o, "location", path)
        // Each location with its index in `locations` (nil: `location`), whose path is made
        // only for a message.
        var all: [(JSONObject, Int?)] = []
        func place(_ index: Int?) -> String { index.map { "\(path)/locations/\($0)" } ?? "\(path)/location" }
        for (i, v) in (o["locations"]?.arrayValue ?? []).enumerated() {
            guard let l = v.objectValue else { throw fail("\(path)/locations/\(i)", "expected a location object") }
            all.append((l, i))
        }
        if all.isEmpty, let primary { all = [(primary, nil)] }
        if let name = try primary.flatMap({ try string($0, "displayName", "\(path)/location") }), !name.isEmpty {
            item.location = name
        } else if !all.isEmpty {
            let names = try all.compactMap { try string($0.0, "displayName", place($0.1)) }.filter { !$0.isEmpty }
            if !names.isEmpty { item.location = names.joined(separator: "; ") }
        }
        for (l, index) in all {
            func p() -> String { place(index) }
            var props: [Property] = []
            if let id = try string(l, "uniqueId", p()), !id.isEmpty { props.append(Property(name: "UID", value: .text([id]))) }
            // NAME goes here, made once another property is: a location that is only a name
            // (most are) is all in LOCATION already.
            let displayName = try string(l, "displayName", p()).flatMap { $0.isEmpty ? nil : $0 }
            let nameIndex = props.count
            if let type = try string(l, "locationType", p()), type != "default" {
                props.append(Property(name: GraphPropertyNames.locationType, value: .text([type])))
            }
            if let c = try object(l, "coordinates", p()), let lat = c["latitude"]?.doubleValue, let lon = c["longitude"]?.doubleValue {
                // 1e309 parses as infinity, which no GEO can say.
                if lat.isFinite && lon.isFinite {
                    props.append(Property(name: "GEO", value: .geo(latitude: lat, longitude: lon)))
                    if item.geo == nil { item.geo = GeoCoordinate(latitude: lat, longitude: lon) }
                } else {
                    try warn("\(p())/coordinates", "latitude and longitude are not finite numbers; left out")
                }
            }
            if let a = try object(l, "address", p()) {
                for (member, name) in GraphPropertyNames.addressParts {
                    if let v = try string(a, member, "\(p())/address"), !v.isEmpty { props.append(Property(name: name, value: .text([v]))) }
                }
            }
            if let uri = try string(l, "locationUri", p()), !uri.isEmpty { props.append(Property(name: "URL", value: .uri(uri))) }
            if let mail = try string(l, "locationEmailAddress", p()), !mail.isEmpty {
                props.append(Property(name: GraphPropertyNames.locationEmail, value: .text([mail])))
            }
            guard !props.isEmpty else { continue }
            if let displayName { props.insert(Property(name: "NAME", value: .text([displayName])), at: nameIndex) }
            item.components.append(Component(name: "VLOCATION", properties: props))
        }
    }

    /// `onlineMeeting.joinUrl` (or the older `onlineMeetingUrl`) as RFC 7986 CONFERENCE, and URL
    /// when the event has none; the provider is kept.
    private func onlineMeeting(_ o: some GraphMemberLookup, _ path: String, _ item: inout CalendarItem) throws {
        var join = try object(o, "onlineMeeting", path).flatMap { try string($0, "joinUrl", "\(path)/onlineMeeting") }
        if join == nil || join?.isEmpty == true { join = try string(o, "onlineMeetingUrl", path) }
        if let join, !join.isEmpty {
            item.properties.append(
                Property(
                    name: "CONFERENCE", parameters: [Parameter("VALUE", "URI"), Parameter(name: "FEATURE", values: ["AUDIO", "VIDEO"])],
                    value: .uri(join)))
            if item.url == nil { item.url = join }
        }
        if let provider = try string(o, "onlineMeetingProvider", path), provider != "unknown", try bool(o, "isOnlineMeeting", path) == true {
            item.properties.append(Property(name: GraphPropertyNames.onlineMeetingProvider, value: .text([provider])))
        }
    }

    /// What calport's Graph writer kept in its extended property (`GraphRemainder`), if any.
    func remainder(_ o: some GraphMemberLookup, _ path: String) throws -> ICalendarRemainder? {
        for (i, v) in (o["singleValueExtendedProperties"]?.arrayValue ?? []).enumerated() {
            let p = "\(path)/singleValueExtendedProperties/\(i)"
            guard let e = v.objectValue, try string(e, "id", p)?.caseInsensitiveEquals(GraphRemainder.propertyID) == true,
                let text = try string(e, "value", p)
            else { continue }
            return try GraphRemainder.read(
                text, decoder: JCalValueDecoder(file: file, line: line, strict: strict, log: log), path: "\(p)/value", strings: strings)
        }
        return nil
    }
}
