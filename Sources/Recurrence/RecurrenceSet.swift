import CalendarModel

/// The recurrence set of one series (RFC 5545 §3.8.5): DTSTART, every RRULE, RDATE dates and
/// periods, less EXDATE, with detached occurrences (RECURRENCE-ID, RANGE=THISANDFUTURE, and
/// cancellations) applied. Expansion runs in the master's wall time, so 09:00 stays 09:00
/// across DST; instants come from the `WallClock`.
public struct RecurrenceSet {
    /// A detached occurrence given to the set: the item and its extent.
    public struct Override {
        /// The detached item (RECURRENCE-ID, maybe RANGE=THISANDFUTURE or STATUS:CANCELLED).
        public var item: CalendarItem
        /// Its own end or duration.
        public var extent: OccurrenceExtent

        /// An override from its item and extent.
        public init(item: CalendarItem, extent: OccurrenceExtent) {
            self.item = item
            self.extent = extent
        }
    }

    /// What a set says about itself after an expansion: the occurrences and the warnings.
    public struct Expansion: Sendable {
        /// Occurrences sorted by start instant, then recurrence id.
        public var occurrences: [Occurrence]
        /// Problems worth a diagnostic (unknown zone, limit hit, rule that never recurs).
        public var warnings: [String]
        /// Whether `maxOccurrences` cut the expansion short.
        public var truncated: Bool
    }

    enum Length {
        case days(Int)
        case seconds(Int)

        var approximateSeconds: Int {
            switch self {
            case .days(let d): d * 86_400
            case .seconds(let s): s
            }
        }
    }

    struct FutureOverride {
        var ridInstant: Int
        var deltaWall: Int
        var length: Length
        var endReference: TimeReference
        var index: Int
        var cancelled: Bool
    }

    struct SingleOverride {
        var index: Int
        var cancelled: Bool
    }

    let start: CalendarDateTime
    let startWall: Int
    let length: Length
    let endReference: TimeReference
    let rules: [RecurrenceRule]
    /// RDATEs in the master's wall time, sorted, each with its own length when a PERIOD.
    let recurrenceDates: [(wall: Int, length: Length?)]
    let exceptionWalls: Set<Int>
    /// DATE EXDATEs against a DATE-TIME start remove every instance on that day.
    let exceptionDays: Set<Int>
    let singleOverrides: [Int: SingleOverride]
    let overrideRecurrenceWalls: [Int]
    let futureOverrides: [FutureOverride]
    let overrides: [Override]
    let options: RecurrenceOptions
    let clock: any WallClock
    /// Warnings found while setting up.
    public private(set) var setupWarnings: [String] = []

    /// Builds the set of `master` (which carries DTSTART, RRULE, RDATE and EXDATE) with its
    /// detached occurrences (items with the same UID and a RECURRENCE-ID).
    /// - Throws: `RecurrenceError` for a rule that cannot be expanded (RSCALE other than
    ///   GREGORIAN, invalid INTERVAL), and when the master has no start.
    public init(
        master: CalendarItem, extent: OccurrenceExtent, overrides: [Override] = [], options: RecurrenceOptions = .init(),
        clock: any WallClock = TimeZoneDatabaseClock.shared
    ) throws {
        guard let start = master.start else {
            throw RecurrenceError(.invalid, "a recurring item needs DTSTART")
        }
        self.start = start
        self.options = options
        self.clock = clock
        self.overrides = overrides
        startWall = start.wallSecondsSinceEpoch
        rules = master.recurrenceRules
        var warnings: [String] = []
        func checkZone(_ reference: TimeReference) {
            if case .zone(let id) = reference, clock.offset(zone: id, utcSeconds: 0) == nil,
                !warnings.contains(where: { $0.contains("'\(id)'") })
            {
                warnings.append("time zone '\(id)' is unknown; its times are read as UTC")
            }
        }
        checkZone(start.reference)
        if let zone = options.floatingTimeZone { checkZone(.zone(zone)) }
        for rule in rules {
            // Fail early on rules the engine refuses, with the rule in the message.
            do {
                _ = try RuleEngine(rule: rule, start: start, startAlwaysOccurs: false, instantOf: { $0 })
            } catch let error as RecurrenceError {
                throw RecurrenceError(error.kind, "RRULE \(rule.rfc5545Text): \(error.message)")
            }
            for problem in rule.validationProblems(start: start) {
                warnings.append("RRULE \(rule.rfc5545Text): \(problem)")
            }
        }

        let timeline = Timeline(clock: clock, floatingZone: options.floatingTimeZone, primaryZone: start.reference.zoneIdentifier)
        func lengthOf(start: CalendarDateTime, extent: OccurrenceExtent) -> (Length, TimeReference) {
            if case .end(let end) = extent { checkZone(end.reference) }
            return timeline.length(start: start, extent: extent)
        }
        (length, endReference) = lengthOf(start: start, extent: extent)

        // RDATE and EXDATE may name another zone or UTC: they are moved to the master's wall
        // time through their instants.
        func masterWall(_ value: CalendarDateTime) -> Int {
            if start.isDateOnly { return value.date.daysSinceEpoch * 86_400 }
            if value.isDateOnly { return value.date.daysSinceEpoch * 86_400 + (start.time?.secondsOfDay ?? 0) }
            if value.reference == start.reference { return value.wallSecondsSinceEpoch }
            checkZone(value.reference)
            return timeline.wall(timeline.instant(value), start.reference)
        }
        var rdates: [(wall: Int, length: Length?)] = []
        for list in master.recurrenceDates {
            for date in list.dates { rdates.append((masterWall(date), nil)) }
            for period in list.periods {
                let extent: OccurrenceExtent
                switch period.extent {
                case .end(let e): extent = .end(e)
                case .duration(let d): extent = .duration(d)
                }
                rdates.append((masterWall(period.start), lengthOf(start: period.start, extent: extent).0))
            }
        }
        recurrenceDates = rdates.sorted { $0.wall < $1.wall }
        var exWalls = Set<Int>()
        var exDays = Set<Int>()
        for list in master.exceptionDates {
            for date in list.dates {
                if date.isDateOnly && !start.isDateOnly {
                    exDays.insert(date.date.daysSinceEpoch)
                } else {
                    exWalls.insert(masterWall(date))
                }
            }
            for period in list.periods { exWalls.insert(masterWall(period.start)) }
        }
        exceptionWalls = exWalls
        exceptionDays = exDays

        var singles: [Int: SingleOverride] = [:]
        var singleWalls: [Int] = []
        var futures: [FutureOverride] = []
        for (index, override) in overrides.enumerated() {
            guard let rid = override.item.recurrenceID else {
                warnings.append("a detached occurrence without RECURRENCE-ID is ignored")
                continue
            }
            let wall = masterWall(rid)
            let cancelled = override.item.status == .cancelled
            if override.item.recurrenceAppliesToFuture {
                let newStart = override.item.start ?? rid
                let (overrideLength, overrideEndReference) = lengthOf(start: newStart, extent: override.extent)
                futures.append(
                    FutureOverride(
                        ridInstant: timeline.instant(start.withWallSeconds(wall)),
                        deltaWall: masterWall(newStart) - wall, length: overrideLength,
                        endReference: overrideEndReference, index: index, cancelled: cancelled))
            } else {
                if singles[wall] != nil {
                    warnings.append("two detached occurrences share RECURRENCE-ID \(rid.basicISO); the later one is used")
                } else {
                    singleWalls.append(wall)
                }
                singles[wall] = SingleOverride(index: index, cancelled: cancelled)
            }
        }
        singleOverrides = singles
        overrideRecurrenceWalls = singleWalls.sorted()
        futureOverrides = futures.sorted { $0.ridInstant < $1.ridInstant }
        setupWarnings = warnings
    }

    /// Whether the set has more than the single DTSTART instance.
    public var recurs: Bool { !rules.isEmpty || !recurrenceDates.isEmpty }

    /// A lazy iterator over every occurrence in recurrence-id order (a moved override appears
    /// where its RECURRENCE-ID puts it).
    public func makeIterator() -> Iterator {
        Iterator(set: self, includeSingleOverrides: true, skipToWall: nil, stopAfterWall: nil)
    }

    /// The occurrences that overlap [from, to) (instants in seconds since 1970 UTC; nil = open),
    /// sorted by start instant, with at most `options.maxOccurrences` of them.
    public func occurrences(from: Int? = nil, to: Int? = nil) -> Expansion {
        let lowest = from ?? Int.min / 4
        let highest = to ?? Int.max / 4
        // Bounds in the master's wall time wide enough for every shift: a day either side for
        // zone offsets, the longest occurrence, and THISANDFUTURE moves.
        var longest = length.approximateSeconds
        for r in recurrenceDates { longest = max(longest, r.length?.approximateSeconds ?? 0) }
        var forward = 0
        var backward = 0
        for f in futureOverrides {
            longest = max(longest, f.length.approximateSeconds)
            forward = max(forward, f.deltaWall)
            backward = max(backward, -f.deltaWall)
        }
        let margin = 2 * 86_400
        let skipTo = from.map { $0 - longest - forward - margin }
        let stopAfter = to.map { $0 + backward + margin }
        var iterator = Iterator(set: self, includeSingleOverrides: false, skipToWall: skipTo, stopAfterWall: stopAfter)
        var result: [Occurrence] = []
        var truncated = false
        let timeline = Timeline(clock: clock, floatingZone: options.floatingTimeZone, primaryZone: start.reference.zoneIdentifier)
        // Detached single occurrences are judged by where they are now, not by their RECURRENCE-ID.
        for (wall, single) in singleOverrides where !single.cancelled {
            if let occurrence = iterator.overrideOccurrence(single.index, recurrenceWall: wall, timeline: timeline),
                occurrence.overlaps(from: lowest, to: highest)
            {
                result.append(occurrence)
            }
        }
        while let occurrence = iterator.next() {
            if occurrence.overlaps(from: lowest, to: highest) {
                if result.count >= options.maxOccurrences {
                    truncated = true
                    break
                }
                result.append(occurrence)
            }
        }
        var warnings = setupWarnings + iterator.warnings
        if truncated || iterator.truncated {
            truncated = true
            warnings.append("expansion stopped at \(options.maxOccurrences) occurrences (--max-occurrences)")
        }
        if result.count > options.maxOccurrences { result.removeLast(result.count - options.maxOccurrences) }
        result.sort { ($0.startInstant, $0.recurrenceID.wallSecondsSinceEpoch) < ($1.startInstant, $1.recurrenceID.wallSecondsSinceEpoch) }
        return Expansion(occurrences: result, warnings: warnings, truncated: truncated)
    }
}

/// Wall time ↔ instant for each kind of anchor. The series' own zone and the floating zone
/// are bound once (no zone look-up per occurrence); other zones go through the clock.
struct Timeline {
    let clock: any WallClock
    let floatingZone: String?
    private let primaryZone: String?
    private let primary: ((Int) -> Int)?
    private let floating: ((Int) -> Int)?

    init(clock: any WallClock, floatingZone: String?, primaryZone: String? = nil) {
        self.clock = clock
        self.floatingZone = floatingZone
        self.primaryZone = primaryZone
        primary = primaryZone.flatMap { clock.offsetFunction(zone: $0) }
        floating = floatingZone.flatMap { clock.offsetFunction(zone: $0) }
    }

    private func offsets(_ id: String) -> ((Int) -> Int)? {
        id == primaryZone ? primary : clock.offsetFunction(zone: id)
    }

    func instant(_ wall: Int, _ reference: TimeReference) -> Int {
        switch reference {
        case .utc: return wall
        case .floating:
            guard let floating else { return wall }
            return WallTime.instant(wall, offset: floating)
        case .zone(let id):
            guard let offsets = offsets(id) else { return wall }
            return WallTime.instant(wall, offset: offsets)
        }
    }

    func instant(_ value: CalendarDateTime) -> Int {
        instant(value.wallSecondsSinceEpoch, value.isDateOnly ? .floating : value.reference)
    }

    func wall(_ instant: Int, _ reference: TimeReference) -> Int {
        switch reference {
        case .utc: return instant
        case .floating:
            guard let floating else { return instant }
            return instant + floating(instant)
        case .zone(let id):
            guard let offsets = offsets(id) else { return instant }
            return instant + offsets(instant)
        }
    }
}

extension Timeline {
    /// The length of an occurrence from its start and extent: whole days stay nominal (a day
    /// is a calendar day, RFC 5545 §3.3.6), anything else is exact seconds.
    func length(start: CalendarDateTime, extent: OccurrenceExtent) -> (RecurrenceSet.Length, TimeReference) {
        switch extent {
        case .end(let end):
            if start.isDateOnly { return (.days(max(0, end.date.daysSinceEpoch - start.date.daysSinceEpoch)), start.reference) }
            let seconds = instant(end) - instant(start)
            return (.seconds(max(0, seconds)), end.isDateOnly ? start.reference : end.reference)
        case .duration(let duration):
            if let days = duration.wholeDays { return (.days(max(0, days)), start.reference) }
            return (.seconds(max(0, duration.totalSeconds)), start.reference)
        case .none:
            return (start.isDateOnly ? .days(1) : .seconds(0), start.reference)
        }
    }
}
