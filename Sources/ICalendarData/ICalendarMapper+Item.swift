import CalendarModel

extension ICalendarMapper {
    /// Parameters the typed fields of date-time properties hold themselves.
    private static let rangeParameter = "RANGE"

    func event(from component: Component) -> Event {
        var event = Event()
        var rest: [Property] = []
        for property in component.properties {
            if fillItem(&event.item, with: property) { continue }
            var taken = false
            switch property.name {
            case "DTEND":
                if event.end == nil, let d = singleDate(property.value) {
                    event.end = d
                    taken = true
                }
            case "DURATION":
                if event.duration == nil, case .duration(let d) = property.value {
                    event.duration = d
                    taken = true
                }
            case "TRANSP":
                if event.transparency == nil, let t = singleText(property.value) {
                    event.transparency = t
                    taken = true
                }
            default: break
            }
            if taken {
                keepParameters(property, in: &event.item)
            } else {
                rest.append(property)
            }
        }
        finishItem(&event.item, leftovers: rest, components: component.components)
        return event
    }

    func reminder(from component: Component) -> Reminder {
        var reminder = Reminder()
        var rest: [Property] = []
        for property in component.properties {
            if fillItem(&reminder.item, with: property) { continue }
            var taken = false
            switch property.name {
            case "DUE":
                if reminder.due == nil, let d = singleDate(property.value) {
                    reminder.due = d
                    taken = true
                }
            case "DURATION":
                if reminder.duration == nil, case .duration(let d) = property.value {
                    reminder.duration = d
                    taken = true
                }
            case "COMPLETED":
                if reminder.completionDate == nil, let d = singleDate(property.value) {
                    reminder.completionDate = d
                    taken = true
                }
            case "PERCENT-COMPLETE":
                if reminder.percentComplete == nil, case .integer(let n) = property.value, n.count == 1 {
                    reminder.percentComplete = n[0]
                    taken = true
                }
            default: break
            }
            if taken {
                keepParameters(property, in: &reminder.item)
            } else {
                rest.append(property)
            }
        }
        finishItem(&reminder.item, leftovers: rest, components: component.components)
        return reminder
    }

    // MARK: - Shared item fields

    /// Puts a property into its typed field when the field is free; returns whether it did.
    private func fillItem(_ item: inout CalendarItem, with property: Property) -> Bool {
        var taken = false
        let value = property.value
        switch property.name {
        case "UID": if item.uid == nil, let t = singleText(value) { item.uid = t; taken = true }
        case "SUMMARY": if item.title == nil, let t = singleText(value) { item.title = t; taken = true }
        case "DTSTART": if item.start == nil, let d = singleDate(value) { item.start = d; taken = true }
        case "LOCATION": if item.location == nil, let t = singleText(value) { item.location = t; taken = true }
        case "DESCRIPTION": if item.notes == nil, let t = singleText(value) { item.notes = t; taken = true }
        case "URL": if item.url == nil, case .uri(let u) = value { item.url = u; taken = true }
        case "STATUS": if item.status == nil, let t = singleText(value) { item.status = Self.status(t); taken = true }
        case "CLASS": if item.classification == nil, let t = singleText(value) { item.classification = Self.classification(t); taken = true }
        case "PRIORITY": if item.priority == nil, case .integer(let n) = value, n.count == 1 { item.priority = n[0]; taken = true }
        case "SEQUENCE": if item.sequence == nil, case .integer(let n) = value, n.count == 1 { item.sequence = n[0]; taken = true }
        case "CREATED": if item.created == nil, let d = singleDate(value) { item.created = d; taken = true }
        case "LAST-MODIFIED": if item.lastModified == nil, let d = singleDate(value) { item.lastModified = d; taken = true }
        case "DTSTAMP": if item.timestamp == nil, let d = singleDate(value) { item.timestamp = d; taken = true }
        case "GEO": if item.geo == nil, case .geo(let lat, let lon) = value { item.geo = GeoCoordinate(latitude: lat, longitude: lon); taken = true }
        case "RECURRENCE-ID":
            if item.recurrenceID == nil, let d = singleDate(value) {
                item.recurrenceID = d
                let range = property.parameter("RANGE")?.value.uppercased()
                if range == "THISANDFUTURE" { item.recurrenceAppliesToFuture = true }
                var p = property
                p.parameters.removeAll { $0.name == "RANGE" && range == "THISANDFUTURE" }
                keepParameters(p, in: &item)
                return true
            }
        case "CATEGORIES":
            if case .text(let list) = value, property.parameters.isEmpty {
                item.categories.append(list)
                return true
            }
        case "ORGANIZER":
            if item.organizer == nil, let p = participant(from: property) { item.organizer = p; return true }
        case "ATTENDEE":
            if let p = participant(from: property) { item.attendees.append(p); return true }
        case "RRULE":
            if case .recurrence(let rule) = value, property.parameters.isEmpty { item.recurrenceRules.append(rule); return true }
        case "RDATE", "EXDATE":
            var list = CalendarItem.DateList(extraParameters: property.parameters)
            switch value {
            case .dateTimes(let d): list.dates = d
            case .periods(let p) where property.name == "RDATE": list.periods = p
            default: return false
            }
            if property.name == "RDATE" { item.recurrenceDates.append(list) } else { item.exceptionDates.append(list) }
            return true
        case "X-APPLE-STRUCTURED-LOCATION":
            if item.structuredLocation == nil, let loc = structuredLocation(from: property) { item.structuredLocation = loc; return true }
        default: break
        }
        if taken { keepParameters(property, in: &item) }
        return taken
    }

    private func finishItem(_ item: inout CalendarItem, leftovers: [Property], components: [Component]) {
        item.properties = leftovers
        for child in components {
            if child.name == "VALARM" {
                item.alarms.append(alarm(from: child))
            } else {
                item.components.append(child)
            }
        }
    }

    // MARK: - Values

    func singleText(_ value: PropertyValue) -> String? {
        if case .text(let t) = value, t.count == 1 { return t[0] }
        return nil
    }

    func singleDate(_ value: PropertyValue) -> CalendarDateTime? {
        if case .dateTimes(let d) = value, d.count == 1 { return d[0] }
        return nil
    }

    /// Records the parameters of a property whose value went into a typed field.
    func keepParameters(_ property: Property, in item: inout CalendarItem) {
        if !property.parameters.isEmpty { item.propertyParameters[property.name] = property.parameters }
    }

    static func status(_ word: String) -> CalendarItem.Status {
        switch word.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? word.uppercased() : word {
        case "TENTATIVE": .tentative
        case "CONFIRMED": .confirmed
        case "CANCELLED": .cancelled
        case "NEEDS-ACTION": .needsAction
        case "COMPLETED": .completed
        case "IN-PROCESS": .inProcess
        case "DRAFT": .draft
        case "FINAL": .final
        default: .other(word)
        }
    }

    static func word(_ status: CalendarItem.Status) -> String {
        switch status {
        case .tentative: "TENTATIVE"
        case .confirmed: "CONFIRMED"
        case .cancelled: "CANCELLED"
        case .needsAction: "NEEDS-ACTION"
        case .completed: "COMPLETED"
        case .inProcess: "IN-PROCESS"
        case .draft: "DRAFT"
        case .final: "FINAL"
        case .other(let w): w
        }
    }

    static func classification(_ word: String) -> CalendarItem.Classification {
        switch word.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? word.uppercased() : word {
        case "PUBLIC": .public
        case "PRIVATE": .private
        case "CONFIDENTIAL": .confidential
        default: .other(word)
        }
    }

    static func word(_ c: CalendarItem.Classification) -> String {
        switch c {
        case .public: "PUBLIC"
        case .private: "PRIVATE"
        case .confidential: "CONFIDENTIAL"
        case .other(let w): w
        }
    }
}
