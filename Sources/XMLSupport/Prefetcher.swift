import Dispatch
import Foundation

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
        // One condition guards everything: libdispatch semaphores trap when they are freed at a
        // value below the one they were made with, which a stop at the wrong moment (an error
        // while batches wait untaken) could leave behind, crashing the run instead of ending it.
        let condition = NSCondition()
        var queue: [(units: [Unit], last: Bool)] = []
        var cancelled = false
        var exited = false
        let depth: Int

        init(depth: Int) {
            self.depth = max(1, depth)
        }

        func run(_ produce: () -> Unit?, batchSize: Int) {
            while true {
                condition.lock()
                while queue.count >= depth && !cancelled { condition.wait() }
                let stop = cancelled
                condition.unlock()
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
                condition.lock()
                queue.append((units, last))
                condition.broadcast()
                condition.unlock()
                if last { return }
            }
        }

        /// Runs a producer that pushes its units (one per batch) rather than returning them:
        /// `emit` blocks while `depth` batches wait, and returns false once the owner is gone,
        /// for the producer to stop.
        func runPushing(_ run: (_ emit: (Unit) -> Bool) -> Void) {
            run { unit in
                condition.lock()
                defer { condition.unlock() }
                while queue.count >= depth && !cancelled { condition.wait() }
                if cancelled { return false }
                queue.append(([unit], false))
                condition.broadcast()
                return true
            }
            condition.lock()
            queue.append(([], true))
            condition.broadcast()
            condition.unlock()
        }

        /// Called by the thread as the last thing it does.
        func markExited() {
            condition.lock()
            exited = true
            condition.broadcast()
            condition.unlock()
        }
    }

    private let produce: () -> Unit?
    /// A producer that pushes its units through `emit` (see `init(depth:pushing:)`).
    private let pushing: ((_ emit: (Unit) -> Bool) -> Void)?
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
        self.pushing = nil
        self.concurrently = concurrently
        self.batchSize = batchSize
        self.depth = depth
    }

    /// A prefetcher whose producer runs once, on a new thread from the first `next()` on, and
    /// hands over each unit through `emit`, which waits while `depth` units are ahead of the
    /// consumer and returns false once the prefetcher is dropped (the producer should then
    /// stop): for a producer that cannot return between units, such as a parser that calls back.
    public init(depth: Int = 4, pushing run: @escaping (_ emit: (Unit) -> Bool) -> Void) {
        self.produce = { nil }
        self.pushing = run
        self.concurrently = true
        self.batchSize = 1
        self.depth = depth
    }

    deinit {
        guard let shared else { return }
        shared.condition.lock()
        shared.cancelled = true
        shared.condition.broadcast()
        while !shared.exited { shared.condition.wait() }
        shared.condition.unlock()
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
            let pushing = self.pushing
            let batchSize = self.batchSize
            DispatchQueue(label: "calport-xml-reader").async {
                if let pushing {
                    shared.runPushing(pushing)
                } else {
                    shared.run(produce, batchSize: batchSize)
                }
                shared.markExited()
            }
        }
        while current.isEmpty {
            if ended { return nil }
            shared.condition.lock()
            while shared.queue.isEmpty { shared.condition.wait() }
            let batch = shared.queue.removeFirst()
            shared.condition.broadcast()
            shared.condition.unlock()
            current = batch.units
            ended = batch.last
        }
        return current.removeLast()
    }
}
