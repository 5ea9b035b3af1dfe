import Dispatch

/// Runs a producer of units on a thread of its own, a batch at a time and a few batches ahead,
/// and hands the units out in order (or, with one core to use, calls it in place): an XML reader parses the document (libxml2 and the trees
/// of its items) on one core while the thread that asks interprets the items it already has.
///
/// The producer is called on the prefetching thread only, until it returns nil; it reports a
/// failure as a unit, so failures arrive in document order after everything before them.
/// Dropping the prefetcher stops the thread after its current batch and waits for it.
public final class Prefetcher<Unit> {
    /// What the thread and the owner share; the thread holds this, never the prefetcher, so
    /// dropping the prefetcher is what stops it.
    private final class Shared: @unchecked Sendable {
        let lock = DispatchSemaphore(value: 1)
        /// Batches the producer may still fill before the consumer takes one.
        let room: DispatchSemaphore
        let filled = DispatchSemaphore(value: 0)
        let exited = DispatchSemaphore(value: 0)
        var queue: [(units: [Unit], last: Bool)] = []
        var cancelled = false

        init(depth: Int) {
            // Made at 0 and signalled up to `depth`: libdispatch traps when a semaphore is freed
            // below the value it was made with, which `room` is when the consumer drops the
            // prefetcher (an error, an early stop) while filled batches wait untaken.
            room = DispatchSemaphore(value: 0)
            for _ in 0..<max(1, depth) { room.signal() }
        }

        func run(_ produce: () -> Unit?, batchSize: Int) {
            while true {
                room.wait()
                lock.wait()
                let stop = cancelled
                lock.signal()
                if stop { return }
                var units: [Unit] = []
                units.reserveCapacity(batchSize)
                var last = false
                while units.count < batchSize {
                    guard let unit = produce() else {
                        last = true
                        break
                    }
                    units.append(unit)
                }
                // Reversed here, so that the consumer pops each unit off the end, taking it
                // rather than copying it: the batch then holds no unit the consumer has let go
                // of, and a unit (an item's tree) is freed by whoever lets go of it last.
                units.reverse()
                lock.wait()
                queue.append((units, last))
                lock.signal()
                filled.signal()
                if last { return }
            }
        }
    }

    private let produce: () -> Unit?
    private let concurrently: Bool
    private let batchSize: Int
    private let depth: Int
    private var shared: Shared?
    /// The batch being handed out, last unit first.
    private var current: [Unit] = []
    private var ended = false

    /// A prefetcher that calls `produce` on a new thread from the first `next()` on,
    /// `batchSize` units per batch and at most `depth` batches ahead of the consumer; or, when
    /// not `concurrently`, on the caller's thread in `next()`.
    public init(concurrently: Bool, batchSize: Int = 16, depth: Int = 4, produce: @escaping () -> Unit?) {
        self.produce = produce
        self.concurrently = concurrently
        self.batchSize = batchSize
        self.depth = depth
    }

    deinit {
        guard let shared else { return }
        shared.lock.wait()
        shared.cancelled = true
        shared.lock.signal()
        shared.room.signal()
        shared.exited.wait()
    }

    /// The next unit, or nil after the producer's last.
    public func next() -> Unit? {
        guard concurrently else { return produce() }
        let shared: Shared
        if let started = self.shared {
            shared = started
        } else {
            shared = Shared(depth: depth)
            self.shared = shared
            let produce = self.produce
            let batchSize = self.batchSize
            DispatchQueue(label: "calport-xml-reader").async {
                shared.run(produce, batchSize: batchSize)
                shared.exited.signal()
            }
        }
        while current.isEmpty {
            if ended { return nil }
            shared.filled.wait()
            shared.lock.wait()
            let batch = shared.queue.removeFirst()
            shared.lock.signal()
            shared.room.signal()
            current = batch.units
            ended = batch.last
        }
        return current.removeLast()
    }
}
