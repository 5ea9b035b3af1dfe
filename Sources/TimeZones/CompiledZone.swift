import CalendarModel

/// One zone of the compiled tz database (a TZif file, RFC 8536): its listed transitions and the
/// POSIX rule that continues them.
public final class CompiledZone: ZoneRules, @unchecked Sendable {
    /// A local time type of the file: offset, daylight flag and abbreviation.
    public struct LocalTimeType: Hashable, Sendable {
        /// Seconds east of UTC.
        public var offset: Int
        /// Whether the file marks the type as daylight saving time.
        public var isDaylight: Bool
        /// The abbreviation (`EST`, `CEST`, `-03`).
        public var abbreviation: String
    }

    /// The zone's IANA id.
    public let identifier: String
    /// Listed transitions, ascending.
    public let listedTransitions: [ZoneTransition]
    /// The type in force before the first transition.
    public let initialType: LocalTimeType
    /// How the zone continues after its last listed transition.
    public let footer: PosixTimeZoneRule?

    // Sorted instants of `listedTransitions`, kept apart for a tight binary search.
    private let instants: [Int]

    init(identifier: String, transitions: [ZoneTransition], initialType: LocalTimeType, footer: PosixTimeZoneRule?) {
        self.identifier = identifier
        self.listedTransitions = transitions
        self.initialType = initialType
        self.footer = footer
        self.instants = transitions.map(\.utcSeconds)
    }

    /// Reads a TZif file's bytes (versions 1 to 4); `file` names it in errors.
    public convenience init(identifier: String, tzif bytes: [UInt8], file: String) throws {
        func fail(_ message: String) -> CalendarError {
            CalendarError(.data, file: file, "not a usable TZif file: \(message)")
        }
        guard bytes.count >= 44, bytes[0] == 0x54, bytes[1] == 0x5A, bytes[2] == 0x69, bytes[3] == 0x66 else {
            throw fail("no TZif header")
        }
        func count(_ at: Int, _ field: Int) -> Int {
            let i = at + 20 + field * 4
            return Int(UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3]))
        }
        func signed(_ at: Int, _ width: Int) -> Int {
            var value: Int64 = 0
            for k in 0..<width { value = value << 8 | Int64(bytes[at + k]) }
            if width == 4 { return Int(Int32(truncatingIfNeeded: value)) }
            return Int(value)
        }
        // Version 1 data uses 32-bit times; version 2+ repeats everything with 64-bit times
        // after the first block, followed by the POSIX footer.
        var header = 0
        var width = 4
        let version = bytes[4]
        func blockLength(_ at: Int, _ width: Int) -> Int {
            let (isut, isstd, leap, time, type, chars) = (
                count(at, 0), count(at, 1), count(at, 2), count(at, 3), count(at, 4), count(at, 5)
            )
            return 44 + time * width + time + type * 6 + chars + leap * (width + 4) + isstd + isut
        }
        if version >= 0x32 {
            header = blockLength(0, 4)
            width = 8
            guard bytes.count >= header + 44 else { throw fail("truncated") }
        }
        let (leapCount, timeCount, typeCount, charCount) = (
            count(header, 2), count(header, 3), count(header, 4), count(header, 5)
        )
        let end = header + blockLength(header, width)
        guard typeCount > 0, end <= bytes.count else { throw fail("truncated") }
        _ = leapCount
        var p = header + 44
        var times: [Int] = []
        times.reserveCapacity(timeCount)
        for _ in 0..<timeCount {
            times.append(signed(p, width))
            p += width
        }
        let indices = (0..<timeCount).map { Int(bytes[p + $0]) }
        p += timeCount
        let typeStart = p
        p += typeCount * 6
        let chars = Array(bytes[p..<(p + charCount)])
        var types: [LocalTimeType] = []
        for t in 0..<typeCount {
            let at = typeStart + t * 6
            let abbreviationIndex = Int(bytes[at + 5])
            var stop = abbreviationIndex
            while stop < chars.count && chars[stop] != 0 { stop += 1 }
            let name = abbreviationIndex < chars.count ? String(decoding: chars[abbreviationIndex..<stop], as: UTF8.self) : ""
            types.append(LocalTimeType(offset: signed(at, 4), isDaylight: bytes[at + 4] != 0, abbreviation: name))
        }
        guard indices.allSatisfy({ $0 < typeCount }) else { throw fail("type index out of range") }
        var footer: PosixTimeZoneRule?
        if width == 8, end < bytes.count, bytes[end] == 0x0A {
            if let close = bytes[(end + 1)...].firstIndex(of: 0x0A), close > end + 1 {
                footer = PosixTimeZoneRule(String(decoding: bytes[(end + 1)..<close], as: UTF8.self))
            }
        }
        // RFC 8536 §3.2: the type before the first transition is type 0.
        let initial = types[0]
        var transitions: [ZoneTransition] = []
        var previous = initial
        for (time, index) in zip(times, indices) {
            let type = types[index]
            if type == previous { continue }
            transitions.append(
                ZoneTransition(
                    utcSeconds: time, offsetBefore: previous.offset, offsetAfter: type.offset,
                    isDaylight: type.isDaylight, abbreviation: type.abbreviation))
            previous = type
        }
        self.init(identifier: identifier, transitions: transitions, initialType: initial, footer: footer)
    }

    /// The type in force at an instant.
    public func localTimeType(utcSeconds t: Int) -> LocalTimeType {
        if let footer, instants.isEmpty || t >= instants[instants.count - 1] {
            if let type = footerType(footer, at: t) { return type }
        }
        // Index of the last transition at or before t.
        var low = 0
        var high = instants.count
        while low < high {
            let mid = (low + high) / 2
            if instants[mid] <= t { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return initialType }
        let transition = listedTransitions[low - 1]
        return LocalTimeType(
            offset: transition.offsetAfter, isDaylight: transition.isDaylight, abbreviation: transition.abbreviation ?? "")
    }

    private func footerType(_ footer: PosixTimeZoneRule, at t: Int) -> LocalTimeType? {
        let standard = LocalTimeType(offset: footer.standardOffset, isDaylight: false, abbreviation: footer.standardAbbreviation)
        guard footer.daylightStart != nil, let daylightOffset = footer.daylightOffset else { return standard }
        let daylight = LocalTimeType(offset: daylightOffset, isDaylight: true, abbreviation: footer.daylightAbbreviation ?? "")
        if footer.isPermanentDaylight { return daylight }
        let year = CalendarDate(daysSinceEpoch: Int((Double(t) / 86_400).rounded(.down))).year
        var last: ZoneTransition?
        for y in (year - 1)...(year + 1) {
            for transition in footer.transitions(in: y) where transition.utcSeconds <= t { last = transition }
        }
        guard let last else { return nil }
        // Before the footer's first transition after the last listed one, the listed data rules.
        if let lastListed = instants.last, last.utcSeconds < lastListed { return nil }
        return last.isDaylight ? daylight : standard
    }

    /// The offset at an instant, from the listed transitions or, after them, the footer rule.
    public func offset(utcSeconds: Int) -> Int { localTimeType(utcSeconds: utcSeconds).offset }

    /// The instant a wall time names (RFC 5545 §3.3.5 for gaps and repeats).
    public func utcSeconds(wallSeconds wall: Int) -> Int {
        // Fast path for the common case: one binary search and no allocation. This runs for
        // every zoned date-time a conversion reads.
        if let offset = regularOffset(wallSeconds: wall) { return wall - offset }
        return instant(forWallSeconds: wall)
    }

    /// The offset at a wall time with no transition within two days of it, inside the listed
    /// transitions; nil for any other (near a gap or a repeat, or past the listed data). Such a
    /// wall time names exactly one instant, and that instant reads back as the same wall time.
    public func regularOffset(wallSeconds wall: Int) -> Int? {
        let window = 2 * 86_400
        guard let last = instants.last, wall + window < last else { return nil }
        var low = 0
        var high = instants.count
        while low < high {
            let mid = (low + high) / 2
            if instants[mid] < wall - window { low = mid + 1 } else { high = mid }
        }
        guard instants[low] >= wall + window else { return nil }
        return low == 0 ? initialType.offset : listedTransitions[low - 1].offsetAfter
    }

    /// Listed transitions in the range, continued by the footer rule's after the last one.
    public func transitions(from: Int, to: Int) -> [ZoneTransition] {
        var result: [ZoneTransition] = []
        var low = 0
        var high = instants.count
        while low < high {
            let mid = (low + high) / 2
            if instants[mid] < from { low = mid + 1 } else { high = mid }
        }
        var i = low
        while i < instants.count && instants[i] < to {
            result.append(listedTransitions[i])
            i += 1
        }
        guard let footer, footer.daylightStart != nil, !footer.isPermanentDaylight else { return result }
        let lastListed = instants.last ?? Int.min
        guard to > lastListed else { return result }
        let first = CalendarDate(daysSinceEpoch: Int((Double(max(from, lastListed)) / 86_400).rounded(.down))).year
        let last = CalendarDate(daysSinceEpoch: Int((Double(to) / 86_400).rounded(.down))).year
        guard first <= last else { return result }
        for year in (first - 1)...last {
            for transition in footer.transitions(in: year)
            where transition.utcSeconds > lastListed && transition.utcSeconds >= from && transition.utcSeconds < to {
                result.append(transition)
            }
        }
        return result
    }
}
