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

    func component(from event: Event) -> Component {
        var properties = itemHead(event.item)
        if let end = event.end { properties.append(dateProperty("DTEND", end, event.item)) }
        if let duration = event.duration { properties.append(typed("DURATION", .duration(duration), event.item)) }
        if let t = event.transparency { properties.append(typed("TRANSP", .text([t]), event.item)) }
        properties += itemTail(event.item)
        // A birthday that came from a format without vendor marks gets some, so that reading
        // the output back (here or in a sabre/dav server) knows it is a birthday again.
        if let birthday = event.birthday, !BirthdayMarks.hasMarks(event.item) {
            properties += BirthdayMarks.marks(for: birthday, startYear: event.item.start?.date.year)
        }
        return Component(name: "VEVENT", properties: properties, components: itemComponents(event.item))
    }

    func component(from reminder: Reminder) -> Component {
        var properties = itemHead(reminder.item)
        if let due = reminder.due { properties.append(dateProperty("DUE", due, reminder.item)) }
        if let duration = reminder.duration { properties.append(typed("DURATION", .duration(duration), reminder.item)) }
        if let c = reminder.completionDate { properties.append(dateProperty("COMPLETED", c, reminder.item)) }
        if let p = reminder.percentComplete { properties.append(typed("PERCENT-COMPLETE", .integer([p]), reminder.item)) }
        properties += itemTail(reminder.item)
        return Component(name: "VTODO", properties: properties, components: itemComponents(reminder.item))
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

    /// The typed properties that open a component, in a stable order.
    private func itemHead(_ item: CalendarItem) -> [Property] {
        var out: [Property] = []
        if let uid = item.uid { out.append(typed("UID", .text([uid]), item)) }
        if let stamp = item.timestamp { out.append(dateProperty("DTSTAMP", stamp, item)) }
        if let start = item.start { out.append(dateProperty("DTSTART", start, item)) }
        return out
    }

    private func itemTail(_ item: CalendarItem) -> [Property] {
        var out: [Property] = []
        if let id = item.recurrenceID {
            var p = dateProperty("RECURRENCE-ID", id, item)
            if item.recurrenceAppliesToFuture { p.parameters.append(Parameter("RANGE", "THISANDFUTURE")) }
            out.append(p)
        }
        for rule in item.recurrenceRules { out.append(Property(name: "RRULE", value: .recurrence(rule))) }
        for list in item.recurrenceDates { out.append(dateListProperty("RDATE", list)) }
        for list in item.exceptionDates { out.append(dateListProperty("EXDATE", list)) }
        if let title = item.title { out.append(typed("SUMMARY", .text([title]), item)) }
        if let location = item.location { out.append(typed("LOCATION", .text([location]), item)) }
        if let geo = item.geo { out.append(typed("GEO", .geo(latitude: geo.latitude, longitude: geo.longitude), item)) }
        if let loc = item.structuredLocation { out.append(structuredLocationProperty(loc)) }
        if let notes = item.notes { out.append(typed("DESCRIPTION", .text([notes]), item)) }
        if let url = item.url { out.append(typed("URL", .uri(url), item)) }
        if let status = item.status { out.append(typed("STATUS", .text([Self.word(status)]), item)) }
        if let c = item.classification { out.append(typed("CLASS", .text([Self.word(c)]), item)) }
        if let p = item.priority { out.append(typed("PRIORITY", .integer([p]), item)) }
        for group in item.categories { out.append(Property(name: "CATEGORIES", value: .text(group))) }
        if let organizer = item.organizer { out.append(participantProperty("ORGANIZER", organizer)) }
        for attendee in item.attendees { out.append(participantProperty("ATTENDEE", attendee)) }
        if let s = item.sequence { out.append(typed("SEQUENCE", .integer([s]), item)) }
        if let c = item.created { out.append(dateProperty("CREATED", c, item)) }
        if let m = item.lastModified { out.append(dateProperty("LAST-MODIFIED", m, item)) }
        out += item.properties
        return out
    }

    private func itemComponents(_ item: CalendarItem) -> [Component] {
        item.alarms.map(component(from:)) + item.components
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

    /// A typed property with the parameters recorded for it.
    private func typed(_ name: String, _ value: PropertyValue, _ item: CalendarItem) -> Property {
        Property(name: name, parameters: item.propertyParameters[name] ?? [], value: value)
    }

    private func dateProperty(_ name: String, _ value: CalendarDateTime, _ item: CalendarItem) -> Property {
        typed(name, .dateTimes([value]), item)
    }

    private func dateListProperty(_ name: String, _ list: CalendarItem.DateList) -> Property {
        Property(name: name, parameters: list.extraParameters, value: list.periods.isEmpty ? .dateTimes(list.dates) : .periods(list.periods))
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
