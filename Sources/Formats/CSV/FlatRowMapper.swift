import CalendarModel

/// Maps rows of the flat `csv` layout to events and back: one column per model field, exact
/// ISO 8601 values, the recurrence rules as RFC 5545 text, and one line per attendee, alarm
/// or date list inside a cell.
///
/// What it cannot hold, and so loses on ICS → csv → ICS: X- and other properties the model keeps
/// untyped, extra parameters on typed properties, sub-components other than alarms, alarm
/// properties beyond action/trigger/description/summary/repeat/attendees, Apple's structured
/// locations and proximity alarms, per-date-list parameters, VTIMEZONE definitions (the TZIDs
/// stay), to-dos and other components, and calendar properties other than the title.
struct FlatRowMapper {
    let vocabulary: ParticipantVocabulary

    // MARK: Reading

    /// Builds an event from a row; `cell` gives a column's text (nil when absent or empty).
    func event(cell: (FlatColumn) -> (text: String, index: Int)?, warn: (Int?, String) -> Void) throws -> Event {
        let zone = cell(.timeZone)?.text
        guard let startCell = cell(.start) else { throw CSVCellError(index: nil, message: "the start is empty; every row needs one") }
        guard let start = FlatText.dateTime(startCell.text, zone: zone) else {
            throw CSVCellError(index: startCell.index, message: "'\(startCell.text)' is not a date or date-time (2024-05-01, 2024-05-01T09:00:00, 2024-05-01T09:00:00Z)")
        }
        var event = Event()
        event.item.start = start
        if let c = cell(.end) {
            let endZone = cell(.endTimeZone)?.text
            guard let end = FlatText.dateTime(c.text, zone: endZone == "floating" ? nil : endZone ?? zone) else {
                throw CSVCellError(index: c.index, message: "'\(c.text)' is not a date or date-time")
            }
            event.end = end
        }
        if let c = cell(.allDay), let b = TableRowMapper.boolean(c.text), b != start.isDateOnly {
            warn(c.index, "allDay says \(c.text) but the start \(start.isDateOnly ? "is a date" : "has a time"); the start decides")
        }
        func optional<T>(_ column: FlatColumn, _ what: String, _ parse: (String) -> T?) -> T? {
            guard let c = cell(column) else { return nil }
            if let v = parse(c.text) { return v }
            warn(c.index, "'\(c.text)' is not \(what); the cell is ignored")
            return nil
        }
        event.duration = optional(.duration, "a duration (P1D, PT1H30M)", FlatText.duration)
        event.item.uid = cell(.uid)?.text
        event.item.title = cell(.title)?.text
        event.item.location = cell(.location)?.text
        event.item.notes = cell(.notes)?.text
        event.item.url = cell(.url)?.text
        event.item.status = optional(.status, "a status") { t in CSVVocabulary.statuses.first { $0.1 == t }?.0 ?? .other(t) }
        event.item.classification = optional(.classification, "a classification") { t in CSVVocabulary.classifications.first { $0.1 == t }?.0 ?? .other(t) }
        event.item.priority = optional(.priority, "a priority (0–9)") { Int($0).flatMap { (0...9).contains($0) ? $0 : nil } }
        if let c = cell(.categories) {
            event.item.categories = FlatText.lines(c.text).map { line in
                line.splitting(at: UInt8(ascii: ",")).map { FlatText.unescape($0) }
            }
        }
        event.busyStatus = optional(.availability, "an availability (busy, free, tentative, unavailable)") { t in CSVVocabulary.availabilities.first { $0.1 == t }?.0 }
        event.transparency = cell(.transparency)?.text
        if let c = cell(.organizer) {
            if let p = FlatText.lines(c.text).first.flatMap(participant) {
                event.item.organizer = p
            } else {
                warn(c.index, "'\(c.text)' is not a participant (\"Name\" <mailto:…>;role=…); the cell is ignored")
            }
        }
        if let c = cell(.attendees) {
            for line in FlatText.lines(c.text) {
                if let p = participant(line) {
                    event.item.attendees.append(p)
                } else {
                    warn(c.index, "'\(line)' is not a participant (\"Name\" <mailto:…>;role=…); it is left out")
                }
            }
        }
        if let c = cell(.alarms) {
            for line in FlatText.lines(c.text) {
                if let a = alarm(line) {
                    event.item.alarms.append(a)
                } else {
                    warn(c.index, "'\(line)' is not an alarm (trigger=-PT15M;action=display); it is left out")
                }
            }
        }
        if let c = cell(.recurrenceRules) {
            for line in FlatText.lines(c.text) {
                do {
                    event.item.recurrenceRules.append(try RecurrenceRule(rfc5545: String(line)))
                } catch {
                    warn(c.index, "'\(line)' is not a recurrence rule (\(error)); it is left out")
                }
            }
        }
        event.item.recurrenceDates = dateLists(cell(.recurrenceDates), warn: warn)
        event.item.exceptionDates = dateLists(cell(.exceptionDates), warn: warn)
        event.item.recurrenceID = optional(.recurrenceID, "a date or date-time", FlatText.zonedDateTime)
        event.item.recurrenceAppliesToFuture = cell(.recurrenceRange)?.text == "thisAndFuture"
        event.item.sequence = optional(.sequence, "a number") { Int($0) }
        event.item.created = optional(.created, "a date-time", FlatText.zonedDateTime)
        event.item.lastModified = optional(.lastModified, "a date-time", FlatText.zonedDateTime)
        event.item.timestamp = optional(.timestamp, "a date-time", FlatText.zonedDateTime)
        event.item.geo = optional(.geo, "latitude;longitude") { t in
            let parts = t.split(separator: ";")
            guard parts.count == 2, let la = Double(parts[0]), let lo = Double(parts[1]), la.isFinite, lo.isFinite else { return nil }
            return GeoCoordinate(latitude: la, longitude: lo)
        }
        return event
    }

    private func dateLists(_ cell: (text: String, index: Int)?, warn: (Int?, String) -> Void) -> [CalendarItem.DateList] {
        guard let cell else { return [] }
        var lists: [CalendarItem.DateList] = []
        for line in FlatText.lines(cell.text) {
            var list = CalendarItem.DateList()
            for item in line.splitting(at: UInt8(ascii: ",")) {
                // A period's "/" is followed by a date or a duration; a zone's ("America/New_York") by a letter.
                let slash = item.indices.first { i in
                    item[i] == "/" && item.index(after: i) < item.endIndex && "0123456789P+-".contains(item[item.index(after: i)])
                }
                let parts = slash.map { [item[..<$0], item[item.index(after: $0)...]] } ?? [item]
                if parts.count == 2, let start = FlatText.zonedDateTime(String(parts[0])) {
                    if let d = FlatText.duration(String(parts[1])) {
                        list.periods.append(CalendarPeriod(start: start, extent: .duration(d)))
                        continue
                    }
                    if let end = FlatText.zonedDateTime(String(parts[1])) {
                        list.periods.append(CalendarPeriod(start: start, extent: .end(end)))
                        continue
                    }
                } else if let d = FlatText.zonedDateTime(String(item)) {
                    list.dates.append(d)
                    continue
                }
                warn(cell.index, "'\(item)' is not a date, date-time or period; it is left out")
            }
            if !list.dates.isEmpty || !list.periods.isEmpty { lists.append(list) }
        }
        return lists
    }

    /// `"Name" <url>;role=required;…` into a participant.
    func participant(_ line: Substring) -> Participant? {
        var rest = line.drop { $0 == " " }
        var name: String?
        if rest.hasPrefix("\"") {
            // The name goes in by runs between backslashes, each escaped Character starting a run.
            var value = ""
            var escaped = false
            var closed: Substring.Index?
            var run = rest.index(after: rest.startIndex)
            for i in rest.indices.dropFirst() {
                let c = rest[i]
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    value += rest[run..<i]
                    run = rest.index(after: i)
                    escaped = true
                } else if c == "\"" {
                    value += rest[run..<i]
                    closed = i
                    break
                }
            }
            guard let closed else { return nil }
            name = value
            rest = rest[rest.index(after: closed)...].drop { $0 == " " }
        }
        guard rest.hasPrefix("<"), let close = rest.firstIndex(ofASCII: UInt8(ascii: ">")) else { return nil }
        var p = Participant(name: name, url: String(rest[rest.utf8.index(after: rest.startIndex)..<close]))
        for (key, value) in FlatText.parameters(rest[rest.utf8.index(after: close)...]) {
            // Only the list parameters need the pieces: split for every parameter, they were an
            // eighth of a CSV read.
            func list() -> [String] { value.splitting(at: UInt8(ascii: ",")).map { FlatText.unescape($0) } }
            switch key {
            case "role": p.role = vocabulary.role(for: value)
            case "status": p.status = vocabulary.status(for: value)
            case "type": p.type = vocabulary.type(for: value)
            case "rsvp": p.expectsReply = value == "true"
            case "sentBy": p.sentBy = value
            case "delegatedTo": p.delegatedTo = list()
            case "delegatedFrom": p.delegatedFrom = list()
            case "members": p.members = list()
            case "dir": p.directory = value
            case "language": p.language = value
            case "email": p.email = value
            default: p.extraParameters.append(Parameter(key.uppercased(), value))
            }
        }
        return p
    }

    /// `trigger=-PT15M;related=end;action=display;…` into an alarm.
    func alarm(_ line: Substring) -> Alarm? {
        var alarm = Alarm(action: .display)
        var related = false
        var triggerText: String?
        for (key, value) in FlatText.parameters(line) {
            switch key {
            case "trigger": triggerText = value
            case "related": related = value == "end"
            case "action": alarm.action = CSVVocabulary.alarmActions.first { $0.1 == value }?.0 ?? .other(value)
            case "description": alarm.description = value
            case "summary": alarm.summary = value
            case "repeat": alarm.repeatCount = Int(value)
            case "interval": alarm.repeatInterval = FlatText.duration(value)
            case "attendee": alarm.attendees = value.splitting(at: UInt8(ascii: ",")).map { Participant(url: FlatText.unescape($0)) }
            case "uid": alarm.uid = value
            default: return nil
            }
        }
        if let triggerText {
            if let d = FlatText.duration(triggerText) {
                alarm.trigger = .relative(d, relativeToEnd: related)
            } else if let at = FlatText.zonedDateTime(triggerText) {
                alarm.trigger = .absolute(at)
            } else {
                return nil
            }
        }
        return alarm
    }

    // MARK: Writing

    /// The cells of one event, in `FlatColumn.allCases` order.
    func cells(for event: Event, calendarTitle: String?) -> [String] {
        Self.columns.map { cell($0, of: event, calendarTitle: calendarTitle) ?? "" }
    }

    private static let columns = FlatColumn.allCases

    /// One cell of an event; nil when the event has no value for the column.
    private func cell(_ column: FlatColumn, of event: Event, calendarTitle: String?) -> String? {
        switch column {
        case .calendar: return calendarTitle
        case .uid: return event.uid
        case .title: return event.title
        case .start: return event.start.map(FlatText.text)
        case .timeZone: return event.start?.reference.zoneIdentifier
        case .allDay: return event.start.map { $0.isDateOnly ? "true" : "false" }
        case .end: return event.end.map(FlatText.text)
        case .endTimeZone:
            guard let end = event.end, end.reference.zoneIdentifier != event.start?.reference.zoneIdentifier else { return nil }
            // An end in another zone (or floating beside a zoned start) says so explicitly.
            return end.reference.zoneIdentifier ?? (end.isDateOnly || end.reference == .utc ? nil : "floating")
        case .duration: return event.duration.map(FlatText.text)
        case .location: return event.location
        case .notes: return event.notes
        case .url: return event.url
        case .status:
            return event.status.map { s in
                if case .other(let w) = s { return w }
                return CSVVocabulary.statuses.first { $0.0 == s }!.1
            }
        case .classification:
            return event.classification.map { c in
                if case .other(let w) = c { return w }
                return CSVVocabulary.classifications.first { $0.0 == c }!.1
            }
        case .priority: return event.priority.map(String.init)
        case .categories:
            let categories = event.categories
            return categories.isEmpty ? nil : categories.map { $0.map(FlatText.escape).joined(separator: ",") }.joined(separator: "\n")
        case .availability: return event.busyStatus.map { b in CSVVocabulary.availabilities.first { $0.0 == b }!.1 }
        case .transparency: return event.transparency
        case .organizer: return event.organizer.map(text)
        case .attendees:
            let attendees = event.attendees
            return attendees.isEmpty ? nil : attendees.map(text).joined(separator: "\n")
        case .alarms:
            let alarms = event.alarms
            return alarms.isEmpty ? nil : alarms.map(text).joined(separator: "\n")
        case .recurrenceRules:
            let rules = event.recurrenceRules
            return rules.isEmpty ? nil : rules.map(\.rfc5545Text).joined(separator: "\n")
        case .recurrenceDates: return text(event.recurrenceDates)
        case .exceptionDates: return text(event.exceptionDates)
        case .recurrenceID: return event.recurrenceID.map(FlatText.zonedText)
        case .recurrenceRange: return event.recurrenceAppliesToFuture ? "thisAndFuture" : nil
        case .sequence: return event.sequence.map(String.init)
        case .created: return event.created.map(FlatText.zonedText)
        case .lastModified: return event.lastModified.map(FlatText.zonedText)
        case .timestamp: return event.timestamp.map(FlatText.zonedText)
        case .geo: return event.geo.map { "\($0.latitude);\($0.longitude)" }
        }
    }

    private func text(_ lists: [CalendarItem.DateList]) -> String? {
        guard !lists.isEmpty else { return nil }
        return lists.map { list in
            (list.dates.map(FlatText.zonedText) + list.periods.map { p in
                switch p.extent {
                case .end(let e): FlatText.zonedText(p.start) + "/" + FlatText.zonedText(e)
                case .duration(let d): FlatText.zonedText(p.start) + "/" + FlatText.text(d)
                }
            }).joined(separator: ",")
        }.joined(separator: "\n")
    }

    /// A participant as `"Name" <url>;role=…`.
    func text(_ p: Participant) -> String {
        var s = ""
        if let name = p.name {
            s += "\""
            s += name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
            s += "\" "
        }
        s += "<"
        s += p.url
        s += ">"
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            s += ";"
            s += key
            s += "="
            s += FlatText.escape(value)
        }
        func addList(_ key: String, _ values: [String]) {
            if !values.isEmpty { s += ";\(key)=" + values.map(FlatText.escape).joined(separator: ",") }
        }
        add("role", p.role.flatMap { vocabulary.word(for: $0) })
        add("status", p.status.flatMap { vocabulary.word(for: $0) })
        add("type", p.type.flatMap { vocabulary.word(for: $0) })
        add("rsvp", p.expectsReply.map { $0 ? "true" : "false" })
        add("sentBy", p.sentBy)
        addList("delegatedTo", p.delegatedTo)
        addList("delegatedFrom", p.delegatedFrom)
        addList("members", p.members)
        add("dir", p.directory)
        add("language", p.language)
        add("email", p.email)
        for parameter in p.extraParameters { add(parameter.name.lowercased(), parameter.values.joined(separator: ",")) }
        return s
    }

    /// An alarm as `trigger=…;action=…`.
    func text(_ a: Alarm) -> String {
        var parts: [String] = []
        switch a.trigger {
        case .relative(let d, let toEnd)?:
            parts.append("trigger=" + FlatText.text(d))
            if toEnd { parts.append("related=end") }
        case .absolute(let at)?:
            parts.append("trigger=" + FlatText.escape(FlatText.zonedText(at)))
        case nil: break
        }
        switch a.action {
        case .other(let w): parts.append("action=" + FlatText.escape(w))
        default: parts.append("action=" + CSVVocabulary.alarmActions.first { $0.0 == a.action }!.1)
        }
        if let d = a.description { parts.append("description=" + FlatText.escape(d)) }
        if let s = a.summary { parts.append("summary=" + FlatText.escape(s)) }
        if let r = a.repeatCount { parts.append("repeat=\(r)") }
        if let i = a.repeatInterval { parts.append("interval=" + FlatText.text(i)) }
        if !a.attendees.isEmpty { parts.append("attendee=" + a.attendees.map { FlatText.escape($0.url) }.joined(separator: ",")) }
        if let uid = a.uid { parts.append("uid=" + FlatText.escape(uid)) }
        return parts.joined(separator: ";")
    }
}
