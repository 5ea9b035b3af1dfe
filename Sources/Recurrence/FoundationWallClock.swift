import CalendarModel
import Foundation

/// The default `WallClock`: Foundation's `TimeZone`, which reads the system's tz database
/// (current data, unlike ICU 72's bundled 2022e).
public final class FoundationWallClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var zones: [String: TimeZone?] = [:]

    public init() {}

    /// One shared instance, so zone look-ups are cached across expansions.
    public static let shared = FoundationWallClock()

    private func timeZone(_ id: String) -> TimeZone? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = zones[id] { return cached }
        let zone = TimeZone(identifier: id)
        zones[id] = zone
        return zone
    }

    public func offset(zone: String, utcSeconds: Int) -> Int? {
        guard let tz = timeZone(zone) else { return nil }
        return tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utcSeconds)))
    }
}
