/// A reminder attached to an item: EventKit's `EKAlarm`, with what VALARM adds.
public struct Alarm: Hashable, Sendable {
    /// What the alarm does (RFC 5545 ACTION).
    public enum Action: Hashable, Sendable {
        case display, audio, email, procedure
        /// RFC 8607's NONE, or an X- or IANA action, kept verbatim.
        case other(String)
    }

    /// When the alarm fires.
    public enum Trigger: Hashable, Sendable {
        /// Seconds relative to the start (or the end, when `relativeToEnd`); negative is before.
        case relative(CalendarDuration, relativeToEnd: Bool)
        case absolute(CalendarDateTime)
    }

    /// Apple's geofence alarms (`EKAlarmProximity`).
    public enum Proximity: String, Hashable, Sendable {
        case enter = "ARRIVE", leave = "DEPART"
    }

    public var action: Action
    public var trigger: Trigger?
    public var description: String?
    public var summary: String?
    /// DURATION and REPEAT: snooze interval and repeat count.
    public var repeatInterval: CalendarDuration?
    public var repeatCount: Int?
    /// Email recipients.
    public var attendees: [Participant]
    public var proximity: Proximity?
    public var structuredLocation: StructuredLocation?
    public var uid: String?
    /// Everything else the VALARM carried (ATTACH, ACKNOWLEDGED, X- properties), in order.
    public var properties: [Property]
    public var components: [Component]
    /// Extra parameters on properties the model holds, by property name.
    public var propertyParameters: [String: [Parameter]]

    public init(
        action: Action, trigger: Trigger? = nil, description: String? = nil, summary: String? = nil,
        repeatInterval: CalendarDuration? = nil, repeatCount: Int? = nil, attendees: [Participant] = [],
        proximity: Proximity? = nil, structuredLocation: StructuredLocation? = nil, uid: String? = nil,
        properties: [Property] = [], components: [Component] = [], propertyParameters: [String: [Parameter]] = [:]
    ) {
        self.action = action
        self.trigger = trigger
        self.description = description
        self.summary = summary
        self.repeatInterval = repeatInterval
        self.repeatCount = repeatCount
        self.attendees = attendees
        self.proximity = proximity
        self.structuredLocation = structuredLocation
        self.uid = uid
        self.properties = properties
        self.components = components
        self.propertyParameters = propertyParameters
    }

    /// EventKit's `relativeOffset` in seconds, when the trigger is relative to the start.
    public var relativeOffset: Int? {
        if case .relative(let d, false) = trigger { return d.totalSeconds }
        return nil
    }
}
