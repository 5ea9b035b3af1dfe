#if canImport(Glibc)
    import Glibc
#endif

/// Measures each tag, comment and processing instruction as the bytes go to libxml2, and refuses
/// one longer than a limit. libxml2 2.9's push parser looks for the end of an unfinished tag
/// from its start again on every chunk, so a tag of megabytes (one attribute value that never
/// closes) costs time in the square of its length: 3.4 MB took 8 s. Text and CDATA sections
/// are not markup and are bounded by `XMLLimits.maximumTextBytes` instead.
struct MarkupGuard {
    /// `tagStart`: the first bytes of a tag, while they may still spell `<!--` or `<![CDATA[`;
    /// a state of its own so that the rest of a tag is not checked against those prefixes.
    private enum State { case text, tagStart, tag, comment, cdata }

    let limit: Int
    private var state = State.text
    /// Bytes of the construct being read, how many of its first bytes were looked at (to tell
    /// `<!--` and `<![CDATA[`) and whether they still spell either, the quote open in a tag, and
    /// the last two bytes (for `-->` and `]]>`).
    private var length = 0
    private var prefixCount = 0
    private var mayBeComment = false
    private var mayBeCDATA = false
    private var quote: UInt8?
    private var last: (UInt8, UInt8) = (0, 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// The byte at `i` of `<!--` and of `<![CDATA[` (0 past the end), without a global array
    /// (each access to one went through swift_once, per byte of every tag).
    private static func commentOpen(_ i: Int) -> UInt8 {
        switch i {
        case 0: UInt8(ascii: "<")
        case 1: UInt8(ascii: "!")
        case 2, 3: UInt8(ascii: "-")
        default: 0
        }
    }
    private static let commentOpenCount = 4
    private static func cdataOpen(_ i: Int) -> UInt8 {
        switch i {
        case 0: UInt8(ascii: "<")
        case 1: UInt8(ascii: "!")
        case 2, 8: UInt8(ascii: "[")
        case 3: UInt8(ascii: "C")
        case 4: UInt8(ascii: "D")
        case 5, 7: UInt8(ascii: "A")
        case 6: UInt8(ascii: "T")
        default: 0
        }
    }
    private static let cdataOpenCount = 9

    /// Where `byte` first is in `base[from..<to]`, else `to`.
    @inline(__always)
    private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
    }

    /// Takes the next bytes; false when a construct has grown past the limit. Text is skipped
    /// with memchr to the next `<`, and a tag's bytes are counted in runs up to the next quote
    /// or `>`: a loop doing all of this byte by byte cost a third as much as libxml2's parse.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return true }
        let n = bytes.count
        var i = 0
        // The first `>` at or after the tag's bytes scanned so far (n: none in these bytes).
        var nextClose = -1
        while i < n {
            switch state {
            case .text:
                guard let found = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) else { return true }
                i = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
                length = 1
                quote = nil
                // Most tags are an element's: a byte after `<` other than `!` starts neither a
                // comment nor CDATA, and the tag is scanned as one at once.
                if i < n && base[i] != UInt8(ascii: "!") {
                    state = .tag
                    continue
                }
                state = .tagStart
                prefixCount = 1
                mayBeComment = true
                mayBeCDATA = true
            case .tagStart:
                let b = base[i]
                i += 1
                mayBeComment = mayBeComment && prefixCount < Self.commentOpenCount && Self.commentOpen(prefixCount) == b
                mayBeCDATA = mayBeCDATA && Self.cdataOpen(prefixCount) == b
                prefixCount += 1
                if mayBeComment && prefixCount == Self.commentOpenCount {
                    state = .comment
                    last = (UInt8(ascii: "-"), UInt8(ascii: "-"))
                } else if mayBeCDATA && prefixCount == Self.cdataOpenCount {
                    state = .cdata
                    last = (UInt8(ascii: "A"), UInt8(ascii: "["))
                    continue
                } else if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    state = .text
                    continue
                }
                if state == .tagStart && !(mayBeComment || mayBeCDATA) { state = .tag }
                length += 1
                if length > limit { return false }
            case .tag:
                if let q = quote {
                    guard let found = memchr(base + i, Int32(q), n - i) else {
                        length += n - i
                        return length <= limit
                    }
                    let j = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                    length += j - i + 1
                    i = j + 1
                    quote = nil
                } else {
                    // The first `>`, `"` or `'`: memchr for each (the `>` first, the quotes only
                    // before it) cost a third of a loop over a tag's bytes. The `>` found is
                    // kept for the rest of the tag, so a tag of many quoted values is not scanned
                    // to its end once per value.
                    if nextClose < i { nextClose = Self.find(UInt8(ascii: ">"), base, from: i, to: n) }
                    var j = Self.find(UInt8(ascii: "\""), base, from: i, to: nextClose)
                    j = Self.find(UInt8(ascii: "'"), base, from: i, to: j)
                    length += j - i
                    if j == n { return length <= limit }
                    if base[j] == UInt8(ascii: ">") {
                        if length > limit { return false }
                        state = .text
                    } else {
                        quote = base[j]
                        length += 1
                    }
                    i = j + 1
                }
                if length > limit { return false }
            case .comment:
                let b = base[i]
                i += 1
                if b == UInt8(ascii: ">") && last == (UInt8(ascii: "-"), UInt8(ascii: "-")) { state = .text }
                last = (last.1, b)
                length += 1
                if length > limit { return false }
            case .cdata:
                let b = base[i]
                i += 1
                if b == UInt8(ascii: ">") && last == (UInt8(ascii: "]"), UInt8(ascii: "]")) { state = .text }
                last = (last.1, b)
            }
        }
        return true
    }
}
