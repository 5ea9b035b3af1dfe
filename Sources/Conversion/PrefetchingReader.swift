import CalendarModel
import Foundation

/// Runs a reader on its own thread, a few batches ahead of the consumer, so that parsing and
/// writing use two cores: for ICS → ICS the reader is about 60% of the work and the writer
/// 40%. Elements come out in exactly the order the reader produced them, and an error comes
/// out after every element read before it, as it would without the thread.
///
/// Memory stays flat: at most `depth` batches of `batchSize` elements wait in the queue.
final class PrefetchingReader: CalendarReader {
    private struct Batch {
        var elements: [CalendarStreamElement]
        /// The wrapped reader's byte count after the batch (progress).
        var bytesRead: Int
    }

    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var producerDone = false
    private var failure: Error?
    private var cancelled = false
    private let finished = DispatchSemaphore(value: 0)
    private let depth: Int

    private var current: [CalendarStreamElement] = []
    private var currentIndex = 0
    /// Bytes the wrapped reader had consumed when it produced the last element handed out.
    private(set) var bytesRead = 0

    /// Starts reading `reader` on a new thread. `bytesRead` is asked on that thread only.
    init(_ reader: any CalendarReader, bytesRead: @escaping () -> Int, batchSize: Int = 32, depth: Int = 4) {
        self.depth = depth
        let thread = Thread { [self] in
            var reader = reader
            produce(&reader, bytesRead: bytesRead, batchSize: batchSize)
            finished.signal()
        }
        thread.name = "calport-reader"
        thread.start()
    }

    deinit {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        // The reader thread may still be inside the wrapped reader (and its log); wait for it,
        // so nothing it does outlives the run that started it.
        finished.wait()
    }

    private func produce(_ reader: inout any CalendarReader, bytesRead: () -> Int, batchSize: Int) {
        var batch: [CalendarStreamElement] = []
        batch.reserveCapacity(batchSize)
        var error: Error?
        var ended = false
        while !ended {
            do {
                while batch.count < batchSize {
                    guard let element = try reader.next() else {
                        ended = true
                        break
                    }
                    batch.append(element)
                }
            } catch let e {
                error = e
                ended = true
            }
            condition.lock()
            while queue.count >= depth && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                return
            }
            if !batch.isEmpty { queue.append(Batch(elements: batch, bytesRead: bytesRead())) }
            if ended {
                failure = error
                producerDone = true
            }
            condition.broadcast()
            condition.unlock()
            batch.removeAll(keepingCapacity: true)
        }
    }

    func next() throws -> CalendarStreamElement? {
        if currentIndex < current.count {
            defer { currentIndex += 1 }
            return current[currentIndex]
        }
        condition.lock()
        while queue.isEmpty && !producerDone { condition.wait() }
        guard !queue.isEmpty else {
            let error = failure
            failure = nil
            condition.unlock()
            if let error { throw error }
            return nil
        }
        // Removing (not just stepping past) the batch releases its elements now: the queue holds
        // at most `depth` batches, so the shift is cheap, and a reader that stays ahead never
        // leaves a trail of consumed batches behind (which grew memory with the input).
        let batch = queue.removeFirst()
        condition.broadcast()
        condition.unlock()
        current = batch.elements
        bytesRead = batch.bytesRead
        currentIndex = 1
        return current[0]
    }
}
