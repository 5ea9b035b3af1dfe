import Foundation
import JSONCoding

/// The string tables (`JSONStringTable`) of a reader's worker jobs: a job takes one for its
/// event and gives it back, so the tables are kept warm from event to event while no two
/// threads use one at once. At most one a thread, as many as run jobs at the same time.
final class GraphStringTables {
    // A pthread lock (NSLock), as GraphKeptListMemo.
    private let lock = NSLock()
    private var free: [JSONStringTable] = []

    /// A table no other job uses until it is given back.
    func take() -> JSONStringTable {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? JSONStringTable()
    }

    /// Gives back a table `take` gave.
    func give(_ table: JSONStringTable) {
        lock.lock()
        defer { lock.unlock() }
        free.append(table)
    }
}
