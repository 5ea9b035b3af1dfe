import CalendarModel

extension ICalendarMapper {
    /// Builds the typed entry of a VEVENT or VTODO one property at a time, in source order:
    /// `entry(from:)` feeds it a whole component, and the ICS reader each property as it decodes
    /// it, with the id it looked up already, so that no component tree is built, copied and freed
    /// for the typed entries.
    ///
    /// A reader keeps one builder and `begin`s each entry on it: making a builder (a copy of the
    /// mapper, a struct of a few hundred bytes) per component cost more than a small item's
    /// properties.
    public struct ItemBuilder {
        private let mapper: ICalendarMapper
        private var isEvent = true
        private var item = ItemBuilder.idleItem
        /// DTEND of an event, DUE of a to-do.
        private var end: CalendarDateTime?
        private var duration: CalendarDuration?
        private var transparency: String?
        private var completionDate: CalendarDateTime?
        private var percentComplete: Int?

        /// What an idle builder holds, so that the item handed out is not shared with it (a
        /// shared item's box would be copied at its next change). Never changed.
        private static let idleItem = CalendarItem()

        /// A builder for a top-level component called `componentName`; nil unless it is a VEVENT
        /// or a VTODO (the other components stay generic trees).
        public init?(mapper: ICalendarMapper, componentName: String) {
            self.init(mapper: mapper)
            guard begin(componentName: componentName) else { return nil }
        }

        /// An idle builder, for `begin(componentName:)`.
        public init(mapper: ICalendarMapper) {
            self.mapper = mapper
        }

        /// Starts the entry of a top-level component called `componentName`; false (the builder
        /// staying idle) unless it is a VEVENT or a VTODO.
        public mutating func begin(componentName: String) -> Bool {
            switch componentName {
            case "VEVENT": isEvent = true
            case "VTODO": isEvent = false
            default: return false
            }
            item = CalendarItem()
            end = nil
            duration = nil
            transparency = nil
            completionDate = nil
            percentComplete = nil
            return true
        }

        /// Puts a property of the component into its typed field, or keeps it as a generic one.
        public mutating func add(_ property: __owned Property, id: PropertyID) {
            // Unknown properties (X-…, most of the rest) have no field: not worth a look.
            if id != .other, let value = ScalarValue(property.value), fill(value, id: id) {
                mapper.keepParameters(property, in: &item)
                return
            }
            addUnfilled(property, id: id)
        }

        /// Puts a single-valued property into its typed field as `add(_:id:)` does with the same
        /// value in a `Property`; the reader calls it for the properties most items are made of,
        /// and only a property the fields do not take is made into a `Property` (no value array,
        /// no `Property` built and freed for the others).
        public mutating func add(_ value: __owned ScalarValue, name: String, parameters: __owned [Parameter], id: PropertyID) {
            if fill(value, id: id) {
                if !parameters.isEmpty { item.propertyParameters[name] = parameters }
                return
            }
            addUnfilled(Property(name: name, parameters: parameters, value: value.propertyValue), id: id)
        }

        /// A property whose value no single-valued field took (see `fill`): into one of the other
        /// typed fields, or kept as a generic one.
        private mutating func addUnfilled(_ property: __owned Property, id: PropertyID) {
            if mapper.fillItem(&item, with: property, id: id) { return }
            if id == .duration, duration == nil, case .duration(let d) = property.value {
                duration = d
                mapper.keepParameters(property, in: &item)
            } else {
                item.properties.append(property)
            }
        }

        /// Whether the single-valued field of `id` was free and took the value. RECURRENCE-ID is
        /// not among them: its RANGE parameter is read by `fillItem`.
        private mutating func fill(_ value: ScalarValue, id: PropertyID) -> Bool {
            switch value {
            case .text(let t):
                switch id {
                case .uid where item.uid == nil: item.uid = t
                case .summary where item.title == nil: item.title = t
                case .location where item.location == nil: item.location = t
                case .description where item.notes == nil: item.notes = t
                case .status where item.status == nil: item.status = ICalendarMapper.status(t)
                case .classification where item.classification == nil: item.classification = ICalendarMapper.classification(t)
                case .transp where isEvent && transparency == nil: transparency = t
                default: return false
                }
            case .date(let d):
                switch id {
                case .dtstart where item.start == nil: item.start = d
                case .created where item.created == nil: item.created = d
                case .lastModified where item.lastModified == nil: item.lastModified = d
                case .dtstamp where item.timestamp == nil: item.timestamp = d
                case .dtend where isEvent && end == nil, .due where !isEvent && end == nil: end = d
                case .completed where !isEvent && completionDate == nil: completionDate = d
                default: return false
                }
            case .integer(let n):
                switch id {
                case .priority where item.priority == nil: item.priority = n
                case .sequence where item.sequence == nil: item.sequence = n
                case .percentComplete where !isEvent && percentComplete == nil: percentComplete = n
                default: return false
                }
            }
            return true
        }

        /// Adds a sub-component: an alarm when it is a VALARM, else a generic component.
        public mutating func add(_ component: __owned Component) {
            if component.name == "VALARM" {
                item.alarms.append(mapper.alarm(from: component))
            } else {
                item.components.append(component)
            }
        }

        /// The entry built; the builder is idle after it.
        public mutating func finish() -> CalendarEntry {
            var built = Self.idleItem
            swap(&built, &item)
            if isEvent {
                var event = Event(item: built)
                event.end = end
                event.duration = duration
                event.transparency = transparency
                return .event(event)
            }
            var reminder = Reminder(item: built)
            reminder.due = end
            reminder.duration = duration
            reminder.completionDate = completionDate
            reminder.percentComplete = percentComplete
            return .reminder(reminder)
        }
    }

    /// One TEXT, DATE or DATE-TIME, or INTEGER value, as a reader decodes it for
    /// `ItemBuilder.add(_:name:parameters:id:)` without making a `PropertyValue` first.
    public enum ScalarValue {
        case text(String)
        case date(CalendarDateTime)
        case integer(Int)

        /// The single TEXT, DATE or DATE-TIME, or INTEGER a property value holds; nil for any
        /// other value.
        @inline(__always)
        public init?(_ value: borrowing PropertyValue) {
            switch value {
            case .text(let t): guard t.count == 1 else { return nil }; self = .text(t[0])
            case .dateTimes(let d): guard d.count == 1 else { return nil }; self = .date(d[0])
            case .integer(let n): guard n.count == 1 else { return nil }; self = .integer(n[0])
            default: return nil
            }
        }

        /// The same value as a property value.
        public var propertyValue: PropertyValue {
            switch self {
            case .text(let t): .text([t])
            case .date(let d): .dateTimes([d])
            case .integer(let n): .integer([n])
            }
        }
    }

    /// The typed entry of a VEVENT or VTODO; nil for any other component.
    func item(from component: Component) -> CalendarEntry? {
        guard var builder = ItemBuilder(mapper: self, componentName: component.name) else { return nil }
        for property in component.properties { builder.add(property, id: PropertyTable.info(property.name).id) }
        for child in component.components { builder.add(child) }
        return builder.finish()
    }

    // MARK: - Shared item fields

    /// Puts a property into its typed field when the field is free; returns whether it did.
    /// The single TEXT, date and INTEGER fields are `ItemBuilder.fill`'s.
    fileprivate func fillItem(_ item: inout CalendarItem, with property: Property, id: PropertyID) -> Bool {
        var taken = false
        switch id {
        case .url: if item.url == nil, case .uri(let u) = property.value { item.url = u; taken = true }
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
