import Foundation

/// Remembers whether two zone names mean one zone (`GraphDateTimes.sameZone`) for the Graph
/// writer's read-back check (`GraphBodyCompleter`), which asks it for most bodies, about the
/// same few names (the source's IANA name and the Windows name its body gave): each answer
/// resolved both names again. Used from the writer's worker threads, hence the lock; the
/// names come from the input, so only the first `limit` pairs are kept.
final class GraphSameZoneMemo {
    private struct Names: Hashable {
        var a: String
        var b: String
    }

    static let limit = 1024
    // A pthread lock (NSLock), as GraphKeptListMemo.
    private let lock = NSLock()
    private var known: [Names: Bool] = [:]

    /// `GraphDateTimes.sameZone(a, b)`.
    func same(_ a: String, _ b: String) -> Bool {
        let names = Names(a: a, b: b)
        lock.lock()
        let remembered = known[names]
        lock.unlock()
        if let remembered { return remembered }
        let same = GraphDateTimes.sameZone(a, b)
        lock.lock()
        if known.count < Self.limit { known[names] = same }
        lock.unlock()
        return same
    }
}
