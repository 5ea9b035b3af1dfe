import CalendarModel

extension PropertyValue {
    /// Puts every floating date-time of the value into `zone`, as a TZID parameter does
    /// (RFC 5545 §3.2.19). Returns false, changing nothing, when the value holds something a
    /// zone cannot anchor (dates, UTC times, no values at all); the TZID then stays a parameter.
    public mutating func anchor(inZone zone: String) -> Bool {
        func anchorable(_ d: CalendarDateTime) -> Bool { !d.isDateOnly && d.reference == .floating }
        func anchored(_ d: CalendarDateTime) -> CalendarDateTime { CalendarDateTime(date: d.date, time: d.time, reference: .zone(zone)) }
        switch self {
        case .dateTimes(let dates) where !dates.isEmpty && dates.allSatisfy(anchorable):
            self = .dateTimes(dates.map(anchored))
            return true
        case .periods(let periods) where !periods.isEmpty:
            let ok = periods.allSatisfy { p in
                guard anchorable(p.start) else { return false }
                if case .end(let e) = p.extent { return anchorable(e) }
                return true
            }
            guard ok else { return false }
            self = .periods(
                periods.map { p in
                    var q = p
                    q.start = anchored(p.start)
                    if case .end(let e) = p.extent { q.extent = .end(anchored(e)) }
                    return q
                })
            return true
        default:
            return false
        }
    }
}
