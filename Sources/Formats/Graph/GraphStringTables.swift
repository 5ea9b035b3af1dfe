import Foundation
import JSONCoding

/// The string tables (`JSONStringTable`) of a reader's worker jobs, one a thread: a job takes
/// its thread's, so a table stays warm from event to event in its own core's cache (a table
/// handed from thread to thread was read from the other core's cache, and cost more time than
/// it spared), and no two threads use one at once. As many as threads run the jobs.
final class GraphStringTables {
    // A pthread lock (NSLock), as GraphKeptListMemo.
    private let lock = NSLock()
    private var byThread: [UInt: JSONStringTable] = [:]

    /// The calling thread's table; only that thread uses it.
    func table() -> JSONStringTable {
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        lock.lock()
        defer { lock.unlock() }
        if let table = byThread[thread] { return table }
        let table = JSONStringTable()
        byThread[thread] = table
        return table
    }
}
