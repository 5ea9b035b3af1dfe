import Foundation

/// The names the Graph writer gives the zones it has met (`GraphDateTimes.windowsName`), most
/// recent first. A file names a handful of zones, and every body names them again: a look
/// through a few names (lengths first) costs a fraction of resolving one. Shared by the
/// writer's threads.
final class GraphZoneNameMemo: @unchecked Sendable {
    /// Zones remembered at once; past that the least recent is forgotten.
    static let capacity = 16
    private let lock = NSLock()
    private var names: [(zone: String, name: String)] = []

    /// The name of `zone`, made by `make` the first time (and again once forgotten).
    func name(_ zone: String, otherwise make: (String) -> String) -> String {
        let length = zone.utf8.count
        lock.lock()
        for i in names.indices where names[i].zone.utf8.count == length && names[i].zone == zone {
            let found = names[i]
            if i > 0 {
                names.remove(at: i)
                names.insert(found, at: 0)
            }
            lock.unlock()
            return found.name
        }
        lock.unlock()
        let made = make(zone)
        lock.lock()
        names.insert((zone, made), at: 0)
        if names.count > Self.capacity { names.removeLast() }
        lock.unlock()
        return made
    }
}
