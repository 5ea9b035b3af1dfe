/// Byte-level helpers for JSON strings (RFC 8259 §7) that the parser and `JSONOutput` share:
/// finding where a plain run of string bytes ends, and making a `String` of UTF-8 bytes that
/// must be valid. Strings are most of a calendar's JSON, so both work a word at a time.
public enum JSONStringBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether a word holds a byte that ends a plain run: `"`, `\` or a control byte (< 0x20).
    /// Exact as to "some byte in the word", which is all the callers ask; the byte loop after it
    /// finds which.
    @inline(__always)
    static func hasSpecialByte(_ w: UInt64) -> Bool {
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote
        let zeroInBackslash = (backslash &- ones) & ~backslash
        let control = (w &- ones &* 0x20) & ~w
        return (zeroInQuote | zeroInBackslash | control) & highBits != 0
    }

    @inline(__always)
    static func isSpecial(_ b: UInt8) -> Bool {
        b == 0x22 || b == 0x5C || b < 0x20
    }

    /// The index of the first `"`, `\` or control byte in `bytes[from..<end]`, or `end`.
    @inline(__always)
    public static func plainRunEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var i = from
        while end &- i >= 8 {
            if hasSpecialByte(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { break }
            i &+= 8
        }
        while i < end, !isSpecial(base[i]) { i &+= 1 }
        return i
    }

    /// Copies the plain bytes from `source + i` to `destination + k` a word at a time, while 8
    /// source bytes remain and a word holds no `"`, `\` or control byte, advancing both
    /// offsets; the byte loop after it takes the rest. A word is stored only where 8 source
    /// bytes remain: callers whose room is at least what is left of the source stay in it.
    @inline(__always)
    public static func copyPlainWords(
        _ source: UnsafePointer<UInt8>, _ i: inout Int, end: Int, to destination: UnsafeMutablePointer<UInt8>, _ k: inout Int
    ) {
        while end &- i >= 8 {
            let w = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
            if hasSpecialByte(w) { return }
            UnsafeMutableRawPointer(destination + k).storeBytes(of: w, as: UInt64.self)
            i &+= 8
            k &+= 8
        }
    }

    /// The bytes as a String, or nil when they are not valid UTF-8. `String(validating:)` goes
    /// through generic code (metadata lookups per call, ~15% of a Graph read); this decodes
    /// with the standard library's fast path and checks that nothing was replaced.
    public static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        let n = bytes.count
        var ascii = true
        var i = 0
        while n &- i >= 8 {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & highBits != 0 {
                ascii = false
                break
            }
            i &+= 8
        }
        if ascii {
            while i < n, base[i] < 0x80 { i &+= 1 }
            ascii = i == n
        }
        var s = String(decoding: bytes, as: UTF8.self)
        if ascii { return s }
        // Invalid sequences come back as U+FFFD: the text is valid only when the String's bytes
        // are the input's.
        let same = s.withUTF8 { u in u.count == n && equal(u.baseAddress!, base, n) }
        return same ? s : nil
    }

    /// Whether `n` bytes at `a` and `b` are the same, a word at a time.
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while n &- i >= 8 {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
                return false
            }
            i &+= 8
        }
        while i < n {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }
}
