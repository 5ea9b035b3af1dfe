import Foundation

/// What the Graph writer found of the zone names it has met (the name it gives a zone,
/// `GraphDateTimes.windowsName`; the zone a name resolves to, `GraphDateTimes.zoneID`). A file
/// names a handful of zones, and every body names them again: a look through the first few
/// met (lengths first) costs a fraction of resolving one. Shared by the writer's threads.
final class GraphZoneNameMemo<Value>: @unchecked Sendable {
    /// Zones remembered; a zone met after them is resolved anew each time.
    static var capacity: Int { 16 }
    private let lock = NSLock()
    // Read and changed only under the lock: the run-time exclusivity checks of a class's
    // stored property were a third of a look.
    @exclusivity(unchecked) private var known: [(zone: String, value: Value)] = []

    /// What `make` gives for `zone`, made unless remembered.
    func value(_ zone: String, otherwise make: (String) -> Value) -> Value {
        let length = zone.utf8.count
        lock.lock()
        for i in known.indices where known[i].zone.utf8.count == length && known[i].zone == zone {
            let found = known[i].value
            lock.unlock()
            return found
        }
        lock.unlock()
        let made = make(zone)
        lock.lock()
        if known.count < Self.capacity { known.append((zone, made)) }
        lock.unlock()
        return made
    }
}
