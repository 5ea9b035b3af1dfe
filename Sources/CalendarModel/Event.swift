/// An event (VEVENT): EventKit's `EKEvent`. Shared item fields are reached through `item`
/// or directly, as `event.title`.
@dynamicMemberLookup
public struct Event: Hashable, Sendable {
    /// Free/busy as EventKit's `EKEventAvailability`.
    public enum Availability: Hashable, Sendable {
        case busy, free, tentative, unavailable
    }

    public var item: CalendarItem
    public var end: CalendarDateTime?
    public var duration: CalendarDuration?
    /// TRANSP: opaque (busy) or transparent (free).
    public var transparency: String?
    /// Free/busy beyond TRANSP (Microsoft's X-MICROSOFT-CDO-BUSYSTATUS), when the source said.
    public var busyStatus: Availability?
    /// Set when the event belongs to a birthday calendar's kind: whose date it recalls.
    public var birthday: Birthday?

    public init(item: CalendarItem = CalendarItem()) {
        self.item = item
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<CalendarItem, T>) -> T {
        get { item[keyPath: keyPath] }
        set { item[keyPath: keyPath] = newValue }
    }

    /// EventKit's `birthdayContactIdentifier`: the contact a birthday event comes from.
    public var birthdayContactIdentifier: String? { birthday?.contactIdentifier }

    /// Whether the event is all-day: its start is a DATE.
    public var isAllDay: Bool { item.start?.isDateOnly ?? false }

    /// EventKit's availability: the busy status when stated, else derived from TRANSP.
    public var availability: Availability {
        if let busyStatus { return busyStatus }
        return transparency?.uppercased() == "TRANSPARENT" ? .free : .busy
    }

    /// The end, from DTEND or DTSTART + DURATION (RFC 5545 §3.6.1), as wall time.
    public var effectiveEnd: CalendarDateTime? {
        if let end { return end }
        guard let start = item.start else { return nil }
        if let duration {
            if let days = duration.wholeDays {
                var e = start
                e.date = start.date.adding(days: days)
                return e
            }
            return start.withWallSeconds(start.wallSecondsSinceEpoch + duration.totalSeconds)
        }
        // A DATE start without end lasts one day; a DATE-TIME start, no time at all.
        if start.isDateOnly {
            var e = start
            e.date = start.date.adding(days: 1)
            return e
        }
        return start
    }
}
