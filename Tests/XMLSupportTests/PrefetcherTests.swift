import Foundation
import XCTest

@testable import XMLSupport

/// A prefetcher dropped while its thread has filled batches the consumer never took (a reader
/// stopped by an error at the root element while libxml2 parsed ahead) stops its thread and
/// frees itself. libdispatch traps (SIGILL) when a semaphore is freed below the value it was
/// made with: the prefetcher's `room` was, and `calport convert` of a non-EWS document crashed.
final class PrefetcherTests: XCTestCase {
    func testDroppingAPrefetcherWithUntakenBatchesStopsItsThreadCleanly() {
        for depth in [1, 2, 4] {
            let produced = NSCondition()
            nonisolated(unsafe) var count = 0
            var prefetcher: Prefetcher<Int>? = Prefetcher(concurrently: true, batchSize: 2, depth: depth) {
                produced.lock()
                count += 1
                let n = count
                produced.broadcast()
                produced.unlock()
                return n <= 1_000 ? n : nil
            }
            XCTAssertEqual(prefetcher?.next(), 1)
            // Let the thread fill every batch it has room for.
            produced.lock()
            let deadline = Date().addingTimeInterval(5)
            while count < 2 * (depth + 1), produced.wait(until: deadline) {}
            produced.unlock()
            prefetcher = nil
            XCTAssertNil(prefetcher)
        }
    }

    func testUnitsComeInOrderAcrossBatches() {
        nonisolated(unsafe) var n = 0
        let prefetcher = Prefetcher<Int>(concurrently: true, batchSize: 3, depth: 2) {
            n += 1
            return n <= 100 ? n : nil
        }
        var seen: [Int] = []
        while let unit = prefetcher.next() { seen.append(unit) }
        XCTAssertEqual(seen, Array(1...100))
        XCTAssertNil(prefetcher.next())
    }
}
