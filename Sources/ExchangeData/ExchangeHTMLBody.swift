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

    /// The scalars as a String, through their UTF-8: appending to a `UnicodeScalarView` costs
    /// hundreds of instructions a scalar.
    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for c in scalars { UTF8.encode(c) { bytes.append($0) } }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text a reader sees in `html`.
    public static func plainText(_ html: String) -> String {
        var lines: [String] = []
        // The line being read, as UTF-8 (a String is made once it ends).
        var line: [UInt8] = []
        var pendingSpace = false
        var hiddenDepth = 0
        let scalars = Array(html.unicodeScalars)
        var i = 0
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
        while i < scalars.count {
            let c = scalars[i]
            if c == "<" {
                guard let close = scalars[i...].firstIndex(of: ">") else { break }
                let inner = string(scalars[(i + 1)..<close])
                i = close + 1
                if inner.hasPrefix("!") { continue }
                let isEnd = inner.hasPrefix("/")
                let name = inner.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                if hiddenElements.contains(name) {
                    if isEnd { hiddenDepth = max(0, hiddenDepth - 1) } else if !inner.hasSuffix("/") { hiddenDepth += 1 }
                    continue
                }
                if hiddenDepth == 0, blockElements.contains(name), !(isEnd && name == "br") {
                    if name == "br" || !line.isEmpty { breakLine() }
                }
                continue
            }
            i += 1
            guard hiddenDepth == 0 else { continue }
            if c == "&" {
                if let semi = scalars[i..<min(scalars.count, i + 10)].firstIndex(of: ";") {
                    let name = string(scalars[i..<semi])
                    if let decoded = entity(name) {
                        append(decoded)
                        i = semi + 1
                        continue
                    }
                }
                append("&")
                continue
            }
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                pendingSpace = true
                continue
            }
            // One scalar onto the line, as `append` does for text, without a String per scalar.
            space()
            UTF8.encode(c) { line.append($0) }
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
