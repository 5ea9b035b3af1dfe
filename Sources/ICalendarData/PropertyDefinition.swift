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
        let info = info(name)
        return info.defaultType == nil ? nil : orderedDefinitions[Int(info.index)]
    }

    /// What readers need to know about a property name, looked up once per content line.
    /// Names go through a small open-addressing table keyed by their bytes, which costs a
    /// fraction of a Dictionary<String, …> lookup (no SipHash, no String comparison).
    public static func info(_ name: String) -> PropertyInfo {
        names.lookup(name) ?? .unknown
    }

    /// The default value type of a property name, nil for X- and unknown names (as
    /// `info(name).defaultType`), for writers: a long name is rejected by its length, without
    /// copying the entries of the names it is compared with.
    public static func defaultType(_ name: String) -> ValueType? {
        let count = name.utf8.count
        guard count > 16 else { return info(name).defaultType }
        for i in longDefinitions.indices where longDefinitions[i].count == count {
            if longDefinitions[i].name == name { return longDefinitions[i].type }
        }
        return nil
    }

    private static let longDefinitions: [(name: String, count: Int, type: ValueType)] = definitions.compactMap {
        $0.key.utf8.count > 16 ? ($0.key, $0.key.utf8.count, $0.value.defaultType) : nil
    }

    /// The entry and the shared name String for a name of up to 16 bytes the table knows, from
    /// the bytes a reader holds: no String is made for a known name.
    public static func info(nameBytes: UnsafeBufferPointer<UInt8>) -> (info: PropertyInfo, name: String)? {
        names.lookup(bytes: nameBytes).map { ($0.value, $0.name) }
    }

    /// The definitions in a fixed order, for `PropertyInfo` to point into.
    private static let orderedNames = Array(definitions.keys)
    private static let orderedDefinitions = orderedNames.map { definitions[$0]! }

    /// Every name the definitions or the mapper's typed fields know.
    private static let names: NameIndex<PropertyInfo> = {
        var entries: [String: PropertyInfo] = [:]
        for (position, name) in orderedNames.enumerated() {
            entries[name] = PropertyInfo(id: PropertyID(name: name), index: UInt16(position), definition: definitions[name])
        }
        for id in PropertyID.allCases where id != .other && entries[id.rawValue] == nil {
            entries[id.rawValue] = PropertyInfo(id: id, index: 0, definition: nil)
        }
        return NameIndex(entries)
    }()
}

/// The properties the typed model has fields for, as small integers: the mapper dispatches on
/// these rather than on a chain of String comparisons per property.
public enum PropertyID: String, CaseIterable, Sendable {
    case uid = "UID", summary = "SUMMARY", dtstart = "DTSTART", location = "LOCATION", description = "DESCRIPTION"
    case url = "URL", status = "STATUS", classification = "CLASS", priority = "PRIORITY", sequence = "SEQUENCE"
    case created = "CREATED", lastModified = "LAST-MODIFIED", dtstamp = "DTSTAMP", geo = "GEO"
    case recurrenceID = "RECURRENCE-ID", categories = "CATEGORIES", organizer = "ORGANIZER", attendee = "ATTENDEE"
    case rrule = "RRULE", rdate = "RDATE", exdate = "EXDATE", structuredLocation = "X-APPLE-STRUCTURED-LOCATION"
    case dtend = "DTEND", duration = "DURATION", transp = "TRANSP", due = "DUE", completed = "COMPLETED"
    case percentComplete = "PERCENT-COMPLETE", action = "ACTION", trigger = "TRIGGER", repeatCount = "REPEAT"
    case proximity = "X-APPLE-PROXIMITY"
    /// Any other name.
    case other = ""

    init(name: String) { self = PropertyID(rawValue: name) ?? .other }
}

/// A property name's entry in the table: its id and, for names with a definition, the value
/// facts readers need. Holds no references, so copying it costs nothing.
public struct PropertyInfo: Sendable {
    public var id: PropertyID
    /// The default value type; nil for X- and unknown names.
    public var defaultType: ValueType?
    /// Whether VALUE=DATE is allowed (what a bare 8-digit DATE-TIME value is read as).
    public var allowsDate: Bool
    public var isList: Bool
    public var isStructured: Bool
    fileprivate var index: UInt16

    fileprivate init(id: PropertyID, index: UInt16, definition: PropertyDefinition?) {
        self.id = id
        self.index = index
        defaultType = definition?.defaultType
        allowsDate = definition?.allowedTypes.contains(.date) ?? false
        isList = definition?.isList ?? false
        isStructured = definition?.isStructured ?? false
    }

    /// The entry of a name the table does not know.
    public static let unknown = PropertyInfo(id: .other, index: 0, definition: nil)
}

/// The participant parameters the typed model gives fields of their own (RFC 5545 §3.2), as
/// small integers, for the same reason as `PropertyID`.
public enum ParameterID: String, CaseIterable, Sendable {
    case cn = "CN", role = "ROLE", partstat = "PARTSTAT", cutype = "CUTYPE", rsvp = "RSVP", sentBy = "SENT-BY"
    case dir = "DIR", language = "LANGUAGE", email = "EMAIL", delegatedTo = "DELEGATED-TO"
    case delegatedFrom = "DELEGATED-FROM", member = "MEMBER"
    /// Any other name.
    case other = ""

    /// The id of an upper-case parameter name. A switch on the length first, then one or two
    /// comparisons of small Strings: this runs for every parameter of every participant, and
    /// costs a fraction of a table lookup.
    public init(name: String) {
        switch name.utf8.count {
        case 2: self = name == "CN" ? .cn : .other
        case 3: self = name == "DIR" ? .dir : .other
        case 4: self = name == "ROLE" ? .role : name == "RSVP" ? .rsvp : .other
        case 5: self = name == "EMAIL" ? .email : .other
        case 6: self = name == "CUTYPE" ? .cutype : name == "MEMBER" ? .member : .other
        case 7: self = name == "SENT-BY" ? .sentBy : .other
        case 8: self = name == "PARTSTAT" ? .partstat : name == "LANGUAGE" ? .language : .other
        case 12: self = name == "DELEGATED-TO" ? .delegatedTo : .other
        case 14: self = name == "DELEGATED-FROM" ? .delegatedFrom : .other
        default: self = .other
        }
    }

    /// The shared String for a parameter name RFC 5545 or RFC 7986 defines, from its bytes: a
    /// reader then makes no String for it.
    public static func knownName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        index.lookup(bytes: bytes)?.name
    }

    /// The participant parameters and the other names of RFC 5545 §3.2 and RFC 7986 §6 (the
    /// others map to `.other`).
    private static let index: NameIndex<ParameterID> = {
        var entries = Dictionary(uniqueKeysWithValues: allCases.filter { $0 != .other }.map { ($0.rawValue, $0) })
        for name in [
            "ALTREP", "ENCODING", "FBTYPE", "FMTTYPE", "RANGE", "RELATED", "RELTYPE", "TZID", "VALUE", "DISPLAY", "FEATURE",
            "LABEL", "X-TITLE", "X-APPLE-RADIUS",
        ] {
            entries[name] = .other
        }
        return NameIndex(entries)
    }()
}

/// A name of up to 16 bytes packed into two words, with its length (a trailing NUL would
/// otherwise pack like no byte at all).
struct PackedName: Equatable {
    var low: UInt64
    var high: UInt64
    var count: Int

    /// What marks a free slot: no name is empty.
    static let empty = PackedName(low: 0, high: 0, count: 0)

    init(low: UInt64, high: UInt64, count: Int) {
        self.low = low
        self.high = high
        self.count = count
    }

    @inline(__always)
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16, bytes.count > 0 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        low = words.0
        high = words.1
        count = bytes.count
    }

    var hash: Int { Int(truncatingIfNeeded: ((low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)) >> 20) }
}

/// Open addressing over packed names, built once from a table; names over 16 bytes (a few X-
/// names) are compared one by one. A class, so that a lookup borrows the shared table rather
/// than copying (retaining) its arrays.
final class NameIndex<Value>: @unchecked Sendable {
    private let keys: [PackedName]
    private let values: [Value?]
    /// The names as Strings, so a reader that has the bytes can share one instead of making one.
    private let names: [String]
    private let mask: Int
    private let longNames: [(name: String, value: Value)]

    init(_ entries: [String: Value]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        mask = size - 1
        var keys = Array(repeating: PackedName.empty, count: size)
        var values = [Value?](repeating: nil, count: size)
        var names = [String](repeating: "", count: size)
        var long: [(name: String, value: Value)] = []
        for (name, value) in entries {
            var bytes = name
            guard let key = bytes.withUTF8({ PackedName($0) }) else {
                long.append((name, value))
                continue
            }
            var slot = key.hash & (size - 1)
            while keys[slot] != .empty { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
            values[slot] = value
            names[slot] = name
        }
        self.keys = keys
        self.values = values
        self.names = names
        longNames = long
    }

    /// The value for an exact name.
    @inline(__always)
    func lookup(_ name: String) -> Value? {
        let count = name.utf8.count
        if count > 16 {
            for entry in longNames where entry.name.utf8.count == count && entry.name == name { return entry.value }
            return nil
        }
        var name = name
        return name.withUTF8 { bytes in slot(bytes).map { values[$0]! } }
    }

    /// The value and the name as a String for a name of up to 16 bytes.
    @inline(__always)
    func lookup(bytes: UnsafeBufferPointer<UInt8>) -> (value: Value, name: String)? {
        slot(bytes).map { (values[$0]!, names[$0]) }
    }

    @inline(__always)
    private func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let key = PackedName(bytes) else { return nil }
        var slot = key.hash & mask
        while true {
            let k = keys[slot]
            if k == key { return slot }
            if k.count == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }
}
