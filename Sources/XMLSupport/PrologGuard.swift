/// Looks at the bytes before the root element and refuses a document type declaration and any
/// encoding but UTF-8, before libxml2 sees them. A DOCTYPE can only stand in the prolog, and
/// entities can only be declared inside one, so refusing it here shuts out entity expansion
/// (billion laughs) and external entities (XXE) by construction; fixing the encoding to UTF-8
/// keeps the scan honest (an exotic encoding could otherwise spell `<!DOCTYPE` differently).
struct PrologGuard {
    enum Verdict: Equatable {
        case needMore
        /// The root element begins (or the input is something libxml2 will reject itself).
        case accepted
        case refused(XMLError.Kind, String)
    }

    private static let acceptedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii"]

    let limit: Int
    private var bytes: [UInt8] = []
    private(set) var verdict: Verdict = .needMore

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds the next bytes of input; returns the verdict so far.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> Verdict {
        guard verdict == .needMore else { return verdict }
        bytes.append(contentsOf: chunk)
        verdict = Self.scan(bytes, atEnd: false)
        if verdict == .needMore && bytes.count > limit {
            verdict = .refused(.tooLarge, "the prolog is longer than \(limit) bytes before the root element")
        }
        if verdict != .needMore { bytes = [] }
        return verdict
    }

    /// The verdict when the input ends before the root element (libxml2 then reports the
    /// missing root itself, unless something was refused).
    mutating func finish() -> Verdict {
        guard verdict == .needMore else { return verdict }
        var v = Self.scan(bytes, atEnd: true)
        if v == .needMore,
            bytes.contains(where: {
                $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF && $0 != UInt8(ascii: "<")
            })
        {
            v = .accepted
        }
        if v == .needMore {
            let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
            verdict = blank ? .refused(.malformed, "the input is empty: no XML element") : .accepted
        } else {
            verdict = v
        }
        return verdict
    }

    static func scan(_ b: [UInt8], atEnd: Bool) -> Verdict {
        var i = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) {
            return .refused(.unsupportedEncoding, "UTF-16 documents are not accepted; calport reads XML in UTF-8")
        }
        if b.count >= 2, b[0] == 0 || b[1] == 0 {
            return .refused(.unsupportedEncoding, "UTF-16 or UTF-32 documents are not accepted; calport reads XML in UTF-8")
        }
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard needle.count <= b.count else { return nil }
            var k = start
            while k + needle.count <= b.count {
                if b[k] == needle[0] && b[k..<(k + needle.count)].elementsEqual(needle) { return k }
                k += 1
            }
            return nil
        }
        func has(_ text: String, at k: Int) -> Bool? {
            let t = Array(text.utf8)
            if k + t.count > b.count { return b.count - k > 0 && b[k...].elementsEqual(t.prefix(b.count - k)) ? nil : false }
            return b[k..<(k + t.count)].elementsEqual(t)
        }
        while true {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
            guard i < b.count else { return .needMore }
            guard b[i] == UInt8(ascii: "<") else {
                let preview = String(decoding: b[i...].prefix(24).map { $0 == 0x0D || $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
                return .refused(.malformed, "not XML: the content starts with \"\(preview)\"")
            }
            guard i + 1 < b.count else { return .needMore }
            switch b[i + 1] {
            case UInt8(ascii: "?"):
                guard let close = find(Array("?>".utf8), from: i + 2) else { return .needMore }
                let body = String(decoding: b[(i + 2)..<close], as: UTF8.self)
                if body.hasPrefix("xml"), let encoding = declaredEncoding(body),
                    !acceptedEncodings.contains(encoding.lowercased())
                {
                    return .refused(.unsupportedEncoding, "encoding \"\(encoding)\" is not accepted; calport reads XML in UTF-8")
                }
                i = close + 2
            case UInt8(ascii: "!"):
                switch has("<!--", at: i) {
                case true:
                    guard let close = find(Array("-->".utf8), from: i + 4) else { return .needMore }
                    i = close + 3
                    continue
                case nil: return .needMore
                case false: break
                }
                switch has("<!DOCTYPE", at: i) {
                case true:
                    return .refused(
                        .documentType,
                        "document type declarations (<!DOCTYPE>) are refused: they carry entity definitions (entity expansion, external entities)"
                    )
                case nil: return .needMore
                case false: return .accepted
                }
            default:
                return .accepted
            }
        }
    }

    /// The value of `encoding="…"` in an XML declaration's body.
    private static func declaredEncoding(_ body: String) -> String? {
        let b = Array(body.utf8)
        let key = Array("encoding".utf8)
        guard b.count > key.count, let at = (0...(b.count - key.count)).first(where: { b[$0..<($0 + key.count)].elementsEqual(key) })
        else { return nil }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }
        var i = at + key.count
        while i < b.count, isSpace(b[i]) { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        while i < b.count, isSpace(b[i]) { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { return nil }
        let quote = b[i]
        let start = i + 1
        guard let end = b[start...].firstIndex(of: quote) else { return nil }
        return String(decoding: b[start..<end], as: UTF8.self)
    }
}
