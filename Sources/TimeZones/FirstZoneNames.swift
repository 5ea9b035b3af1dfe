/// The first few zone names a run meets, with what each resolves to. A file names a handful of
/// zones, and every time of every item names one of them again: a look through the first few
/// (lengths first) costs a fraction of a hashed look-up, let alone resolving the name. Not
/// locked: its owner guards it (`TimeZoneResolver`, the Graph writer's memos).
public struct FirstZoneNames<Value> {
    /// Names remembered; a name met after them is looked up or resolved anew each time.
    public let capacity: Int
    @usableFromInline var known: [(name: String, value: Value)] = []

    /// An empty list that remembers at most `capacity` names.
    public init(capacity: Int) { self.capacity = capacity }

    /// What `name` was remembered with, nil if it was not.
    @inlinable public func value(_ name: String) -> Value? {
        let length = name.utf8.count
        for i in known.indices where known[i].name.utf8.count == length && known[i].name == name { return known[i].value }
        return nil
    }

    /// Remembers `value` for `name` while there is room (the caller has just looked it up and
    /// not found it).
    @inlinable public mutating func remember(_ name: String, _ value: Value) {
        if known.count < capacity { known.append((name, value)) }
    }
}

extension FirstZoneNames: Sendable where Value: Sendable {}
