/// The bytes `XMLByteWriter` writes, in storage of its own rather than an `[UInt8]`: a writer
/// appends a few bytes at a time, millions of times a run, and an array append checks
/// uniqueness and capacity and calls a generic copy every time. Here an append is a capacity
/// compare and a store or a `memcpy` (the layout of ICS's `ICSOutputBuffer`, which this
/// module cannot import).
///
/// Copies share storage until one of them writes: every writer entry point calls
/// `makeUnique()` once before it appends, so value semantics hold as for an array.
struct XMLOutputBuffer {
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        storage = Storage(capacity: max(capacity, 16))
        base = storage.base
        self.capacity = storage.capacity
    }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    mutating func removeAll() {
        makeUnique()
        count = 0
    }

    @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { reallocate(minimumCapacity: capacity) }
    }

    @inline(__always)
    mutating func reserve(_ n: Int) {
        if _slowPath(capacity &- count < n) { reallocate(minimumCapacity: count + n) }
    }

    @inline(never)
    private mutating func reallocate(minimumCapacity: Int) {
        let new = Storage(capacity: max(minimumCapacity, 2 * capacity))
        new.base.initialize(from: base, count: count)
        storage = new
        base = new.base
        capacity = new.capacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ a: UInt8, _ b: UInt8) {
        reserve(2)
        base[count] = a
        base[count &+ 1] = b
        count &+= 2
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: n)
        count &+= n
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress { append(source, count: bytes.count) }
    }

    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    mutating func append(literal s: StaticString) {
        append(s.utf8Start, count: s.utf8CodeUnitCount)
    }

    /// `n` spaces (indentation).
    @inline(__always)
    mutating func appendSpaces(_ n: Int) {
        reserve(n)
        (base + count).initialize(repeating: 0x20, count: n)
        count &+= n
    }

    /// Appends text escaped for XML character data; returns how many characters were replaced.
    mutating func appendEscaped(_ text: String) -> Int {
        if let replaced = text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) { return replaced }
        var text = text
        return text.withUTF8 { appendEscaped($0) }
    }

    /// Appends UTF-8 escaped for XML character data; returns how many characters were replaced.
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        XMLEscaping.escape(bytes, attribute: false) { append($0) }
    }
}
