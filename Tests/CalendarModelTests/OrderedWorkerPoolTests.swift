import Foundation
import XCTest

import CalendarModel

final class OrderedWorkerPoolTests: XCTestCase {
    func testOutputsComeBackInSubmissionOrderWhateverThreadRanThem() {
        let pool = OrderedWorkerPool<Int, Int>(threads: 1, name: "test") { job in
            // Uneven jobs, so workers and the consumer finish out of order.
            if job % 3 == 0 { usleep(2_000) }
            return job * 10
        }
        var outputs: [Int] = []
        for job in 0..<40 {
            pool.submit(job)
            if pool.pending >= 4 { outputs.append(pool.next()) }
        }
        while pool.pending > 0 { outputs.append(pool.next()) }
        XCTAssertEqual(outputs, (0..<40).map { $0 * 10 })
    }

    func testTheConsumerRunsAYoungerJobWhileAWorkerIsOnTheOldest() {
        let oldestStarted = DispatchSemaphore(value: 0)
        let youngerDone = DispatchSemaphore(value: 0)
        // Job 0 (on the worker) finishes only once job 1 has run; job 1 can run only on the
        // consumer, since the one worker is busy. Waiting idle in `next()` would time out.
        let pool = OrderedWorkerPool<Int, Bool>(threads: 1, name: "test") { job in
            if job == 0 {
                oldestStarted.signal()
                return youngerDone.wait(timeout: .now() + 5) == .success
            }
            youngerDone.signal()
            return true
        }
        pool.submit(0)
        oldestStarted.wait()
        pool.submit(1)
        XCTAssertTrue(pool.next(), "the oldest job waited in vain: nobody ran the younger one")
        XCTAssertTrue(pool.next())
    }

    func testNextIfReadyRunsAnUnstartedOldestJobAndLeavesOneInProgressAlone() {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let pool = OrderedWorkerPool<Int, Int>(threads: 1, name: "test") { job in
            if job == 0 {
                started.signal()
                release.wait()
            }
            return job + 100
        }
        pool.submit(0)
        started.wait()
        // The worker is on job 0: nothing to hand out yet, and the caller is not blocked.
        XCTAssertNil(pool.nextIfReady())
        pool.submit(1)
        release.signal()
        XCTAssertEqual(pool.next(), 100)
        // Job 1 is the oldest now; whoever runs it, its output comes back.
        var output: Int?
        while output == nil { output = pool.nextIfReady() }
        XCTAssertEqual(output, 101)
        XCTAssertEqual(pool.pending, 0)
    }
}
