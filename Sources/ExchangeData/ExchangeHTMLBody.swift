/// The plain text of an HTML body, for DESCRIPTION (RFC 5545 §3.8.1.5 is plain text): markup
/// and the contents of `<head>`, `<style>` and `<script>` go, block elements and `<br>` become
/// line breaks, runs of white space become one space (as a browser shows them), and character
/// references are decoded. The HTML itself is kept beside it (X-ALT-DESC), so nothing is lost.
/// EWS's `Body BodyType="HTML"` and Graph's `body` with `contentType` html are read alike.
public enum ExchangeHTMLBody {
    private static let blockElements: [StaticString] = [
        "br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "pre", "hr",
    ]
    private static let hiddenElements: [StaticString] = ["head", "style", "script", "title"]
    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
        "ndash": "–", "mdash": "—", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "euro": "€",
    ]

    /// The text a reader sees in `html`.
    ///
    /// Read on the UTF-8 bytes: markup, references and white space are ASCII, and no byte of a
    /// multi-byte scalar is, so the bytes between them are copied as they stand. An array of
    /// scalars, a String per tag and Character-level name matching cost ~250k instructions a
    /// body (a tenth of reading an EWS item); a tag whose name meets a non-ASCII scalar is
    /// still read by Character (`Tag.read(slow:)`), where grapheme clusters can change it.
    /// Runs of text are copied whole, and tag names are told by their bytes (a String and a
    /// hashed look-up per tag, and a check per byte appended, were most of ~70k instructions
    /// for a 900-byte body, which the Graph writer reads back for every HTML body).
    public static func plainText(_ html: String) -> String {
        var html = html
        return html.withUTF8 { plainText(bytes: $0) }
    }

    private static func plainText(bytes b: UnsafeBufferPointer<UInt8>) -> String {
        var lines: [String] = []
        // The line being read, as UTF-8 (a String is made once it ends).
        var line: [UInt8] = []
        var pendingSpace = false
        var hiddenDepth = 0
        var i = 0
        let n = b.count
        func breakLine() {
            lines.append(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
            pendingSpace = false
        }
        func space() {
            if pendingSpace && !line.isEmpty { line.append(0x20) }
            pendingSpace = false
        }
        func append(_ s: String) {
            space()
            line.append(contentsOf: s.utf8)
        }
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "<") {
                var close = i + 1
                while close < n && b[close] != UInt8(ascii: ">") { close += 1 }
                guard close < n else { break }
                let tag = Tag.read(b, from: i + 1, to: close)
                i = close + 1
                guard let tag else { continue }
                switch tag.kind {
                case .hidden:
                    if tag.isEnd { hiddenDepth = max(0, hiddenDepth - 1) } else if !tag.closesItself { hiddenDepth += 1 }
                case .lineBreak:
                    if hiddenDepth == 0, !tag.isEnd { breakLine() }
                case .block:
                    if hiddenDepth == 0, !line.isEmpty { breakLine() }
                case .other: break
                }
                continue
            }
            guard hiddenDepth == 0 else {
                // Hidden text: nothing to the next tag counts.
                i += 1
                while i < n && b[i] != UInt8(ascii: "<") { i += 1 }
                continue
            }
            i += 1
            if c == UInt8(ascii: "&") {
                // `;` within the next ten scalars.
                var k = i
                var scalars = 0
                var semi: Int?
                while k < n {
                    if b[k] & 0xC0 != 0x80 {
                        if scalars == 10 { break }
                        scalars += 1
                        if b[k] == UInt8(ascii: ";") {
                            semi = k
                            break
                        }
                    }
                    k += 1
                }
                if let semi, let decoded = entity(String(decoding: UnsafeBufferPointer(rebasing: b[i..<semi]), as: UTF8.self)) {
                    append(decoded)
                    i = semi + 1
                    continue
                }
                append("&")
                continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                pendingSpace = true
                continue
            }
            // Text onto the line, to the next byte that means something else (byte by byte, a
            // scalar's later bytes found pendingSpace cleared).
            var end = i
            while end < n, !Self.endsText(b[end]) { end += 1 }
            space()
            line.append(contentsOf: UnsafeBufferPointer(rebasing: b[(i - 1)..<end]))
            i = end
        }
        if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        // At most one empty line in a row, none at either end.
        var result: [String] = []
        for l in lines.map({ $0.trimmingSpaces }) {
            if l.isEmpty && (result.last?.isEmpty ?? true) { continue }
            result.append(l)
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.joined(separator: "\n")
    }

    /// Whether a byte ends a run of text: markup, a reference, white space.
    private static func endsText(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "<") || c == UInt8(ascii: "&") || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    /// What a tag's inside (between `<` and `>`) says: nil for `<!…>` (comments, doctypes).
    private struct Tag {
        /// What the element does to the text.
        enum Kind {
            /// Its contents are not shown (`hiddenElements`).
            case hidden
            /// `<br>`: a line ends.
            case lineBreak
            /// A block (`blockElements`): a line ends unless none began.
            case block
            case other

            /// The kind of the element of this lower-cased name.
            init(name: UnsafeBufferPointer<UInt8>) {
                func named(_ n: StaticString) -> Bool {
                    guard n.utf8CodeUnitCount == name.count else { return false }
                    for k in 0..<name.count where n.utf8Start[k] != name[k] { return false }
                    return true
                }
                if name.isEmpty {
                    self = .other
                } else if ExchangeHTMLBody.hiddenElements.contains(where: named) {
                    self = .hidden
                } else if named("br") {
                    self = .lineBreak
                } else if ExchangeHTMLBody.blockElements.contains(where: named) {
                    self = .block
                } else {
                    self = .other
                }
            }
        }

        /// The element's kind, from its name: the letters and digits after any `/`, lower-cased.
        var kind: Kind
        var isEnd: Bool
        /// Ends with `/` (`<br/>`).
        var closesItself: Bool

        /// Reads the ASCII bytes it needs; where a non-ASCII byte stands next to them (a
        /// combining mark joins the character before it, a letter may be one of the name),
        /// the inside is read as Characters instead (`read(slow:)`).
        static func read(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Tag? {
            func ascii(_ k: Int) -> Bool { k >= end || b[k] < 0x80 }
            var j = start
            while j < end && b[j] == UInt8(ascii: "/") { j += 1 }
            let nameStart = j
            while j < end, Self.isAlphanumeric(b[j]) { j += 1 }
            let nameEnd = j
            guard ascii(start + 1), ascii(nameEnd), end - 1 <= start || ascii(end - 2) else {
                return read(slow: String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self))
            }
            if start < end && b[start] == UInt8(ascii: "!") { return nil }
            let isEnd = start < end && b[start] == UInt8(ascii: "/")
            let closesItself = end > start && b[end - 1] == UInt8(ascii: "/")
            // No element name is longer than 10 letters: a longer name is none of them.
            let raw = UnsafeBufferPointer(rebasing: b[nameStart..<nameEnd])
            var lowered: (UInt64, UInt64) = (0, 0)
            let kind = withUnsafeMutableBytes(of: &lowered) { buffer -> Kind in
                guard raw.count <= buffer.count else { return .other }
                for (k, c) in raw.enumerated() { buffer[k] = c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
                return Kind(name: UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[..<raw.count]))
            }
            return Tag(kind: kind, isEnd: isEnd, closesItself: closesItself)
        }

        /// The inside read by Character, as the byte reading would where it is all ASCII.
        static func read(slow inner: String) -> Tag? {
            if inner.hasPrefix("!") { return nil }
            var name = inner.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            return Tag(kind: name.withUTF8 { Kind(name: $0) }, isEnd: inner.hasPrefix("/"), closesItself: inner.hasSuffix("/"))
        }

        private static func isAlphanumeric(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        }
    }

    private static func entity(_ name: String) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return namedEntities[name]
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        // A space Character at either end is a space byte there: most lines have none.
        guard utf8.first == 0x20 || utf8.last == 0x20 else { return self }
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
