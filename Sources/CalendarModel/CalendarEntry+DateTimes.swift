extension Event {
    /// Calls `transform` on every date-time of the event: the shared item fields and DTEND.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        item.mapDateTimes(transform)
        if var value = end {
            transform(.end, &value)
            end = value
        }
    }
}

extension Reminder {
    /// Calls `transform` on every date-time of the to-do: the shared item fields, DUE and COMPLETED.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        item.mapDateTimes(transform)
        if var value = due {
            transform(.due, &value)
            due = value
        }
        if var value = completionDate {
            transform(.completed, &value)
            completionDate = value
        }
    }
}

extension CalendarEntry {
    /// Calls `transform` on every date-time of an event, a to-do or a component kept as-is
    /// (VJOURNAL, VFREEBUSY, …); a VTIMEZONE is left alone, since its date-times are local
    /// times of its own observances.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        // Each case first takes its payload out of `self`, so the payload's arrays are not
        // shared while they change (sharing would copy every array that holds a date-time).
        switch self {
        case .event(var event):
            self = .other(Component(name: ""))
            event.mapDateTimes(transform)
            self = .event(event)
        case .reminder(var reminder):
            self = .other(Component(name: ""))
            reminder.mapDateTimes(transform)
            self = .reminder(reminder)
        case .other(var component):
            self = .other(Component(name: ""))
            component.mapDateTimes(transform)
            self = .other(component)
        case .timeZone:
            break
        }
    }

    /// Calls `body` on every date-time `mapDateTimes` would visit, without changing anything.
    public func forEachDateTime(_ body: (DateTimeField, CalendarDateTime) -> Void) {
        switch self {
        case .event(let event):
            event.item.forEachDateTime(body)
            if let end = event.end { body(.end, end) }
        case .reminder(let reminder):
            reminder.item.forEachDateTime(body)
            if let due = reminder.due { body(.due, due) }
            if let completed = reminder.completionDate { body(.completed, completed) }
        case .other(let component):
            component.forEachDateTime(body)
        case .timeZone:
            break
        }
    }
}
