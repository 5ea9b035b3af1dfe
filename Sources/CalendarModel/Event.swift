/// An event (VEVENT): EventKit's `EKEvent`. Shared item fields are reached through `item`
/// or directly, as `event.title`.
@dynamicMemberLookup
public struct Event: Hashable, Sendable, CopyOnWriteFields {
    /// Free/busy as EventKit's `EKEventAvailability`.
    public enum Availability: Hashable, Sendable {
        case busy, free, tentative, unavailable
    }

    /// The stored fields, boxed so that copies share them (see `CopyOnWriteBox`).
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var item: CalendarItem
        @usableFromInline var end: CalendarDateTime?
        @usableFromInline var duration: CalendarDuration?
        @usableFromInline var transparency: String?
        @usableFromInline var busyStatus: Availability?
        @usableFromInline var birthday: Birthday?
    }

    @usableFromInline
    var storage: CopyOnWriteBox<Fields>

    @inlinable public var item: CalendarItem { _read { yield fields.item } _modify { yield &fields.item } }
    @inlinable public var end: CalendarDateTime? { _read { yield fields.end } _modify { yield &fields.end } }
    @inlinable public var duration: CalendarDuration? { _read { yield fields.duration } _modify { yield &fields.duration } }
    /// TRANSP: opaque (busy) or transparent (free).
    @inlinable public var transparency: String? { _read { yield fields.transparency } _modify { yield &fields.transparency } }
    /// Free/busy beyond TRANSP (Microsoft's X-MICROSOFT-CDO-BUSYSTATUS), when the source said.
    @inlinable public var busyStatus: Availability? { _read { yield fields.busyStatus } _modify { yield &fields.busyStatus } }
    /// Set when the event belongs to a birthday calendar's kind: whose date it recalls.
    @inlinable public var birthday: Birthday? { _read { yield fields.birthday } _modify { yield &fields.birthday } }

    public init(item: CalendarItem = CalendarItem()) {
        storage = CopyOnWriteBox(Fields(item: item))
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
