/// Heap storage that copies of a value share until one of them changes (copy on write), as
/// Array does. Items pass through every stage of a conversion, and a copy of an event held
/// inline retains each of its strings and arrays; a boxed one retains one reference.
@usableFromInline
final class CopyOnWriteBox<Value: Hashable & Sendable>: @unchecked Sendable {
    // Unchecked: the box is only changed after `makeUnique(_:)`, when no other
    // value (and so no other thread) holds it.
    @usableFromInline var value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }

    /// Copies the box first if another value shares it, so it can be changed.
    @inlinable @inline(__always)
    static func makeUnique(_ box: inout CopyOnWriteBox) {
        if !isKnownUniquelyReferenced(&box) { box = CopyOnWriteBox(box.value) }
    }
}
