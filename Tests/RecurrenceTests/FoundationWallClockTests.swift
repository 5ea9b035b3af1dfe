import Foundation
import Recurrence
import XCTest

/// The wall clock's transition tables give what `TimeZone` gives, everywhere.
final class FoundationWallClockTests: XCTestCase {
    func testTablesAgreeWithTimeZoneAtRandomInstantsAndAroundTransitions() throws {
        let clock = FoundationWallClock()
        var state: UInt64 = 42
        for id in [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Mexico_City", "Africa/Cairo", "Asia/Almaty",
            "Asia/Kathmandu", "Pacific/Chatham", "America/Sao_Paulo", "Europe/Dublin", "UTC",
        ] {
            let zone = try XCTUnwrap(TimeZone(identifier: id))
            var instants: [Int] = []
            for _ in 0..<2000 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                instants.append(-2_300_000_000 + Int(state >> 31) % 9_700_000_000)
            }
            var cursor = Date(timeIntervalSince1970: 0)
            for _ in 0..<200 {
                guard let next = zone.nextDaylightSavingTimeTransition(after: cursor) else { break }
                let t = Int(next.timeIntervalSince1970)
                instants += [t - 1, t, t + 1]
                cursor = next
            }
            for t in instants {
                XCTAssertEqual(
                    clock.offset(zone: id, utcSeconds: t), zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))),
                    "\(id) at \(t)")
            }
        }
        XCTAssertNil(clock.offset(zone: "Not/AZone", utcSeconds: 0))
    }

    func testMexicoCityHasNoSummerTimeAfter2022() {
        // Current tz data: Mexico dropped DST in late 2022, so July 2024 is −06:00, not −05:00.
        let july2024 = 1_720_000_000
        XCTAssertEqual(FoundationWallClock.shared.offset(zone: "America/Mexico_City", utcSeconds: july2024), -6 * 3600)
    }
}
