/// What RFC 5545 and its extensions say about one property: its default value type, the
/// types a VALUE parameter may select, and whether one line may hold a comma-separated list.
/// One table drives every iCalendar-family reader and writer (habit 1 of STYLE.md, after
/// ical.js's design.js); a name not in it passes through as an unknown value.
public struct PropertyDefinition: Sendable {
    public var defaultType: ValueType
    public var allowedTypes: Set<ValueType>
    /// Whether values are comma-separated lists (CATEGORIES, EXDATE, …).
    public var isList: Bool
    /// Whether the value is structured text whose `;` and `,` are syntax, not content
    /// (REQUEST-STATUS): such values are kept as their literal text.
    public var isStructured: Bool

    public init(_ defaultType: ValueType, allowed: Set<ValueType> = [], list: Bool = false, structured: Bool = false) {
        self.defaultType = defaultType
        self.allowedTypes = allowed.union([defaultType])
        self.isList = list
        self.isStructured = structured
    }
}

/// The property table.
public enum PropertyTable {
    private static let dateOrDateTime: Set<ValueType> = [.date, .dateTime]

    /// Definitions by upper-case property name.
    public static let definitions: [String: PropertyDefinition] = [
        // RFC 5545 §3.7 calendar properties
        "CALSCALE": .init(.text), "METHOD": .init(.text), "PRODID": .init(.text), "VERSION": .init(.text),
        // §3.8.1 descriptive
        "ATTACH": .init(.uri, allowed: [.binary]), "CATEGORIES": .init(.text, list: true), "CLASS": .init(.text),
        "COMMENT": .init(.text), "DESCRIPTION": .init(.text), "GEO": .init(.geo), "LOCATION": .init(.text),
        "PERCENT-COMPLETE": .init(.integer), "PRIORITY": .init(.integer),
        "RESOURCES": .init(.text, list: true), "STATUS": .init(.text), "SUMMARY": .init(.text),
        // §3.8.2 date and time
        "COMPLETED": .init(.dateTime), "DTEND": .init(.dateTime, allowed: dateOrDateTime),
        "DUE": .init(.dateTime, allowed: dateOrDateTime), "DTSTART": .init(.dateTime, allowed: dateOrDateTime),
        "DURATION": .init(.duration), "FREEBUSY": .init(.period, list: true), "TRANSP": .init(.text),
        // §3.8.3 time zone
        "TZID": .init(.text), "TZNAME": .init(.text), "TZOFFSETFROM": .init(.utcOffset),
        "TZOFFSETTO": .init(.utcOffset), "TZURL": .init(.uri),
        // §3.8.4 relationship
        "ATTENDEE": .init(.calAddress), "CONTACT": .init(.text), "ORGANIZER": .init(.calAddress),
        "RECURRENCE-ID": .init(.dateTime, allowed: dateOrDateTime), "RELATED-TO": .init(.text),
        "URL": .init(.uri), "UID": .init(.text),
        // §3.8.5 recurrence
        "EXDATE": .init(.dateTime, allowed: dateOrDateTime, list: true),
        "RDATE": .init(.dateTime, allowed: [.date, .dateTime, .period], list: true),
        "RRULE": .init(.recur), "EXRULE": .init(.recur),
        // §3.8.6 alarm
        "ACTION": .init(.text), "REPEAT": .init(.integer), "TRIGGER": .init(.duration, allowed: [.dateTime]),
        // §3.8.7 change management
        "CREATED": .init(.dateTime), "DTSTAMP": .init(.dateTime), "LAST-MODIFIED": .init(.dateTime),
        "SEQUENCE": .init(.integer),
        // §3.8.8 miscellaneous
        "REQUEST-STATUS": .init(.text, structured: true),
        // RFC 7986
        "NAME": .init(.text), "REFRESH-INTERVAL": .init(.duration), "SOURCE": .init(.uri), "COLOR": .init(.text),
        "IMAGE": .init(.uri, allowed: [.binary]), "CONFERENCE": .init(.uri),
        // RFC 9074, RFC 7808, RFC 9073, RFC 9253
        "ACKNOWLEDGED": .init(.dateTime), "PROXIMITY": .init(.text), "TZUNTIL": .init(.dateTime),
        "TZID-ALIAS-OF": .init(.text), "LOCATION-TYPE": .init(.text, list: true), "PARTICIPANT-TYPE": .init(.text),
        "CALENDAR-ADDRESS": .init(.calAddress), "STYLED-DESCRIPTION": .init(.text), "LINK": .init(.uri),
        "CONCEPT": .init(.uri), "REFID": .init(.text),
        // RFC 7953 availability, RFC 6047/5546
        "BUSYTYPE": .init(.text),
        // Calendar-level X- properties with well-known meaning (Apple, Google, Microsoft)
        "X-WR-CALNAME": .init(.text), "X-WR-CALDESC": .init(.text), "X-WR-TIMEZONE": .init(.text),
        "X-WR-RELCALID": .init(.text), "X-APPLE-CALENDAR-COLOR": .init(.text), "X-PUBLISHED-TTL": .init(.duration),
        "X-APPLE-PROXIMITY": .init(.text), "X-WR-ALARMUID": .init(.text),
    ]

    /// The definition of a property, or nil for X- and unknown names.
    public static func definition(_ name: String) -> PropertyDefinition? {
        // Looked up for every content line read and written: names of up to 16 bytes (all but
        // a few) go through a small open-addressing table keyed by their bytes, which costs a
        // fraction of a Dictionary<String, …> lookup (no SipHash, no String comparison).
        var name = name
        return name.withUTF8 { bytes in
            guard let key = PackedName(bytes) else { return definitions[String(decoding: bytes, as: UTF8.self)] }
            return fastIndex.lookup(key)
        }
    }

    private static let fastIndex = PackedNameTable(definitions)
}

/// A property name of up to 16 bytes packed into two words.
struct PackedName: Equatable {
    var low: UInt64
    var high: UInt64

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16, bytes.count > 0 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for i in 0..<bytes.count {
            if i < 8 { low |= UInt64(bytes[i]) << (8 * UInt64(i)) } else { high |= UInt64(bytes[i]) << (8 * UInt64(i - 8)) }
        }
        self.low = low
        self.high = high
    }

    var hash: Int { Int(truncatingIfNeeded: ((low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)) >> 20) }
}

/// Open addressing over packed names, built once from the property table.
struct PackedNameTable: Sendable {
    private var keys: [PackedName?]
    private var values: [PropertyDefinition?]
    private let mask: Int

    init(_ definitions: [String: PropertyDefinition]) {
        var size = 16
        while size < definitions.count * 4 { size *= 2 }
        mask = size - 1
        keys = Array(repeating: nil, count: size)
        values = Array(repeating: nil, count: size)
        for (name, definition) in definitions {
            var name = name
            guard let key = name.withUTF8({ PackedName($0) }) else { continue }
            var slot = key.hash & mask
            while keys[slot] != nil { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = definition
        }
    }

    func lookup(_ key: PackedName) -> PropertyDefinition? {
        var slot = key.hash & mask
        while let k = keys[slot] {
            if k == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
