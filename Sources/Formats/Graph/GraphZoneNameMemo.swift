import Foundation
import TimeZones

/// What the Graph writer found of the zone names it has met (the name it gives a zone,
/// `GraphDateTimes.windowsName`; the zone a name resolves to, `GraphDateTimes.zoneID`). A file
/// names a handful of zones, and every body names them again: a look through the first few
/// met (lengths first) costs a fraction of resolving one. Shared by the writer's threads.
final class GraphZoneNameMemo<Value>: @unchecked Sendable {
    private let lock = NSLock()
    // Read and changed only under the lock: the run-time exclusivity checks of a class's
    // stored property were a third of a look.
    @exclusivity(unchecked) private var known = FirstZoneNames<Value>(capacity: 16)

    /// What `make` gives for `zone`, made unless remembered.
    func value(_ zone: String, otherwise make: (String) -> Value) -> Value {
        lock.lock()
        if let found = known.value(zone) {
            lock.unlock()
            return found
        }
        lock.unlock()
        let made = make(zone)
        lock.lock()
        known.remember(zone, made)
        lock.unlock()
        return made
    }
}
