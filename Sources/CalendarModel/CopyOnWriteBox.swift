/// Heap storage that copies of a value share until one of them changes (copy on write), as
/// Array does. Items pass through every stage of a conversion, and a copy of an event held
/// inline retains each of its strings and arrays; a boxed one retains one reference.
@usableFromInline
final class CopyOnWriteBox<Value: Hashable & Sendable>: Hashable, @unchecked Sendable {
    // Unchecked: the value is only changed after `makeUnique(_:)`, when no other value (and
    // so no other thread) holds the box.
    //
    // The value sits behind a pointer rather than in a stored property: every access to a
    // class's stored property is checked for exclusivity at run time, and readers and writers
    // touch an item's fields hundreds of thousands of times per conversion.
    @usableFromInline let pointer: UnsafeMutablePointer<Value>

    @usableFromInline
    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Copies the box first if another value shares it, so it can be changed.
    @inlinable @inline(__always)
    static func makeUnique(_ box: inout CopyOnWriteBox) {
        if !isKnownUniquelyReferenced(&box) { box = CopyOnWriteBox(box.pointer.pointee) }
    }

    // Equal and hashed by value, so a struct whose only stored property is its box gets value
    // equality from the compiler's synthesized conformance.
    @inlinable
    static func == (lhs: CopyOnWriteBox, rhs: CopyOnWriteBox) -> Bool {
        // Read, not compared through `inout` arguments: boxes are shared across threads (the
        // Graph writer compares events on its workers), and an `inout` access is a write to
        // ThreadSanitizer and to Swift's exclusivity rule, even when nothing is written.
        lhs === rhs || lhs.pointer.pointee == rhs.pointer.pointee
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        pointer.pointee.hash(into: &hasher)
    }
}

/// A value whose stored fields live in a `CopyOnWriteBox` (Event, Reminder, CalendarItem,
/// Participant): its public properties read and change `fields`.
@usableFromInline
protocol CopyOnWriteFields {
    associatedtype Fields: Hashable & Sendable
    var storage: CopyOnWriteBox<Fields> { get set }
}

extension CopyOnWriteFields {
    /// The stored fields, read in place or made unique before a change.
    @inlinable
    var fields: Fields {
        _read { yield storage.pointer.pointee }
        _modify {
            CopyOnWriteBox.makeUnique(&storage)
            yield &storage.pointer.pointee
        }
    }
}
