import CalendarModel

/// One instance of a recurring item: where it starts and ends on the wall clock and in
/// absolute time, and which item (the series or an override) it takes its details from.
public struct Occurrence: Hashable, Sendable {
    /// Which item of the series holds this occurrence's details.
    public enum Source: Hashable, Sendable {
        /// The master (the item with the rules).
        case master
        /// The detached occurrence at this index of the overrides given to `RecurrenceSet`.
        case override(Int)
    }

    /// The start the rules gave it, before any override moved it (its RECURRENCE-ID).
    public var recurrenceID: CalendarDateTime
    /// The start as wall time with its anchor (DATE for all-day items).
    public var start: CalendarDateTime
    /// The end as wall time with its anchor.
    public var end: CalendarDateTime
    /// The start in seconds since 1970 UTC (floating times per the options' floating zone).
    public var startInstant: Int
    /// The end in seconds since 1970 UTC.
    public var endInstant: Int
    /// Which item of the series holds its details (title, attendees, …).
    public var source: Source

    /// An occurrence from its parts; `RecurrenceSet` makes them.
    public init(
        recurrenceID: CalendarDateTime, start: CalendarDateTime, end: CalendarDateTime, startInstant: Int,
        endInstant: Int, source: Source
    ) {
        self.recurrenceID = recurrenceID
        self.start = start
        self.end = end
        self.startInstant = startInstant
        self.endInstant = endInstant
        self.source = source
    }

    /// Seconds from start to end.
    public var durationSeconds: Int { endInstant - startInstant }

    /// Whether the occurrence overlaps [from, to) as EventKit's predicate has it: a zero-length
    /// occurrence counts when it starts inside the range.
    public func overlaps(from: Int, to: Int) -> Bool {
        if endInstant == startInstant { return startInstant >= from && startInstant < to }
        return startInstant < to && endInstant > from
    }
}
