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

    /// Every byte of a word set to `byte`.
    @inline(__always)
    private static func spread(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// The high bit of each byte of `word` that is zero, and perhaps of bytes above the lowest
    /// zero one (a borrow runs on): the lowest bit set is always the first zero byte's.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Where the first of the bytes spread in `a`, `b` and `c` (see `spread`) is in
    /// `base[from..<to]`, else `to`; looked for eight bytes at a time. Tags and the text between
    /// them are mostly a few bytes long, where a call to memchr (one per byte looked for) cost
    /// more than the scan.
    @inline(__always)
    private static func first(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var i = from
        while to - i >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let found = zeroBytes(word ^ a) | zeroBytes(word ^ b) | zeroBytes(word ^ c)
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        let (x, y, z) = (UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: b), UInt8(truncatingIfNeeded: c))
        while i < to {
            let byte = base[i]
            if byte == x || byte == y || byte == z { return i }
            i += 1
        }
        return to
    }

    /// Takes the next bytes; false when a construct has grown past the limit. Text is skipped
    /// to the next `<`, and a tag's bytes are counted in runs up to the next quote or `>`,
    /// eight bytes at a time (see `first`): a loop doing all of this byte by byte cost a third
    /// as much as libxml2's parse.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return true }
        let n = bytes.count
        var i = 0
        let open = Self.spread(UInt8(ascii: "<"))
        let close = Self.spread(UInt8(ascii: ">"))
        let quotes = (Self.spread(UInt8(ascii: "\"")), Self.spread(UInt8(ascii: "'")))
        while i < n {
            switch state {
            case .text:
                // Text then a tag without quotes, again and again, is nearly all of a document:
                // that is done in this loop, without going through the states for each tag (a
                // pass through them per tag cost as much as the scans).
                var found = Self.first(open, open, open, base, from: i, to: n)
                while found < n - 1 && base[found + 1] != UInt8(ascii: "!") {
                    let j = Self.first(close, quotes.0, quotes.1, base, from: found + 1, to: n)
                    if j == n || base[j] != UInt8(ascii: ">") { break }
                    if j - found > limit { return false }
                    found = Self.first(open, open, open, base, from: j + 1, to: n)
                }
                if found == n { return true }
                i = found + 1
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
                    let closing = Self.spread(q)
                    let j = Self.first(closing, closing, closing, base, from: i, to: n)
                    if j == n {
                        length += n - i
                        return length <= limit
                    }
                    length += j - i + 1
                    i = j + 1
                    quote = nil
                } else {
                    // The first `>`, `"` or `'`.
                    let j = Self.first(close, quotes.0, quotes.1, base, from: i, to: n)
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
