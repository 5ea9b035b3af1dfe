import CalendarModel
import Foundation
import TimeZones

/// The `WallClock` over calport's time-zone layer: any TZID the resolver understands (IANA
/// ids and aliases, Windows ids, Outlook display names, vendor prefixes) with offsets from the
/// system's current tz database, as the time-zone stage computes them.
///
/// Expansion asks for several offsets per occurrence, so each zone's transitions from 1900 to
/// 2200 are read once into two flat arrays and looked up by binary search; other instants ask
/// the compiled zone.
public final class TimeZoneDatabaseClock: WallClock, @unchecked Sendable {
    private final class Table {
        let zone: CompiledZone
        let instants: [Int]
        /// offsets[i] holds before instants[i]; the last one after the last transition.
        let offsets: [Int]

        static let lower = -2_208_988_800  // 1900-01-01T00:00:00Z
        static let upper = 7_258_118_400  // 2200-01-01T00:00:00Z

        init(zone: CompiledZone) {
            self.zone = zone
            let transitions = zone.transitions(from: Table.lower, to: Table.upper)
            instants = transitions.map(\.utcSeconds)
            offsets = [zone.offset(utcSeconds: Table.lower)] + transitions.map(\.offsetAfter)
        }

        func offset(at instant: Int) -> Int {
            if instant < Table.lower || instant >= Table.upper { return zone.offset(utcSeconds: instant) }
            var low = 0
            var high = instants.count
            while low < high {
                let mid = (low + high) / 2
                if instants[mid] <= instant { low = mid + 1 } else { high = mid }
            }
            return offsets[low]
        }
    }

    /// Resolves TZIDs and holds the tz database.
    public let resolver: TimeZoneResolver
    private let lock = NSLock()
    private var tables: [String: Table?] = [:]

    /// A clock over `resolver` (by default the system's tz database).
    public init(resolver: TimeZoneResolver = TimeZoneResolver()) {
        self.resolver = resolver
    }

    /// One shared instance, so zone tables are built once per process.
    public static let shared = TimeZoneDatabaseClock()

    private func table(_ tzid: String) -> Table? {
        lock.lock()
        if let cached = tables[tzid] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let table = resolver.resolveName(tzid).zoneID.flatMap { resolver.database.zone($0) }.map(Table.init)
        lock.lock()
        tables[tzid] = table
        lock.unlock()
        return table
    }

    /// The offset of the zone `zone` resolves to; nil when it resolves to none.
    public func offset(zone: String, utcSeconds: Int) -> Int? {
        table(zone)?.offset(at: utcSeconds)
    }

    /// A look-up bound to the zone's table, for hot loops.
    public func offsetFunction(zone: String) -> ((Int) -> Int)? {
        guard let table = table(zone) else { return nil }
        return { table.offset(at: $0) }
    }
}
