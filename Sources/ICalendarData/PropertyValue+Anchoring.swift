import CalendarModel

extension PropertyValue {
    /// Puts every floating date-time of the value into `zone`, as a TZID parameter does
    /// (RFC 5545 §3.2.19). Returns false, changing nothing, when the value holds something a
    /// zone cannot anchor (dates, UTC times, no values at all); the TZID then stays a parameter.
    public mutating func anchor(inZone zone: String) -> Bool {
        func anchorable(_ d: CalendarDateTime) -> Bool { !d.isDateOnly && d.reference == .floating }
        switch self {
        case .dateTimes(var dates) where !dates.isEmpty && dates.allSatisfy(anchorable):
            // Let go of the payload first so the array is unique and changes in place.
            self = .boolean(false)
            for i in dates.indices { dates[i].reference = .zone(zone) }
            self = .dateTimes(dates)
            return true
        case .periods(var periods) where !periods.isEmpty:
            let ok = periods.allSatisfy { p in
                guard anchorable(p.start) else { return false }
                if case .end(let e) = p.extent { return anchorable(e) }
                return true
            }
            guard ok else { return false }
            self = .boolean(false)
            for i in periods.indices {
                periods[i].start.reference = .zone(zone)
                if case .end(var e) = periods[i].extent {
                    e.reference = .zone(zone)
                    periods[i].extent = .end(e)
                }
            }
            self = .periods(periods)
            return true
        default:
            return false
        }
    }

    /// Takes the zone of a property's TZID parameter into the value (RFC 5545 §3.2.19) and
    /// removes the parameter, when exactly one TZID names one zone and `anchor(inZone:)` takes
    /// it; otherwise value and parameters stay as they are. ICS, jCal and xCal read TZID so.
    public mutating func anchor(inZoneOf parameters: inout [Parameter]) {
        guard let index = Self.soleZone(in: parameters), anchor(inZone: parameters[index].values[0]) else { return }
        parameters.remove(at: index)
    }

    /// The index of the only TZID parameter when it holds one value; nil when there is none,
    /// or two (they name no one zone: both stay parameters).
    static func soleZone(in parameters: [Parameter]) -> Int? {
        var found: Int?
        // The length test first keeps most other names from reaching a String comparison.
        for i in parameters.indices where parameters[i].name.utf8.count == 4 && parameters[i].name == "TZID" {
            guard found == nil else { return nil }
            found = i
        }
        guard let index = found, parameters[index].values.count == 1 else { return nil }
        return index
    }
}

extension CalendarDateTime {
    /// `PropertyValue.anchor(inZoneOf:)` for a single date-time: the same rule without a value
    /// array around it.
    public mutating func anchor(inZoneOf parameters: inout [Parameter]) {
        guard let index = PropertyValue.soleZone(in: parameters), !isDateOnly, case .floating = reference else { return }
        reference = .zone(parameters[index].values[0])
        parameters.remove(at: index)
    }
}
