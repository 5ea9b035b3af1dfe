/// What events and reminders share: EventKit's `EKCalendarItem`, with the iCalendar properties
/// every item can carry.
public struct CalendarItem: Hashable, Sendable, CopyOnWriteFields {
    /// Item status (RFC 5545 STATUS), covering events and to-dos.
    public enum Status: Hashable, Sendable {
        case tentative, confirmed, cancelled, needsAction, completed, inProcess, draft, final
        case other(String)
    }

    /// Access classification (CLASS): EventKit's privacy.
    public enum Classification: Hashable, Sendable {
        case `public`, `private`, confidential
        case other(String)
    }

    /// A group of dates from one RDATE or EXDATE property.
    public struct DateList: Hashable, Sendable {
        public var dates: [CalendarDateTime]
        /// RDATE may list periods instead of dates.
        public var periods: [CalendarPeriod]
        public var extraParameters: [Parameter]

        public init(dates: [CalendarDateTime] = [], periods: [CalendarPeriod] = [], extraParameters: [Parameter] = []) {
            self.dates = dates
            self.periods = periods
            self.extraParameters = extraParameters
        }
    }

    /// The stored fields, boxed so that copies share them (see `CopyOnWriteBox`): an item is
    /// read whole by every stage and writer, and a copy held inline retains each of its strings
    /// and arrays, which a read through an event's box cannot avoid.
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var uid: String? = nil
        @usableFromInline var title: String? = nil
        @usableFromInline var start: CalendarDateTime? = nil
        @usableFromInline var location: String? = nil
        @usableFromInline var structuredLocation: StructuredLocation? = nil
        @usableFromInline var geo: GeoCoordinate? = nil
        @usableFromInline var notes: String? = nil
        @usableFromInline var url: String? = nil
        @usableFromInline var status: Status? = nil
        @usableFromInline var classification: Classification? = nil
        @usableFromInline var priority: Int? = nil
        @usableFromInline var categories: [[String]] = []
        @usableFromInline var organizer: Participant? = nil
        @usableFromInline var attendees: [Participant] = []
        @usableFromInline var alarms: [Alarm] = []
        @usableFromInline var recurrenceRules: [RecurrenceRule] = []
        @usableFromInline var recurrenceDates: [DateList] = []
        @usableFromInline var exceptionDates: [DateList] = []
        @usableFromInline var recurrenceID: CalendarDateTime? = nil
        @usableFromInline var recurrenceAppliesToFuture: Bool = false
        @usableFromInline var sequence: Int? = nil
        @usableFromInline var created: CalendarDateTime? = nil
        @usableFromInline var lastModified: CalendarDateTime? = nil
        @usableFromInline var timestamp: CalendarDateTime? = nil
        @usableFromInline var properties: [Property] = []
        @usableFromInline var components: [Component] = []
        @usableFromInline var propertyParameters: [String: [Parameter]] = [:]
    }

    @usableFromInline
    var storage: CopyOnWriteBox<Fields>

    @inlinable public var uid: String? { _read { yield fields.uid } _modify { yield &fields.uid } }
    @inlinable public var title: String? { _read { yield fields.title } _modify { yield &fields.title } }
    @inlinable public var start: CalendarDateTime? { _read { yield fields.start } _modify { yield &fields.start } }
    @inlinable public var location: String? { _read { yield fields.location } _modify { yield &fields.location } }
    @inlinable public var structuredLocation: StructuredLocation? {
        _read { yield fields.structuredLocation }
        _modify { yield &fields.structuredLocation }
    }
    /// GEO: the item's coordinates.
    @inlinable public var geo: GeoCoordinate? { _read { yield fields.geo } _modify { yield &fields.geo } }
    /// DESCRIPTION.
    @inlinable public var notes: String? { _read { yield fields.notes } _modify { yield &fields.notes } }
    @inlinable public var url: String? { _read { yield fields.url } _modify { yield &fields.url } }
    @inlinable public var status: Status? { _read { yield fields.status } _modify { yield &fields.status } }
    @inlinable public var classification: Classification? { _read { yield fields.classification } _modify { yield &fields.classification } }
    @inlinable public var priority: Int? { _read { yield fields.priority } _modify { yield &fields.priority } }
    @inlinable public var categories: [[String]] { _read { yield fields.categories } _modify { yield &fields.categories } }
    @inlinable public var organizer: Participant? { _read { yield fields.organizer } _modify { yield &fields.organizer } }
    @inlinable public var attendees: [Participant] { _read { yield fields.attendees } _modify { yield &fields.attendees } }
    @inlinable public var alarms: [Alarm] { _read { yield fields.alarms } _modify { yield &fields.alarms } }
    @inlinable public var recurrenceRules: [RecurrenceRule] {
        _read { yield fields.recurrenceRules }
        _modify { yield &fields.recurrenceRules }
    }
    @inlinable public var recurrenceDates: [DateList] { _read { yield fields.recurrenceDates } _modify { yield &fields.recurrenceDates } }
    @inlinable public var exceptionDates: [DateList] { _read { yield fields.exceptionDates } _modify { yield &fields.exceptionDates } }
    /// For a detached occurrence: the original start it replaces.
    @inlinable public var recurrenceID: CalendarDateTime? { _read { yield fields.recurrenceID } _modify { yield &fields.recurrenceID } }
    /// RANGE=THISANDFUTURE on the RECURRENCE-ID.
    @inlinable public var recurrenceAppliesToFuture: Bool {
        _read { yield fields.recurrenceAppliesToFuture }
        _modify { yield &fields.recurrenceAppliesToFuture }
    }
    @inlinable public var sequence: Int? { _read { yield fields.sequence } _modify { yield &fields.sequence } }
    @inlinable public var created: CalendarDateTime? { _read { yield fields.created } _modify { yield &fields.created } }
    @inlinable public var lastModified: CalendarDateTime? { _read { yield fields.lastModified } _modify { yield &fields.lastModified } }
    /// DTSTAMP.
    @inlinable public var timestamp: CalendarDateTime? { _read { yield fields.timestamp } _modify { yield &fields.timestamp } }
    /// Every property the model does not hold, in source order.
    @inlinable public var properties: [Property] { _read { yield fields.properties } _modify { yield &fields.properties } }
    /// Sub-components other than alarms, in source order.
    @inlinable public var components: [Component] { _read { yield fields.components } _modify { yield &fields.components } }
    /// Parameters of typed properties that the typed fields cannot hold, by property name.
    @inlinable public var propertyParameters: [String: [Parameter]] {
        _read { yield fields.propertyParameters }
        _modify { yield &fields.propertyParameters }
    }

    public init(uid: String? = nil, title: String? = nil, start: CalendarDateTime? = nil) {
        storage = CopyOnWriteBox(Fields(uid: uid, title: title, start: start))
    }


    /// The zone identifier of the start, as the source spelled it.
    public var timeZone: String? { start?.reference.zoneIdentifier }

    /// Whether the item repeats.
    public var hasRecurrenceRules: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }

    /// EventKit's structured location: the explicit one, else one made from LOCATION and GEO.
    public var effectiveStructuredLocation: StructuredLocation? {
        if let structuredLocation { return structuredLocation }
        guard let geo else { return nil }
        return StructuredLocation(title: location, latitude: geo.latitude, longitude: geo.longitude)
    }

    /// All categories, flattened.
    public var allCategories: [String] { categories.flatMap { $0 } }
}
