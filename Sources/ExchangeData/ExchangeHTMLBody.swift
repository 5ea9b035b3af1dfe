/// The plain text of an HTML body, for DESCRIPTION (RFC 5545 §3.8.1.5 is plain text): markup
/// and the contents of `<head>`, `<style>` and `<script>` go, block elements and `<br>` become
/// line breaks, runs of white space become one space (as a browser shows them), and character
/// references are decoded. The HTML itself is kept beside it (X-ALT-DESC), so nothing is lost.
/// EWS's `Body BodyType="HTML"` and Graph's `body` with `contentType` html are read alike.
public enum ExchangeHTMLBody {
    private static let blockElements: Set<String> = [
        "br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "pre", "hr",
    ]
    private static let hiddenElements: Set<String> = ["head", "style", "script", "title"]
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
                if hiddenElements.contains(tag.name) {
                    if tag.isEnd { hiddenDepth = max(0, hiddenDepth - 1) } else if !tag.closesItself { hiddenDepth += 1 }
                    continue
                }
                if hiddenDepth == 0, blockElements.contains(tag.name), !(tag.isEnd && tag.name == "br") {
                    if tag.name == "br" || !line.isEmpty { breakLine() }
                }
                continue
            }
            i += 1
            guard hiddenDepth == 0 else { continue }
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
            // A byte of text onto the line (a scalar's later bytes find pendingSpace cleared).
            space()
            line.append(c)
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

    /// What a tag's inside (between `<` and `>`) says: nil for `<!…>` (comments, doctypes).
    private struct Tag {
        /// The element's name, lowercased: the letters and digits after any `/`.
        var name: String
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
            let raw = UnsafeBufferPointer(rebasing: b[nameStart..<nameEnd])
            let name =
                raw.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
                ? String(decoding: raw.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                : String(decoding: raw, as: UTF8.self)
            return Tag(name: name, isEnd: isEnd, closesItself: closesItself)
        }

        /// The inside read by Character, as the byte reading would where it is all ASCII.
        static func read(slow inner: String) -> Tag? {
            if inner.hasPrefix("!") { return nil }
            return Tag(
                name: inner.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased(), isEnd: inner.hasPrefix("/"),
                closesItself: inner.hasSuffix("/"))
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
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
