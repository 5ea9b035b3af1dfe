/// Measures each tag, comment and processing instruction as the bytes go to libxml2, and refuses
/// one longer than a limit. libxml2 2.9's push parser looks for the end of an unfinished tag
/// from its start again on every chunk, so a tag of megabytes (one attribute value that never
/// closes) costs time in the square of its length: 3.4 MB took 8 s. Text and CDATA sections
/// are not markup and are bounded by `XMLLimits.maximumTextBytes` instead.
struct MarkupGuard {
    private enum State { case text, tag, comment, cdata }

    let limit: Int
    private var state = State.text
    /// Bytes of the construct being read, its first bytes (to tell `<!--` and `<![CDATA[`), the
    /// quote open in a tag, and the last two bytes (for `-->` and `]]>`).
    private var length = 0
    private var prefix: [UInt8] = []
    private var quote: UInt8?
    private var last: (UInt8, UInt8) = (0, 0)

    init(limit: Int) {
        self.limit = limit
    }

    private static let commentOpen = Array("<!--".utf8)
    private static let cdataOpen = Array("<![CDATA[".utf8)

    /// Takes the next bytes; false when a construct has grown past the limit.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes {
            defer { last = (last.1, b) }
            switch state {
            case .text:
                if b == UInt8(ascii: "<") {
                    state = .tag
                    length = 1
                    prefix = [b]
                    quote = nil
                }
                continue
            case .cdata:
                if b == UInt8(ascii: ">") && last == (UInt8(ascii: "]"), UInt8(ascii: "]")) { state = .text }
                continue
            case .comment:
                if b == UInt8(ascii: ">") && last == (UInt8(ascii: "-"), UInt8(ascii: "-")) { state = .text }
            case .tag:
                if prefix.count < Self.cdataOpen.count {
                    prefix.append(b)
                    if prefix == Self.commentOpen {
                        state = .comment
                    } else if prefix == Self.cdataOpen {
                        state = .cdata
                        continue
                    }
                }
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") && state == .tag {
                    state = .text
                    continue
                }
            }
            length += 1
            if length > limit { return false }
        }
        return true
    }
}
