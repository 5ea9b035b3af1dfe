import CalendarModel
import Foundation

/// Offsets and transitions from the newest tz data on the machine: the system's compiled
/// zoneinfo (TZif files), not ICU's built-in copy, which is older (ICU 72 carries 2022e).
///
/// Thread-safe; parsed zones are cached, since conversion asks for offsets once per date-time.
public final class TimeZoneDatabase: @unchecked Sendable {
    /// The directory the zones are read from.
    public let directory: String
    /// The tz data release, e.g. `2025b`; nil when the data does not say.
    public let version: String?
    /// Every zone id the data defines as a zone of its own (tzdata.zi `Z` lines), sorted.
    public let zoneIdentifiers: [String]
    /// Backward-compatible names and the zone each one links to (tzdata.zi `L` lines).
    public let links: [String: String]

    private let zoneSet: Set<String>
    private let tabulated: Set<String>
    private let byLowercase: [String: String]
    private let lock = NSLock()
    private var cache: [String: CompiledZone?] = [:]
    private var derivedValues: [String: Any] = [:]

    /// The system's database at `/usr/share/zoneinfo`, read once per process.
    public static let system = TimeZoneDatabase(directory: "/usr/share/zoneinfo")

    /// Reads the index of a zoneinfo directory (tzdata.zi, zone.tab); zones load on first use.
    public init(directory: String) {
        self.directory = directory
        var version: String?
        var zones: [String] = []
        var links: [String: String] = [:]
        // Every run starts here (the time-zone stage is on by default), and tzdata.zi has
        // thousands of rule lines: lines are split as bytes and only their markers looked at.
        if let data = FileManager.default.contents(atPath: directory + "/tzdata.zi") {
            Self.forEachLine(of: data) { line in
                if line.starts(with: "# version ".utf8) {
                    version = Self.fields(line.dropFirst(10), separator: 0x20).joined(separator: " ")
                } else if line.starts(with: "Z ".utf8) {
                    if let name = Self.fields(line.dropFirst(2), separator: 0x20).first { zones.append(name) }
                } else if line.starts(with: "L ".utf8) {
                    let fields = Self.fields(line.dropFirst(2), separator: 0x20)
                    if fields.count >= 2 { links[fields[1]] = fields[0] }
                }
            }
        }
        if version == nil, let text = try? String(contentsOfFile: directory + "/+VERSION", encoding: .utf8) {
            version = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var tabulated: Set<String> = []
        for table in ["zone1970.tab", "zone.tab"] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + table) else { continue }
            Self.forEachLine(of: data) { line in
                guard line.first != UInt8(ascii: "#") else { return }
                let fields = Self.fields(line[...], separator: 0x09)
                if fields.count >= 3 { tabulated.insert(fields[2]) }
            }
        }
        self.version = version
        self.zoneIdentifiers = zones.sorted()
        self.links = links
        self.zoneSet = Set(zones)
        self.tabulated = tabulated
        var lower: [String: String] = [:]
        for name in zones { lower[name.lowercased()] = name }
        for name in links.keys where lower[name.lowercased()] == nil { lower[name.lowercased()] = name }
        self.byLowercase = lower
    }

    /// Calls `body` with each line of `data`, without its line feed.
    private static func forEachLine(of data: Data, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end + 1
            }
        }
    }

    /// The non-empty fields of a line, split at `separator`.
    private static func fields(_ line: Slice<UnsafeBufferPointer<UInt8>>, separator: UInt8) -> [String] {
        line.split(separator: separator).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Today's IANA spelling of a zone id or backward-compatible alias (`Asia/Calcutta` →
    /// `Asia/Kolkata`, `US/Eastern` → `America/New_York`), or nil when the data has no such name.
    /// Case-insensitive, since names differ only by case in hand-written files.
    public func currentIdentifier(for name: String) -> String? {
        guard var id = zoneSet.contains(name) || links[name] != nil ? name : byLowercase[name.lowercased()] else {
            // Without tzdata.zi (some distributions omit it) a zone is any TZif file by that name.
            return zoneSet.isEmpty && hasZoneFile(name) ? name : nil
        }
        // A name zone.tab lists stays as it is even when the build makes it a link (tzdata's
        // default build links Europe/Amsterdam to Europe/Brussels; users expect Amsterdam).
        var hops = 0
        while !zoneSet.contains(id), !tabulated.contains(id), let target = links[id], hops < 8 {
            id = target
            hops += 1
        }
        return id
    }

    /// Whether the data knows `identifier` exactly as spelled (zone or link).
    public func contains(_ identifier: String) -> Bool {
        zoneSet.contains(identifier) || links[identifier] != nil || (zoneSet.isEmpty && hasZoneFile(identifier))
    }

    /// Whether `name` is a safe relative path (letters, digits, `_+-`, no `..`) to a TZif file.
    private func hasZoneFile(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let safe = parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_+-".unicodeScalars.contains($0))
                }
        }
        guard safe, let handle = FileHandle(forReadingAtPath: directory + "/" + name) else { return false }
        defer { try? handle.close() }
        return handle.readData(ofLength: 4) == Data("TZif".utf8)
    }

    /// The parsed zone, or nil when the data has no such zone. Cached.
    public func zone(_ identifier: String) -> CompiledZone? {
        lock.lock()
        if let cached = cache[identifier] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let loaded = load(identifier)
        lock.lock()
        cache[identifier] = .some(loaded)
        lock.unlock()
        return loaded
    }

    /// A value built from this data once, under `name` (a resolver's indexes of it): every reader, writer and
    /// stage makes a resolver of its own, and each indexed the same zones again (a third of the ics fuzz target's
    /// time). `make` runs outside the lock, since it asks this database for zones.
    func derived<Value>(_ name: String, _ make: () -> Value) -> Value {
        lock.lock()
        if let value = derivedValues[name] as? Value {
            lock.unlock()
            return value
        }
        lock.unlock()
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let value = derivedValues[name] as? Value { return value }
        derivedValues[name] = made
        return made
    }

    private func load(_ identifier: String) -> CompiledZone? {
        // Only names the index lists become paths, so a TZID cannot reach outside the directory.
        guard let name = currentIdentifier(for: identifier),
            zoneSet.contains(name) || links[name] != nil || tabulated.contains(name) || hasZoneFile(name)
        else { return nil }
        let path = directory + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? CompiledZone(identifier: name, tzif: [UInt8](data), file: path)
    }

    /// The UTC offset of `zone` at an instant, in seconds east of UTC; nil for an unknown zone.
    public func offset(zone: String, utcSeconds: Int) -> Int? {
        self.zone(zone)?.offset(utcSeconds: utcSeconds)
    }

    /// The instant a wall time in `zone` names (RFC 5545 §3.3.5: a time in a gap moves forward
    /// by the gap, an ambiguous time means its first occurrence); nil for an unknown zone.
    /// `wallSeconds` is `CalendarDateTime.wallSecondsSinceEpoch`.
    public func utcSeconds(zone: String, wallSeconds: Int) -> Int? {
        self.zone(zone)?.utcSeconds(wallSeconds: wallSeconds)
    }

    /// The transitions of `zone` with `from <= instant < to`; nil for an unknown zone.
    public func transitions(zone: String, from: Int, to: Int) -> [ZoneTransition]? {
        self.zone(zone)?.transitions(from: from, to: to)
    }
}
