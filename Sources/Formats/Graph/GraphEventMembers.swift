import JSONCoding

/// What `GraphEventDecoder` looks members up in: a JSON object, or an event's members with the
/// summary `GraphEventMembers` keeps of their names.
protocol GraphMemberLookup {
    /// The value of the first member called `key`.
    subscript(key: String) -> JSONValue? { get }
}

extension JSONObject: GraphMemberLookup {}

/// An event object with a summary of its member names (a bit for each name's length and first
/// byte): the decoder asks an event for ~45 members by name, more than half of which it lacks,
/// and `JSONObject` finds out that one is missing by comparing every member's name (~10% of a
/// Graph body's read-back). A name whose bit is not set is missing; any other is looked up as
/// before, so the first member of a name is still the one found.
struct GraphEventMembers: GraphMemberLookup {
    let object: JSONObject
    private let names: UInt64

    init(_ object: JSONObject) {
        self.object = object
        var names: UInt64 = 0
        for m in object.members { names |= Self.bit(m.key) }
        self.names = names
    }

    private static func bit(_ name: String) -> UInt64 {
        let bytes = name.utf8
        return 1 &<< ((UInt64(truncatingIfNeeded: bytes.count) &* 7 &+ UInt64(bytes.first ?? 0)) & 63)
    }

    subscript(key: String) -> JSONValue? {
        names & Self.bit(key) == 0 ? nil : object[key]
    }
}
