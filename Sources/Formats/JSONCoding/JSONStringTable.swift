/// Short strings a parser made lately, by their bytes, for the parsers one thread runs one
/// after another (`JSONParser(bytes:sourceName:line:strings:)`): a calendar's JSON repeats its
/// member names and most short values (`"dateTime"`, `"text"`, `"CONFIRMED"`) in every item,
/// and checking and building such a String again cost more than its parse. A direct-mapped
/// table of a fixed size, so a string found is at most a few word compares away, and memory
/// does not grow. Not thread-safe: one parser at a time uses it.
public final class JSONStringTable {
    /// The longest string kept, in bytes: three words.
    public static let maximumLength = 24
    private static let slots = 1024

    private struct Entry {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        /// -1: empty.
        var length = -1
        var string = ""
    }

    private let entries: UnsafeMutablePointer<Entry>

    /// An empty table.
    public init() {
        entries = .allocate(capacity: Self.slots)
        entries.initialize(repeating: Entry(), count: Self.slots)
    }

    deinit {
        entries.deinitialize(count: Self.slots)
        entries.deallocate()
    }

    /// The string of `bytes` (at most `maximumLength` of them), or nil when they are not valid
    /// UTF-8 (as `JSONStringBytes.string(validating:)`).
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let n = bytes.count
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        if n > 0 {
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: n) }
        }
        var h = (words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &* 0xC2B2_AE3D_27D4_EB4F) ^ (words.2 &* 0x1656_67B1_9E37_79F9) ^ UInt64(n)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        let slot = entries + Int(truncatingIfNeeded: h >> 40) & (Self.slots - 1)
        if slot.pointee.length == n, slot.pointee.words == words { return slot.pointee.string }
        guard let s = JSONStringBytes.string(validating: bytes) else { return nil }
        slot.pointee = Entry(words: words, length: n, string: s)
        return s
    }
}
