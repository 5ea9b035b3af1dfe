import CalendarModel

/// What a merge did: how many versions it read, which it dropped and where it had to choose
/// between versions that claim to be equally new.
public struct MergeSummary: Sendable, Equatable {
    /// Items (and detached occurrences) with a UID, over all inputs.
    public var versionsRead = 0
    /// Distinct (UID, RECURRENCE-ID) pairs: what is written.
    public var distinctItems = 0
    /// Older versions dropped in favour of a newer one.
    public var superseded = 0
    /// Exact copies of a kept version, dropped.
    public var identicalCopies = 0
    /// Versions that differ but have the same SEQUENCE and LAST-MODIFIED.
    public var conflicts: [MergeConflict] = []
    /// The first superseded versions, as examples for the report.
    public var supersededExamples: [MergeConflict] = []
}

/// Two versions of one item and which was kept.
public struct MergeConflict: Sendable, Equatable {
    /// The item's UID.
    public var uid: String
    /// The RECURRENCE-ID as iCalendar text, for detached occurrences.
    public var recurrenceID: String?
    /// `file:line` of the version written.
    public var kept: String
    /// `file:line` of the version dropped.
    public var dropped: String
    /// Why the kept version won.
    public var reason: String
}

/// The first pass of a merge. For every (UID, RECURRENCE-ID) it keeps the newest version's
/// place and ranking — SEQUENCE, LAST-MODIFIED, input, ordinal and a fingerprint — never the
/// item itself, so its memory grows with the number of UIDs, not with their content. The
/// second pass re-reads the inputs and writes an item only if it is its key's winner.
struct MergeIndex {
    struct Key: Hashable {
        var uid: String
        var recurrenceID: String?
    }

    /// One version's rank and place. Entries are numbered per input in reading order, which the
    /// second pass reproduces exactly because reading is deterministic.
    struct Version {
        var sequence: Int
        /// LAST-MODIFIED as seconds since 1970 (wall time; UTC in practice); nil ranks lowest.
        var lastModified: Int?
        var unit: Int
        var ordinal: Int
        var line: Int
        var fingerprint: Int

        var position: Int64 { Int64(unit) << 32 | Int64(ordinal) }
    }

    private var winners: [Key: Version] = [:]
    /// Positions of every version that lost, which the second pass leaves out.
    private(set) var losers: Set<Int64> = []
    private(set) var summary = MergeSummary()
    /// The inputs' names, to describe places.
    let unitNames: [String]
    private static let exampleLimit = 1000

    init(unitNames: [String]) {
        self.unitNames = unitNames
    }

    /// The key and version of an entry, or nil for entries that are not merged (no UID, time
    /// zones, other components).
    static func version(of entry: CalendarEntry, unit: Int, ordinal: Int, line: Int) -> (Key, Version)? {
        guard let item = entry.item, let uid = item.uid else { return nil }
        let key = Key(uid: uid, recurrenceID: item.recurrenceID.map(text))
        let version = Version(
            sequence: item.sequence ?? 0, lastModified: item.lastModified?.wallSecondsSinceEpoch, unit: unit, ordinal: ordinal,
            line: line, fingerprint: entry.hashValue)
        return (key, version)
    }

    /// Takes a version into account. Versions must be added input by input, in reading order,
    /// so that "later" means later in the command line.
    mutating func add(_ key: Key, _ version: Version) {
        summary.versionsRead += 1
        guard let current = winners[key] else {
            winners[key] = version
            summary.distinctItems += 1
            return
        }
        let newer: Bool
        let reason: String
        if version.sequence != current.sequence {
            newer = version.sequence > current.sequence
            reason = "higher SEQUENCE (\(max(version.sequence, current.sequence)) over \(min(version.sequence, current.sequence)))"
        } else if version.lastModified != current.lastModified {
            newer = (version.lastModified ?? Int.min) > (current.lastModified ?? Int.min)
            reason = "same SEQUENCE, later LAST-MODIFIED"
        } else if version.fingerprint == current.fingerprint {
            summary.identicalCopies += 1
            losers.insert(version.position)
            return
        } else {
            // Equally new by every rule yet different: the later input wins, as a later
            // export usually reflects later edits, and the choice is reported.
            newer = true
            reason = "same SEQUENCE and LAST-MODIFIED but different content; the later input wins"
        }
        let (kept, dropped) = newer ? (version, current) : (current, version)
        losers.insert(dropped.position)
        winners[key] = kept
        let record = MergeConflict(uid: key.uid, recurrenceID: key.recurrenceID, kept: place(kept), dropped: place(dropped), reason: reason)
        if reason.hasPrefix("same SEQUENCE and") {
            summary.conflicts.append(record)
        } else {
            summary.superseded += 1
            if summary.supersededExamples.count < Self.exampleLimit { summary.supersededExamples.append(record) }
        }
    }

    /// Whether the entry at `ordinal` of input `unit` is written.
    func keeps(unit: Int, ordinal: Int) -> Bool {
        losers.isEmpty || !losers.contains(Int64(unit) << 32 | Int64(ordinal))
    }

    private func place(_ v: Version) -> String { "\(unitNames[v.unit]):\(v.line)" }

    /// A RECURRENCE-ID as iCalendar text (RFC 5545 §3.3.5), zone included, so equal instants
    /// written the same way match.
    static func text(_ d: CalendarDateTime) -> String {
        var s = String(format4(d.date.year)) + pad(d.date.month) + pad(d.date.day)
        if let t = d.time {
            s += "T" + pad(t.hour) + pad(t.minute) + pad(t.second)
        }
        switch d.reference {
        case .utc: s += "Z"
        default: if let zone = d.reference.zoneIdentifier { s = zone + ":" + s }
        }
        return s
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func format4(_ n: Int) -> String {
        let s = "\(n)"
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
