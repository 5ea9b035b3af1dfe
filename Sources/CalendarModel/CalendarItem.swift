/// What events and reminders share: EventKit's `EKCalendarItem`, with the iCalendar properties
/// every item can carry.
public struct CalendarItem: Hashable, Sendable {
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

    public var uid: String?
    public var title: String?
    public var start: CalendarDateTime?
    public var location: String?
    public var structuredLocation: StructuredLocation?
    /// GEO: the item's coordinates.
    public var geo: GeoCoordinate?
    /// DESCRIPTION.
    public var notes: String?
    public var url: String?
    public var status: Status?
    public var classification: Classification?
    public var priority: Int?
    public var categories: [[String]]
    public var organizer: Participant?
    public var attendees: [Participant]
    public var alarms: [Alarm]
    public var recurrenceRules: [RecurrenceRule]
    public var recurrenceDates: [DateList]
    public var exceptionDates: [DateList]
    /// For a detached occurrence: the original start it replaces.
    public var recurrenceID: CalendarDateTime?
    /// RANGE=THISANDFUTURE on the RECURRENCE-ID.
    public var recurrenceAppliesToFuture: Bool
    public var sequence: Int?
    public var created: CalendarDateTime?
    public var lastModified: CalendarDateTime?
    /// DTSTAMP.
    public var timestamp: CalendarDateTime?
    /// Every property the model does not hold, in source order.
    public var properties: [Property]
    /// Sub-components other than alarms, in source order.
    public var components: [Component]
    /// Parameters of typed properties that the typed fields cannot hold, by property name.
    public var propertyParameters: [String: [Parameter]]

    public init(uid: String? = nil, title: String? = nil, start: CalendarDateTime? = nil) {
        self.uid = uid
        self.title = title
        self.start = start
        self.categories = []
        self.attendees = []
        self.alarms = []
        self.recurrenceRules = []
        self.recurrenceDates = []
        self.exceptionDates = []
        self.recurrenceAppliesToFuture = false
        self.properties = []
        self.components = []
        self.propertyParameters = [:]
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
