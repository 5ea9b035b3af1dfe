#if canImport(Glibc)
    import Glibc
#endif

/// Measures each tag, comment and processing instruction as the bytes go to libxml2, and refuses
/// one longer than a limit. libxml2 2.9's push parser looks for the end of an unfinished tag
/// from its start again on every chunk, so a tag of megabytes (one attribute value that never
/// closes) costs time in the square of its length: 3.4 MB took 8 s. Text and CDATA sections
/// are not markup and are bounded by `XMLLimits.maximumTextBytes` instead.
struct MarkupGuard {
    private enum State { case text, tag, comment, cdata }

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

    private static let commentOpen: [UInt8] = Array("<!--".utf8)
    private static let cdataOpen: [UInt8] = Array("<![CDATA[".utf8)

    /// Takes the next bytes; false when a construct has grown past the limit. Text is skipped
    /// with memchr to the next `<`, and a tag's bytes are counted in runs up to the next quote
    /// or `>`: a loop doing all of this byte by byte cost a third as much as libxml2's parse.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return true }
        let n = bytes.count
        var i = 0
        while i < n {
            switch state {
            case .text:
                guard let found = memchr(base + i, Int32(UInt8(ascii: "<")), n - i) else { return true }
                i = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
                state = .tag
                length = 1
                prefixCount = 1
                // Only `<!` may open a comment or CDATA: any other tag (nearly every one) skips
                // the byte-by-byte look at its first bytes and is counted in runs at once.
                let opensDeclaration = i >= n || base[i] == UInt8(ascii: "!")
                mayBeComment = opensDeclaration
                mayBeCDATA = opensDeclaration
                quote = nil
            case .tag where (mayBeComment || mayBeCDATA) && prefixCount < Self.cdataOpen.count:
                let b = base[i]
                i += 1
                mayBeComment = mayBeComment && prefixCount < Self.commentOpen.count && Self.commentOpen[prefixCount] == b
                mayBeCDATA = mayBeCDATA && Self.cdataOpen[prefixCount] == b
                prefixCount += 1
                if mayBeComment && prefixCount == Self.commentOpen.count {
                    state = .comment
                    last = (UInt8(ascii: "-"), UInt8(ascii: "-"))
                } else if mayBeCDATA && prefixCount == Self.cdataOpen.count {
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
                    var j = i
                    while j < n {
                        let c = base[j]
                        if c == UInt8(ascii: ">") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { break }
                        j += 1
                    }
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
