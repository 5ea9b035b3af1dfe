import CalendarModel

/// Lazily yields the start times one RRULE generates from a DTSTART, in order, in the start's
/// own wall time and anchor (RFC 5545 §3.3.10, §3.8.5.3).
public struct RecurrenceRuleIterator: IteratorProtocol, Sequence {
    private var engine: RuleEngine
    private let start: CalendarDateTime

    /// - Parameters:
    ///   - startAlwaysOccurs: RFC 5545 §3.8.5.3: DTSTART is the first instance and counts toward
    ///     COUNT even when the rule would not produce it. False gives libical's and ical.js'
    ///     reading (a DTSTART that does not match the rule is left out).
    ///   - clock: converts the start's zone for a UTC UNTIL.
    public init(
        rule: RecurrenceRule, start: CalendarDateTime, startAlwaysOccurs: Bool = true,
        clock: any WallClock = TimeZoneDatabaseClock.shared
    ) throws {
        self.start = start
        let reference = start.reference
        engine = try RuleEngine(
            rule: rule, start: start, startAlwaysOccurs: startAlwaysOccurs,
            instantOf: { wall in
                if case .zone(let id) = reference { return clock.utcSeconds(zone: id, wallSeconds: wall) ?? wall }
                return wall
            })
    }

    /// Why the iteration ended, once `next()` has returned nil; nil while it goes on.
    public var stop: RecurrenceStop? { engine.stop }

    /// The next start, or nil when the rule is exhausted.
    public mutating func next() -> CalendarDateTime? {
        guard let wall = engine.next() else { return nil }
        return start.withWallSeconds(wall)
    }

    /// Moves ahead so that the next start is near `wall` (never after the first start at or
    /// after it); ignored for COUNT rules, which must count every instance.
    public mutating func skip(to wall: CalendarDateTime) {
        engine.skip(toWall: wall.wallSecondsSinceEpoch)
    }

    mutating func nextWall() -> Int? { engine.next() }
    mutating func skip(toWall wall: Int) { engine.skip(toWall: wall) }
}
