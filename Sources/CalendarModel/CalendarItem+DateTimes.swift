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
        for i in properties.indices { properties[i].mapDateTimes(transform) }
        for i in components.indices { components[i].mapDateTimes(transform) }
    }

    /// Calls `body` on every date-time `mapDateTimes` would visit, without changing anything.
    public func forEachDateTime(_ body: (DateTimeField, CalendarDateTime) -> Void) {
        var copy = self
        copy.mapDateTimes { field, value in body(field, value) }
    }
}

extension Property {
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
    /// Rewrites the date-time values of this component's properties and sub-components.
    public mutating func mapDateTimes(_ transform: (DateTimeField, inout CalendarDateTime) -> Void) {
        for i in properties.indices { properties[i].mapDateTimes(transform) }
        for i in components.indices { components[i].mapDateTimes(transform) }
    }
}
