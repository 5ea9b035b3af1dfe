/// What every source of a zone's offsets offers — compiled tz data or a file's own VTIMEZONE —
/// so conversion code does not care where the rules came from.
public protocol ZoneRules: Sendable {
    /// The UTC offset in seconds east of UTC at an instant.
    func offset(utcSeconds: Int) -> Int
    /// The changes of offset or name with `from <= utcSeconds < to`, in order.
    func transitions(from: Int, to: Int) -> [ZoneTransition]
    /// The instant a wall time names (RFC 5545 §3.3.5); see `instant(forWallSeconds:)`.
    func utcSeconds(wallSeconds: Int) -> Int
}

extension ZoneRules {
    /// The instant a wall time names, with RFC 5545 §3.3.5's reading of the odd cases: a wall time
    /// inside a gap is read with the offset before the gap (so it moves forward by the gap), and
    /// a wall time that occurs twice means its first occurrence.
    public func utcSeconds(wallSeconds: Int) -> Int { instant(forWallSeconds: wallSeconds) }

    /// The instant a wall time names, found from the transitions around it (the general
    /// method; zones with a faster way override `utcSeconds(wallSeconds:)`).
    public func instant(forWallSeconds wall: Int) -> Int {
        // No zone is more than 26 hours from UTC, so every transition that can matter lies
        // within two days of the wall time read as UTC.
        let window = 2 * 86_400
        var offset = self.offset(utcSeconds: wall - window)
        var start = Int.min
        var candidates: [Int] = []
        var gapAnswer: Int?
        for transition in transitions(from: wall - window, to: wall + window) {
            let utc = wall - offset
            if utc >= start && utc < transition.utcSeconds { candidates.append(utc) }
            // A gap: the wall time falls after the change read with the old offset but before
            // it read with the new one.
            if transition.offsetAfter > transition.offsetBefore {
                let before = wall - transition.offsetBefore
                let after = wall - transition.offsetAfter
                if before >= transition.utcSeconds && after < transition.utcSeconds { gapAnswer = before }
            }
            start = transition.utcSeconds
            offset = transition.offsetAfter
        }
        let utc = wall - offset
        if utc >= start { candidates.append(utc) }
        if let first = candidates.min() { return first }
        return gapAnswer ?? wall - offset
    }
}
