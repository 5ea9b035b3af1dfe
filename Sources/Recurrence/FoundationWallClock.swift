import CalendarModel
import Foundation

/// The default `WallClock`: Foundation's `TimeZone`, which reads the system's tz database
/// (current data, unlike ICU 72's bundled 2022e).
///
/// Expansion asks for several offsets per occurrence, and `TimeZone.secondsFromGMT(for:)` goes
/// through ICU each time; so each zone's transitions from 1900 to 2200 are read once into a
/// sorted table and looked up by binary search. Instants outside that span ask `TimeZone`.
public final class FoundationWallClock: WallClock, @unchecked Sendable {
    private final class Table {
        let zone: TimeZone
        /// Instants at which the offset changes, ascending.
        let transitions: [Int]
        /// offsets[i] holds from transitions[i - 1] to transitions[i]; offsets[0] before the first.
        let offsets: [Int]

        static let lower = -2_208_988_800  // 1900-01-01T00:00:00Z
        static let upper = 7_258_118_400  // 2200-01-01T00:00:00Z

        init(zone: TimeZone) {
            self.zone = zone
            var transitions: [Int] = []
            var offsets = [zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(Table.lower)))]
            var cursor = Date(timeIntervalSince1970: TimeInterval(Table.lower))
            while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < TimeInterval(Table.upper) {
                let instant = Int(next.timeIntervalSince1970.rounded(.down))
                let offset = zone.secondsFromGMT(for: next)
                if offset != offsets.last {
                    transitions.append(instant)
                    offsets.append(offset)
                }
                guard next > cursor else { break }
                cursor = next
            }
            self.transitions = transitions
            self.offsets = offsets
        }

        func offset(at instant: Int) -> Int {
            if instant < Table.lower || instant >= Table.upper {
                return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            }
            var low = 0
            var high = transitions.count
            while low < high {
                let mid = (low + high) / 2
                if transitions[mid] <= instant { low = mid + 1 } else { high = mid }
            }
            return offsets[low]
        }
    }

    private let lock = NSLock()
    private var tables: [String: Table?] = [:]

    /// A clock with its own zone tables; most callers use `shared`.
    public init() {}

    /// One shared instance, so zone tables are built once per process.
    public static let shared = FoundationWallClock()

    private func table(_ id: String) -> Table? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = tables[id] { return cached }
        let table = TimeZone(identifier: id).map(Table.init)
        tables[id] = table
        return table
    }

    /// The offset from the zone's table (nil for a zone `TimeZone` does not know).
    public func offset(zone: String, utcSeconds: Int) -> Int? {
        table(zone)?.offset(at: utcSeconds)
    }

    /// A look-up bound to the zone's table, for hot loops.
    public func offsetFunction(zone: String) -> ((Int) -> Int)? {
        guard let table = table(zone) else { return nil }
        return { table.offset(at: $0) }
    }
}
