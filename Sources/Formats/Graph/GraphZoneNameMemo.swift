import Foundation

/// The names the Graph writer gives the zones it has met (`GraphDateTimes.windowsName`). A
/// file names a handful of zones, and every body names them again: a look through the first
/// few met (lengths first) costs a fraction of resolving one. Shared by the writer's threads.
final class GraphZoneNameMemo: @unchecked Sendable {
    /// Zones remembered; a zone met after them is named anew each time.
    static let capacity = 16
    private let lock = NSLock()
    private var names: [(zone: String, name: String)] = []

    /// The name of `zone`, made by `make` unless remembered.
    func name(_ zone: String, otherwise make: (String) -> String) -> String {
        let length = zone.utf8.count
        lock.lock()
        for i in names.indices where names[i].zone.utf8.count == length && names[i].zone == zone {
            let found = names[i].name
            lock.unlock()
            return found
        }
        lock.unlock()
        let made = make(zone)
        lock.lock()
        if names.count < Self.capacity { names.append((zone, made)) }
        lock.unlock()
        return made
    }
}
