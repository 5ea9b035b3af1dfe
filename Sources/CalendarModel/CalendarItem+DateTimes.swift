extension CalendarItem {
    /// Calls `transform` on every date-time the shared item fields hold — start, RECURRENCE-ID,
    /// RDATE, EXDATE, RRULE UNTIL, absolute alarm triggers, CREATED, LAST-MODIFIED, DTSTAMP and
    /// date-times in properties and sub-components the model keeps as-is — and stores the result.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        func map(_ field: DateTimeField, _ value: inout CalendarDateTime?) {
            guard var v = value else { return }
            transform(field, &v)
            value = v
        }
        map(.start, &start)
        map(.recurrenceID, &recurrenceID)
        map(.created, &created)
        map(.lastModified, &lastModified)
        map(.timestamp, &timestamp)
        for i in recurrenceDates.indices {
            for j in recurrenceDates[i].dates.indices { transform(.recurrenceDate, &recurrenceDates[i].dates[j]) }
            for j in recurrenceDates[i].periods.indices {
                transform(.recurrenceDate, &recurrenceDates[i].periods[j].start)
                if case .end(var end) = recurrenceDates[i].periods[j].extent {
                    transform(.recurrenceDatePeriodEnd, &end)
                    recurrenceDates[i].periods[j].extent = .end(end)
                }
            }
        }
        for i in exceptionDates.indices {
            for j in exceptionDates[i].dates.indices { transform(.exceptionDate, &exceptionDates[i].dates[j]) }
        }
        for i in recurrenceRules.indices {
            if case .until(var until) = recurrenceRules[i].end {
                transform(.recurrenceUntil, &until)
                recurrenceRules[i].end = .until(until)
            }
        }
        for i in alarms.indices {
            if case .absolute(var when) = alarms[i].trigger {
                transform(.alarmTrigger, &when)
                alarms[i].trigger = .absolute(when)
            }
        }
        // Only properties that hold date-times are touched, so arrays without any are not
        // copied (a mutating access would copy a shared buffer even when nothing changes).
        for i in properties.indices where properties[i].holdsDateTimes { properties[i].mapDateTimes(transform) }
        for i in components.indices where components[i].holdsDateTimes { components[i].mapDateTimes(transform) }
    }

    /// Calls `body` on every date-time `mapDateTimes` would visit, in the same order, without
    /// copying or changing anything.
    public func forEachDateTime(_ body: (DateTimeField, CalendarDateTime) -> Void) {
        if let start { body(.start, start) }
        if let recurrenceID { body(.recurrenceID, recurrenceID) }
        if let created { body(.created, created) }
        if let lastModified { body(.lastModified, lastModified) }
        if let timestamp { body(.timestamp, timestamp) }
        for list in recurrenceDates {
            for date in list.dates { body(.recurrenceDate, date) }
            for period in list.periods {
                body(.recurrenceDate, period.start)
                if case .end(let end) = period.extent { body(.recurrenceDatePeriodEnd, end) }
            }
        }
        for list in exceptionDates {
            for date in list.dates { body(.exceptionDate, date) }
        }
        for rule in recurrenceRules {
            if case .until(let until) = rule.end { body(.recurrenceUntil, until) }
        }
        for alarm in alarms {
            if case .absolute(let when) = alarm.trigger { body(.alarmTrigger, when) }
        }
        for property in properties where property.holdsDateTimes { property.forEachDateTime(body) }
        for component in components where component.holdsDateTimes { component.forEachDateTime(body) }
    }
}

extension Property {
    /// Whether the value is DATE, DATE-TIME or PERIOD.
    public var holdsDateTimes: Bool {
        switch value {
        case .dateTimes, .periods: true
        default: false
        }
    }

    /// Calls `body` on each DATE, DATE-TIME and PERIOD bound of the value.
    public func forEachDateTime(_ body: (DateTimeField, CalendarDateTime) -> Void) {
        let field = DateTimeField.property(name)
        switch value {
        case .dateTimes(let values):
            for v in values { body(field, v) }
        case .periods(let periods):
            for p in periods {
                body(field, p.start)
                if case .end(let end) = p.extent { body(field, end) }
            }
        default: break
        }
    }

    /// Rewrites the DATE, DATE-TIME and PERIOD values of this property.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        let field = DateTimeField.property(name)
        switch value {
        case .dateTimes(var values):
            for i in values.indices { transform(field, &values[i]) }
            value = .dateTimes(values)
        case .periods(var periods):
            for i in periods.indices {
                transform(field, &periods[i].start)
                if case .end(var end) = periods[i].extent {
                    transform(field, &end)
                    periods[i].extent = .end(end)
                }
            }
            value = .periods(periods)
        default: break
        }
    }
}

extension Component {
    /// Whether any property here or below holds a date-time.
    public var holdsDateTimes: Bool {
        properties.contains { $0.holdsDateTimes } || components.contains { $0.holdsDateTimes }
    }

    /// Rewrites the date-time values of this component's properties and sub-components.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        for i in properties.indices where properties[i].holdsDateTimes { properties[i].mapDateTimes(transform) }
        for i in components.indices where components[i].holdsDateTimes { components[i].mapDateTimes(transform) }
    }

    /// Calls `body` on the date-time values of this component's properties and sub-components.
    public func forEachDateTime(_ body: (DateTimeField, CalendarDateTime) -> Void) {
        for property in properties where property.holdsDateTimes { property.forEachDateTime(body) }
        for component in components where component.holdsDateTimes { component.forEachDateTime(body) }
    }
}
