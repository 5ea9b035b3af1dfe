import CalendarModel

/// The bytes `ICSContentLines` writes, in storage of its own rather than an `[UInt8]`: the
/// writer appends a few bytes at a time, hundreds of thousands of times a run, and an array
/// append checks uniqueness and capacity and calls a generic copy every time (about a hundred
/// instructions). Here an append is a capacity compare and a store or a `memcpy`.
///
/// Copies share storage until one of them writes: every writer entry point calls
/// `makeUnique()` once before it appends, so value semantics hold as for an array.
struct ICSOutputBuffer: UTF8Output {
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
    /// `storage.base` and `storage.capacity`, held here so that an append reads no class field.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 1 << 17) {
        storage = Storage(capacity: max(capacity, 16))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// The bytes written so far, as an array (tests, diagnostics).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the bytes written so far.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes written, keeping the storage.
    mutating func removeAll() {
        makeUnique()
        count = 0
    }

    /// Gives this buffer storage of its own if a copy shares it; the writer calls it once per
    /// line, before any append.
    @inline(__always)
    mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { reallocate(minimumCapacity: capacity) }
    }

    /// Makes room for `n` more bytes.
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

    /// Appends `n` bytes from `source`.
    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        reserve(n)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: n)
        count &+= n
    }

    /// Appends a string's UTF-8 in one copy.
    @inline(__always)
    mutating func append(_ s: String) {
        // Native Strings (all of them on Linux) are contiguous; the fallback never runs there.
        if s.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var s = s
            s.withUTF8 { append($0) }
        }
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress { append(source, count: bytes.count) }
    }

    /// Appends an ASCII literal (names and words the writer supplies).
    @inline(__always)
    mutating func append(literal s: StaticString) {
        append(s.utf8Start, count: s.utf8CodeUnitCount)
    }

    /// Ends the line that began at `start`: folds it at 75 octets, backing up to the start of
    /// a UTF-8 sequence so none is split, and adds CRLF. `cuts` is scratch space.
    mutating func endLine(from start: Int, cuts: inout [Int]) {
        let end = count
        if end - start > 75 {
            // Folded in place: find the cuts, make room for a CRLF and space for each, then
            // move the pieces after each cut right, the last first, so no piece is overwritten
            // before it has moved.
            cuts.removeAll(keepingCapacity: true)
            var from = start
            var limit = 75
            while end - from > limit {
                var cut = from + limit
                while cut > from + 1, base[cut] & 0xC0 == 0x80 { cut -= 1 }
                cuts.append(cut)
                from = cut
                limit = 74  // the leading space counts toward the next line's 75
            }
            reserve(3 * cuts.count + 2)
            // Every index below is within the line, which is within the reserved storage.
            var pieceEnd = end
            for k in stride(from: cuts.count, to: 0, by: -1) {
                let cut = cuts[k - 1]
                let shift = 3 * k
                UnsafeMutableRawPointer(base + cut + shift).copyMemory(from: base + cut, byteCount: pieceEnd - cut)
                base[cut + shift - 3] = 0x0D
                base[cut + shift - 2] = 0x0A
                base[cut + shift - 1] = 0x20
                pieceEnd = cut
            }
            count += 3 * cuts.count
        }
        append(0x0D, 0x0A)
    }
}
