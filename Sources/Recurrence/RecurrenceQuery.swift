import CalendarModel

/// A date-range query over a calendar stream, as `calport convert --start --end --expand` asks:
/// keep the items with an occurrence that overlaps [start, end) (EventKit's
/// `predicateForEvents(withStart:end:calendars:)`, without its four-year limit), and with
/// `expand`, write each occurrence as its own item.
public struct RecurrenceQuery: Hashable, Sendable {
    /// The range's start in seconds since 1970 UTC; nil = open.
    public var start: Int?
    /// The range's end (exclusive) in seconds since 1970 UTC; nil = open.
    public var end: Int?
    /// Write each occurrence as its own item with the series' UID and RECURRENCE-ID.
    public var expand: Bool
    /// Occurrence limit, floating zone and DTSTART handling.
    public var options: RecurrenceOptions

    /// A query from instants (seconds since 1970 UTC).
    public init(start: Int? = nil, end: Int? = nil, expand: Bool = false, options: RecurrenceOptions = .init()) {
        self.start = start
        self.end = end
        self.expand = expand
        self.options = options
    }

    /// Whether the query changes anything (a range or expansion was asked for).
    public var isActive: Bool { start != nil || end != nil || expand }
}

extension RecurrenceQuery {
    /// The query `--start WHEN --end WHEN --expand --max-occurrences N` asks for, with WHEN read
    /// by `QueryTime.parse` in `defaultZone` (the `--tz` zone; nil = UTC).
    /// - Throws: `RecurrenceError` when a WHEN does not parse, the range is empty, or the limit
    ///   is not positive.
    public init(
        startText: String?, endText: String?, expand: Bool, maxOccurrences: Int = 100_000, defaultZone: String? = nil,
        floatingTimeZone: String? = nil, clock: any WallClock = TimeZoneDatabaseClock.shared
    ) throws {
        let start = try startText.map { try QueryTime.parse($0, defaultZone: defaultZone, clock: clock) }
        let end = try endText.map { try QueryTime.parse($0, defaultZone: defaultZone, clock: clock) }
        if let start, let end, end <= start {
            throw RecurrenceError(.invalid, "--end (\(endText!)) must be after --start (\(startText!))")
        }
        guard maxOccurrences > 0 else {
            throw RecurrenceError(.invalid, "--max-occurrences must be a positive number")
        }
        self.init(
            start: start, end: end, expand: expand,
            options: RecurrenceOptions(maxOccurrences: maxOccurrences, floatingTimeZone: floatingTimeZone))
    }
}
