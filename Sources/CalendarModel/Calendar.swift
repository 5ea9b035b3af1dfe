/// A calendar and what it says about itself (EventKit's `EKCalendar`); its items travel
/// separately, one at a time, so that no reader or writer needs the whole calendar in memory.
public struct Calendar: Hashable, Sendable {
    /// EventKit's `EKCalendarType`.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case local, calDAV, exchange, subscription, birthday
    }

    public var title: String?
    public var description: String?
    public var kind: Kind
    /// A CSS-style colour as the source gave it (`#FF2968`, `#FF2968FF`, or a CSS3 name).
    public var color: String?
    public var allowsContentModifications: Bool
    public var source: CalendarSource?
    /// For subscriptions: where the calendar is fetched from.
    public var subscriptionURL: String?
    /// For subscriptions: how often to refresh.
    public var refreshInterval: CalendarDuration?
    /// A zone the calendar states for items without one (X-WR-TIMEZONE).
    public var defaultTimeZone: String?
    /// PRODID, VERSION, CALSCALE and METHOD.
    public var productID: String?
    public var version: String?
    public var scale: String?
    public var method: String?
    /// Calendar-level properties the model does not hold, in order.
    public var properties: [Property]
    /// Extra parameters on calendar properties the model holds, by property name.
    public var propertyParameters: [String: [Parameter]]
    /// Which of several synonymous source properties a typed field came from (e.g. "title" →
    /// "NAME" rather than "X-WR-CALNAME"), so a writer of the same family restores the spelling.
    public var spellings: [String: String]

    public init(title: String? = nil, kind: Kind = .local, allowsContentModifications: Bool = true) {
        self.title = title
        self.kind = kind
        self.allowsContentModifications = allowsContentModifications
        self.properties = []
        self.propertyParameters = [:]
        self.spellings = [:]
    }
}

/// One item of a calendar as it streams: an event, a reminder, a zone definition, or a
/// component the model keeps as-is (VJOURNAL, VFREEBUSY, …).
public enum CalendarEntry: Hashable, Sendable {
    case event(Event)
    case reminder(Reminder)
    /// A VTIMEZONE definition as the source gave it.
    case timeZone(Component)
    case other(Component)

    /// The shared item fields of events and reminders.
    public var item: CalendarItem? {
        switch self {
        case .event(let e): e.item
        case .reminder(let r): r.item
        default: nil
        }
    }
}

/// What readers produce and writers consume, in order: each calendar opens, streams its
/// entries and closes; a stream may hold several calendars.
public enum CalendarStreamElement: Hashable, Sendable {
    // Boxed: a calendar's header is far larger than an entry, and every element of the
    // stream, item after item, would otherwise be copied at the header's size.
    indirect case beginCalendar(Calendar)
    case entry(CalendarEntry, line: Int)
    /// Closes the calendar; carries properties that stood after its components, if any.
    case endCalendar(trailingProperties: [Property])
}
