import Foundation

/// Runs jobs on a few worker threads and hands their outputs back in the order the jobs were
/// submitted, so one stream can be worked on by several cores and still come out in order.
///
/// The caller bounds memory by how many jobs it leaves pending (`pending`). Dropping the pool
/// stops its threads: a worker finishes the job it is on, then exits, and `deinit` waits for
/// every worker, so no thread outlives the reader that started it.
///
/// Inlinable, so each user's pool is specialized for its job and output types: as an unspecialized
/// generic every job cost ~4,000 instructions of runtime metadata look-ups (Optional, Array and
/// FrontQueue of the job type, on every thread).
public final class OrderedWorkerPool<Job, Output> {
    /// What the workers and the owner share; the workers hold this, never the pool, so dropping
    /// the pool is what stops them.
    @usableFromInline
    final class Shared: @unchecked Sendable {
        @usableFromInline let condition = NSCondition()
        /// Jobs not yet started, oldest first, with their tickets.
        @usableFromInline var waiting = FrontQueue<(ticket: Int, job: Job)>()
        /// Outputs of the jobs from `firstTicket` on, nil while a job runs or waits.
        @usableFromInline var outputs = FrontQueue<Output>()
        @usableFromInline var firstTicket = 0
        @usableFromInline var cancelled = false
        @usableFromInline let work: (Job) -> Output

        @inlinable
        init(work: @escaping (Job) -> Output) {
            self.work = work
        }

        /// A worker thread's life: run the oldest waiting job, again and again.
        @inlinable
        func runWorker() {
            condition.lock()
            while true {
                while waiting.isEmpty && !cancelled { condition.wait() }
                if cancelled { break }
                runOldestWaiting()
                condition.broadcast()
            }
            condition.unlock()
        }

        /// Takes the oldest job no thread has started, runs it unlocked and stores its output.
        /// Called, and returns, with the lock held; needs a waiting job.
        @inlinable
        func runOldestWaiting() {
            let (ticket, job) = waiting.removeFirst()!
            condition.unlock()
            let output = work(job)
            condition.lock()
            outputs[ticket - firstTicket] = output
        }
    }

    @usableFromInline let shared: Shared
    @usableFromInline let exited = DispatchSemaphore(value: 0)
    @usableFromInline let threadCount: Int
    @usableFromInline var submitted = 0
    @usableFromInline var taken = 0

    /// Jobs submitted whose output has not been taken yet.
    @inlinable
    public var pending: Int { submitted - taken }

    /// Starts `threads` worker threads that run `work` on the submitted jobs.
    @inlinable
    public init(threads: Int, name: String, work: @escaping (Job) -> Output) {
        shared = Shared(work: work)
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [shared, exited] in
                shared.runWorker()
                exited.signal()
            }
            thread.name = "\(name)-\(index + 1)"
            thread.start()
        }
    }

    deinit {
        shared.condition.lock()
        shared.cancelled = true
        shared.condition.broadcast()
        shared.condition.unlock()
        for _ in 0..<threadCount { exited.wait() }
    }

    /// Queues a job; a worker starts it as soon as one is free.
    @inlinable
    public func submit(_ job: Job) {
        shared.condition.lock()
        shared.waiting.append((submitted, job))
        shared.outputs.append(nil)
        submitted += 1
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// The output of the oldest job not yet taken if it is there, or if no worker has started
    /// that job (it is then run here); nil while a worker is still on it. Needs `pending > 0`.
    @inlinable
    public func nextIfReady() -> Output? {
        precondition(pending > 0, "OrderedWorkerPool.nextIfReady() without a pending job")
        shared.condition.lock()
        if !shared.outputs.isFilled(0) {
            guard let oldest = shared.waiting.first, oldest.ticket == shared.firstTicket else {
                shared.condition.unlock()
                return nil
            }
            shared.runOldestWaiting()
        }
        return takeOldest()
    }

    /// The output of the oldest job not yet taken, waiting for it if needed. Needs `pending > 0`.
    ///
    /// While that job's output is not there, the calling thread runs the oldest job no worker
    /// has started yet (that job itself, or a younger one) instead of waiting: on two cores the
    /// consumer (stages and writer) and one worker then share the parsing as their loads
    /// allow, rather than one of them idling.
    @inlinable
    public func next() -> Output {
        precondition(pending > 0, "OrderedWorkerPool.next() without a pending job")
        shared.condition.lock()
        while !shared.outputs.isFilled(0) {
            // While a worker is still on the oldest job, a younger one that no worker has
            // started is run here too: waiting would leave this core idle.
            if shared.waiting.isEmpty { shared.condition.wait() } else { shared.runOldestWaiting() }
        }
        return takeOldest()
    }

    /// Hands out the oldest job's output, which is there. Called with the lock held; returns
    /// with it released.
    @inlinable
    func takeOldest() -> Output {
        let output = shared.outputs.removeFirst()!
        shared.firstTicket += 1
        shared.condition.unlock()
        taken += 1
        return output
    }
}

/// A first-in, first-out list that takes from its front by moving an index rather than the
/// elements: `Array.removeFirst` shifted every element after it, through generic code here,
/// ~20,000 instructions per Graph event's output (~3% of graph -> ICS, on the consumer thread).
/// The taken slots are dropped in one move once they are half the storage.
@usableFromInline
struct FrontQueue<Element> {
    @usableFromInline var slots: [Element?] = []
    @usableFromInline var head = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { head == slots.count }

    @inlinable
    var first: Element? { isEmpty ? nil : slots[head] }

    /// Whether the slot `offset` places from the front holds an element.
    @inlinable
    func isFilled(_ offset: Int) -> Bool { slots[head + offset] != nil }

    /// The element `offset` places from the front (nil: a slot not filled yet).
    @inlinable
    subscript(offset: Int) -> Element? {
        get { slots[head + offset] }
        set { slots[head + offset] = newValue }
    }

    @inlinable
    mutating func append(_ element: Element?) {
        slots.append(element)
    }

    /// Takes the front slot's element out.
    @inlinable
    mutating func removeFirst() -> Element? {
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }
}
