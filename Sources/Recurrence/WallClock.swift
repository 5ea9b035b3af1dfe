import CalendarModel

/// Converts between wall time in a named zone and absolute instants; the recurrence engine
/// expands in wall time and asks this for instants, so the zone data stays swappable.
public protocol WallClock: Sendable {
    /// The UTC offset in seconds that `zone` has at the instant `utcSeconds`, or nil when the
    /// zone is unknown.
    func offset(zone: String, utcSeconds: Int) -> Int?

    /// The instant of a wall time in `zone`, or nil when the zone is unknown; a wall time in a
    /// gap or an overlap resolves as RFC 5545 §3.3.5 says.
    func utcSeconds(zone: String, wallSeconds: Int) -> Int?

    /// `zone`'s offset as a function of the instant, bound once for hot loops (expansion asks
    /// for several offsets per occurrence); nil when the zone is unknown.
    func offsetFunction(zone: String) -> ((Int) -> Int)?
}

extension WallClock {
    /// RFC 5545 §3.3.5 on top of `offset`: a repeated wall time means its first occurrence; a
    /// wall time in a gap is read with the offset in force before the gap (so 02:30 on a
    /// spring-forward night becomes 03:30).
    public func utcSeconds(zone: String, wallSeconds wall: Int) -> Int? {
        guard offset(zone: zone, utcSeconds: wall) != nil else { return nil }
        return WallTime.instant(wall) { self.offset(zone: zone, utcSeconds: $0) ?? 0 }
    }

    /// Binds `offset(zone:utcSeconds:)` to one zone.
    public func offsetFunction(zone: String) -> ((Int) -> Int)? {
        guard offset(zone: zone, utcSeconds: 0) != nil else { return nil }
        return { self.offset(zone: zone, utcSeconds: $0) ?? 0 }
    }
}

/// Wall time → instant given a zone's offsets.
public enum WallTime {
    /// The instant of `wall` under `offset` (instant → UTC offset), as RFC 5545 §3.3.5 says: a
    /// repeated wall time means its first occurrence; a wall time in a gap is read with the
    /// offset in force before the gap (so 02:30 on a spring-forward night becomes 03:30).
    public static func instant(_ wall: Int, offset: (Int) -> Int) -> Int {
        // The offsets a day either side bracket any single transition near `wall`.
        let before = offset(wall - 86_400)
        let after = offset(wall + 86_400)
        let early = wall - before
        if before == after { return early }
        let late = wall - after
        let earlyValid = offset(early) == before
        let lateValid = offset(late) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (false, true): return late
        default: return early  // valid only with the earlier offset, or in the gap
        }
    }
}
