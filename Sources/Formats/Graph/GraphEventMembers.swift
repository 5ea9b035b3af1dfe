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
/// Graph body's read-back). A name whose bit is not set is missing. For the others, the
/// position of the first member with that bit is kept: the member there is the first of the
/// name asked for when its name is that name (an earlier one would have the same bit), which
/// is what most look-ups find; any other name is looked up as before.
struct GraphEventMembers: GraphMemberLookup {
    let object: JSONObject
    private let names: UInt64
    /// Per bit, the position of the first member with it (`unknown` past 254 members).
    private let firstMember: InlineArray<64, UInt8>
    private static let unknown: UInt8 = 255

    init(_ object: JSONObject) {
        self.object = object
        var names: UInt64 = 0
        var firstMember = InlineArray<64, UInt8>(repeating: Self.unknown)
        for (i, m) in object.members.enumerated() {
            let bucket = Self.bucket(m.key)
            let bit: UInt64 = 1 &<< bucket
            if names & bit == 0 {
                names |= bit
                if i < Int(Self.unknown) { firstMember[Int(bucket)] = UInt8(i) }
            }
        }
        self.names = names
        self.firstMember = firstMember
    }

    private static func bucket(_ name: String) -> UInt64 {
        // The first byte by index: `first` went through Collection's generic getter (~25
        // instructions, for every member of every body and every look-up).
        let bytes = name.utf8
        let first = bytes.isEmpty ? 0 : bytes[bytes.startIndex]
        return (UInt64(truncatingIfNeeded: bytes.count) &* 7 &+ UInt64(first)) & 63
    }

    subscript(key: String) -> JSONValue? {
        let bucket = Self.bucket(key)
        guard names & (1 &<< bucket) != 0 else { return nil }
        let first = firstMember[Int(bucket)]
        if first != Self.unknown {
            let found: JSONValue? = object.members.withUnsafeBufferPointer { all in
                all[Int(first)].key == key ? all[Int(first)].value : nil
            }
            if let found { return found }
        }
        return object[key]
    }
}
