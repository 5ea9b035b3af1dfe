import CalendarModel

/// A parsed JSON value that keeps what a calendar converter needs and Foundation loses:
/// member order, and numbers as their literal text (so integers stay integers and every
/// double round-trips exactly).
public enum JSONValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// The number exactly as written (`-12`, `3.5e2`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, when this is a number without fraction or exponent that fits an Int.
    public var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The number as a Double, when this is a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The value as compact JSON text, for messages.
    public var description: String {
        String(decoding: JSONOutput.rendered(self, capacity: 256), as: UTF8.self)
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Equality that ignores member order inside objects (JSON's own notion of sameness) and
    /// compares numbers by value, so `1.0` equals `1`.
    public func isSemanticallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || Double(a) == Double(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSemanticallyEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.members.count == b.members.count else { return false }
            return a.members.allSatisfy { member in
                guard let theirs = b[member.key] else { return false }
                return member.value.isSemanticallyEqual(to: theirs)
            }
        default: return false
        }
    }
}

/// A JSON object with its members in document order; lookups are linear because calendar
/// objects have few members and order matters more than speed here.
public struct JSONObject: Equatable, Sendable {
    /// One `"key": value` pair.
    public struct Member: Equatable, Sendable {
        /// The member name.
        public var key: String
        /// The member value.
        public var value: JSONValue

        /// A member called `key`.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in document order.
    public var members: [Member]

    /// An object with `members`, in that order.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of the first member called `key`.
    public subscript(key: String) -> JSONValue? {
        // Decoders look up every member they know by name: comparing lengths first (O(1) for
        // native strings) spares most of the string comparisons. The members are read in
        // place: `first(where:)` copied each one it passed (~30 instructions a member).
        let length = key.utf8.count
        return members.withUnsafeBufferPointer { all in
            for i in all.indices where all[i].key.utf8.count == length && all[i].key == key { return all[i].value }
            return nil
        }
    }

    /// The member names in order.
    public var keys: [String] { members.map(\.key) }

    /// Appends a member (callers keep names unique). Inlinable, as the next: writers build a
    /// body of a few dozen members for every item.
    @inlinable
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Appends a string member when the string is present.
    @inlinable
    public mutating func append(_ key: String, _ value: String?) {
        if let value { members.append(Member(key: key, value: .string(value))) }
    }

    /// Replaces the first member called `key`, or appends it; nil removes it.
    public mutating func set(_ key: String, _ value: JSONValue?) {
        if let i = members.firstIndex(where: { $0.key == key }) {
            if let value { members[i].value = value } else { members.remove(at: i) }
        } else if let value {
            members.append(Member(key: key, value: value))
        }
    }
}
