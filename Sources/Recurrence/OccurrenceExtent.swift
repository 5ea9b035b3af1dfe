import CalendarModel

/// How long each occurrence of an item lasts, as the item states it (RFC 5545 §3.8.5.3: the
/// duration of each instance is that of the item).
public enum OccurrenceExtent: Hashable, Sendable {
    /// No end and no duration: a DATE start lasts a day, a DATE-TIME start no time.
    case none
    /// DTEND (events) or DUE (to-dos).
    case end(CalendarDateTime)
    /// DURATION.
    case duration(CalendarDuration)
}

extension Event {
    /// The event's extent: DTEND, else DURATION.
    public var occurrenceExtent: OccurrenceExtent {
        if let end { return .end(end) }
        if let duration { return .duration(duration) }
        return .none
    }
}

extension Reminder {
    /// The to-do's extent: DUE, else DURATION.
    public var occurrenceExtent: OccurrenceExtent {
        if let due { return .end(due) }
        if let duration { return .duration(duration) }
        return .none
    }
}
