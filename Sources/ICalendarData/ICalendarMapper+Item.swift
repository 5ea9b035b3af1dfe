import CalendarModel

extension ICalendarMapper {
    /// Parameters the typed fields of date-time properties hold themselves.
    private static let rangeParameter = "RANGE"

    func event(from component: Component) -> Event {
        var event = Event()
        var rest: [Property] = []
        for property in component.properties {
            let id = PropertyTable.info(property.name).id
            if fillItem(&event.item, with: property, id: id) { continue }
            var taken = false
            switch id {
            case .dtend:
                if event.end == nil, let d = singleDate(property.value) {
                    event.end = d
                    taken = true
                }
            case .duration:
                if event.duration == nil, case .duration(let d) = property.value {
                    event.duration = d
                    taken = true
                }
            case .transp:
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
            let id = PropertyTable.info(property.name).id
            if fillItem(&reminder.item, with: property, id: id) { continue }
            var taken = false
            switch id {
            case .due:
                if reminder.due == nil, let d = singleDate(property.value) {
                    reminder.due = d
                    taken = true
                }
            case .duration:
                if reminder.duration == nil, case .duration(let d) = property.value {
                    reminder.duration = d
                    taken = true
                }
            case .completed:
                if reminder.completionDate == nil, let d = singleDate(property.value) {
                    reminder.completionDate = d
                    taken = true
                }
            case .percentComplete:
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
    private func fillItem(_ item: inout CalendarItem, with property: Property, id: PropertyID) -> Bool {
        var taken = false
        switch id {
        case .uid: if item.uid == nil, let t = singleText(property.value) { item.uid = t; taken = true }
        case .summary: if item.title == nil, let t = singleText(property.value) { item.title = t; taken = true }
        case .dtstart: if item.start == nil, let d = singleDate(property.value) { item.start = d; taken = true }
        case .location: if item.location == nil, let t = singleText(property.value) { item.location = t; taken = true }
        case .description: if item.notes == nil, let t = singleText(property.value) { item.notes = t; taken = true }
        case .url: if item.url == nil, case .uri(let u) = property.value { item.url = u; taken = true }
        case .status: if item.status == nil, let t = singleText(property.value) { item.status = Self.status(t); taken = true }
        case .classification:
            if item.classification == nil, let t = singleText(property.value) { item.classification = Self.classification(t); taken = true }
        case .priority: if item.priority == nil, case .integer(let n) = property.value, n.count == 1 { item.priority = n[0]; taken = true }
        case .sequence: if item.sequence == nil, case .integer(let n) = property.value, n.count == 1 { item.sequence = n[0]; taken = true }
        case .created: if item.created == nil, let d = singleDate(property.value) { item.created = d; taken = true }
        case .lastModified: if item.lastModified == nil, let d = singleDate(property.value) { item.lastModified = d; taken = true }
        case .dtstamp: if item.timestamp == nil, let d = singleDate(property.value) { item.timestamp = d; taken = true }
        case .geo:
            if item.geo == nil, case .geo(let lat, let lon) = property.value {
                item.geo = GeoCoordinate(latitude: lat, longitude: lon)
                taken = true
            }
        case .recurrenceID:
            if item.recurrenceID == nil, let d = singleDate(property.value) {
                item.recurrenceID = d
                let range = property.parameter("RANGE")?.value.uppercased()
                if range == "THISANDFUTURE" { item.recurrenceAppliesToFuture = true }
                var p = property
                p.parameters.removeAll { $0.name == "RANGE" && range == "THISANDFUTURE" }
                keepParameters(p, in: &item)
                return true
            }
        case .categories:
            if case .text(let list) = property.value, property.parameters.isEmpty {
                item.categories.append(list)
                return true
            }
        case .organizer:
            if item.organizer == nil, let p = participant(from: property) { item.organizer = p; return true }
        case .attendee:
            if let p = participant(from: property) { item.attendees.append(p); return true }
        case .rrule:
            if case .recurrence(let rule) = property.value, property.parameters.isEmpty { item.recurrenceRules.append(rule); return true }
        case .rdate, .exdate:
            var list = CalendarItem.DateList(extraParameters: property.parameters)
            switch property.value {
            case .dateTimes(let d): list.dates = d
            case .periods(let p) where id == .rdate: list.periods = p
            default: return false
            }
            if id == .rdate { item.recurrenceDates.append(list) } else { item.exceptionDates.append(list) }
            return true
        case .structuredLocation:
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
