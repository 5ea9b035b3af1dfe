import CalendarModel
import Foundation
import Recurrence
import XCTest

/// The default clock (calport's tz layer) against Foundation's `TimeZone`, and the TZIDs only
/// the resolver understands.
final class TimeZoneDatabaseClockTests: XCTestCase {
    func testOffsetsAgreeWithFoundationFrom1900To2200() {
        let clock = TimeZoneDatabaseClock.shared
        var state: UInt64 = 7
        for id in [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Mexico_City", "Africa/Cairo", "Asia/Almaty",
            "Pacific/Chatham", "America/Sao_Paulo", "Asia/Tokyo",
        ] {
            let zone = TimeZone(identifier: id)!
            for _ in 0..<3000 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let t = -2_000_000_000 + Int(state >> 31) % 9_000_000_000
                XCTAssertEqual(
                    clock.offset(zone: id, utcSeconds: t), zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))),
                    "\(id) at \(t)")
            }
        }
    }

    func testWindowsAndOutlookNamesExpandInTheirZone() throws {
        // "W. Europe Standard Time" is Europe/Berlin: 09:00 is 08:00Z in winter, 07:00Z in summer.
        var master = CalendarItem(uid: "w", start: T.dt("20240325T090000", "W. Europe Standard Time"))
        master.recurrenceRules = [try RecurrenceRule(rfc5545: "FREQ=WEEKLY;COUNT=2")]
        let expansion = try RecurrenceSet(master: master, extent: .none).occurrences()
        XCTAssertEqual(expansion.occurrences.map(\.startInstant), [T.utc("20240325T080000"), T.utc("20240401T070000")])
        XCTAssertEqual(expansion.warnings, [])
        XCTAssertNil(TimeZoneDatabaseClock.shared.offset(zone: "Customized Time Zone", utcSeconds: 0))
    }
}
