import CalendarModel
import TimeZones

/// The zone of `--csv-tz`: CSV cells hold wall times without a zone, so naive times are read in
/// it, and zoned or UTC times are written as its wall time (through the TimeZones module's
/// current tz data), which is what Outlook and Google assume when they import the file.
final class CSVZoneConverter {
    /// The zone as the user named it (kept as the TZID of what is read).
    let name: String
    /// The IANA zone it resolves to.
    let zoneID: String
    private let resolver: TimeZoneResolver

    /// Resolves `name` (an IANA id, an alias or a Windows name); a usage error when nothing matches.
    init(name: String, place: String, resolver: TimeZoneResolver = TimeZoneResolver()) throws {
        guard let id = resolver.resolveName(name).zoneID, resolver.database.zone(id) != nil else {
            throw CalendarError(.usage, file: place, "unknown time zone '\(name)' for --csv-tz (expected an IANA id such as Europe/Berlin, or a Windows name)")
        }
        self.name = name
        self.zoneID = id
        self.resolver = resolver
    }

    /// The value as wall time in this zone; floating values and dates stay as they are. Nil when
    /// the value's own zone cannot be resolved.
    func wallTime(_ value: CalendarDateTime) -> CalendarDateTime? {
        guard !value.isDateOnly else { return value }
        let utc: Int
        switch value.reference {
        case .floating: return value
        case .utc: utc = value.wallSecondsSinceEpoch
        case .zone(let id):
            guard let zone = resolver.resolveName(id).zoneID, let instant = resolver.database.utcSeconds(zone: zone, wallSeconds: value.wallSecondsSinceEpoch) else {
                return nil
            }
            utc = instant
        }
        guard let offset = resolver.database.offset(zone: zoneID, utcSeconds: utc) else { return nil }
        var result = value.withWallSeconds(utc + offset)
        result.reference = .zone(name)
        return result
    }

    /// The event with its start, end and absolute alarms as wall times in this zone; nil when a
    /// zone of the event cannot be resolved.
    func converted(_ event: Event) -> Event? {
        guard !event.isAllDay, let start = event.start, let newStart = wallTime(start) else { return event.isAllDay ? event : nil }
        var e = event
        let end = event.effectiveEnd
        e.start = newStart
        e.duration = nil
        e.end = end.flatMap(wallTime)
        if end != nil && e.end == nil { return nil }
        e.item.alarms = event.alarms.map { alarm in
            var a = alarm
            if case .absolute(let at)? = alarm.trigger, let wall = wallTime(at) { a.trigger = .absolute(wall) }
            return a
        }
        return e
    }
}
