import CalendarModel

/// What the first bytes of a JSON document show of its outer shape, for telling the JSON
/// formats apart when several claim one extension (`.json`). Parsed, not searched: the members
/// of the root object (or of an array's first object) are read in order until the prefix ends,
/// so a member is found wherever it stands among them, and text inside a string value never
/// passes for a member.
public struct JSONPrefix {
    /// The outermost value's kind; `.other` for a scalar or for text that is no JSON.
    public enum Root: Equatable { case object, array, other }

    /// What the document starts with.
    public private(set) var root: Root = .other
    /// Members read before the prefix ended: the root object's, or, for an array, its first
    /// element's when that is an object. A member whose value runs past the prefix is missing.
    public private(set) var members: [String: JSONValue] = [:]
    /// For an array: its first element, when that is a scalar read in full (jCal's "vcalendar").
    public private(set) var firstElement: JSONValue?

    /// The shape of `prefix`, which may end anywhere, even inside a value.
    public init(_ prefix: [UInt8]) {
        var parser = JSONParser(source: MemoryByteSource(prefix), sourceName: "-", bufferSize: max(1, prefix.count))
        // Every parse error here is the prefix's end or text that is no JSON: what was read stands.
        do {
            switch try parser.peekSignificantByte() {
            case UInt8(ascii: "{"):
                root = .object
                try readMembers(&parser)
            case UInt8(ascii: "["):
                root = .array
                try parser.beginArray()
                guard try parser.hasNextElement() else { return }
                if try parser.peekSignificantByte() == UInt8(ascii: "{") {
                    try readMembers(&parser)
                } else {
                    firstElement = try parser.readValue()
                }
            default:
                return
            }
        } catch {}
    }

    private mutating func readMembers(_ parser: inout JSONParser) throws {
        try parser.beginObject()
        while let key = try parser.nextKey() {
            members[key] = try parser.readValue()
        }
    }

    /// A member's value when it is a string.
    public func string(_ key: String) -> String? {
        members[key]?.stringValue
    }
}
