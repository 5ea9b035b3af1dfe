/// How many events start in each month: a small map from month to count, filled while the
/// items stream past (a ten-year archive has 120 keys however many events it holds).
///
/// Months are the start's calendar date as written (its wall date, in its own zone); in JSON
/// the map is an object keyed `YYYY-MM`, sorted.
public struct MonthlyCounts: Codable, Sendable, Equatable {
    /// Count by month number (`year * 12 + month - 1`): an integer key keeps the per-event
    /// update free of string formatting.
    private var counts: [Int: Int] = [:]

    /// No month counted yet.
    public init() {}

    /// Counts one event starting in `month` (1–12) of `year`.
    public mutating func add(year: Int, month: Int, count: Int = 1) {
        guard (1...12).contains(month) else { return }
        counts[year * 12 + month - 1, default: 0] += count
    }

    /// Adds every count of `other`.
    public mutating func add(_ other: MonthlyCounts) {
        for (key, count) in other.counts { counts[key, default: 0] += count }
    }

    /// Whether no month has an event.
    public var isEmpty: Bool { counts.isEmpty }

    /// Number of months with at least one event.
    public var count: Int { counts.count }

    /// The sum over all months.
    public var total: Int { counts.values.reduce(0, +) }

    /// The months with events, in order, as (year, month, count).
    public var months: [(year: Int, month: Int, count: Int)] {
        counts.keys.sorted().map { key in
            let year = key >= 0 ? key / 12 : (key - 11) / 12
            return (year, key - year * 12 + 1, counts[key] ?? 0)
        }
    }

    /// `YYYY-MM` (years outside 0…9999 keep their sign and digits).
    public static func label(year: Int, month: Int) -> String {
        let y = String(abs(year))
        let m = String(month)
        return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (m.count < 2 ? "0" : "") + m
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode([String: Int].self)
        for (label, count) in raw {
            guard let dash = label.lastIndex(of: "-"), let year = Int(label[..<dash]), let month = Int(label[label.index(after: dash)...])
            else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "month '\(label)' is not YYYY-MM"))
            }
            add(year: year, month: month, count: count)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        var raw: [String: Int] = [:]
        for m in months { raw[Self.label(year: m.year, month: m.month)] = m.count }
        try container.encode(raw)
    }
}
