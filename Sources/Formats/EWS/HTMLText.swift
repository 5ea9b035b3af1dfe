/// The plain text of an HTML body, for DESCRIPTION (the HTML itself is kept beside it): tags
/// dropped, block ends and `<br>` as line breaks, `<head>`, `<style>` and `<script>` left out,
/// the common entities and character references decoded, runs of blank lines collapsed.
enum HTMLText {
    static func plainText(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        var skipping: String?
        while i < html.endIndex {
            let c = html[i]
            if c == "<" {
                guard let close = html[i...].firstIndex(of: ">") else { break }
                let tag = html[html.index(after: i)..<close]
                let isEnd = tag.hasPrefix("/")
                let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                if let open = skipping {
                    if isEnd && name == open { skipping = nil }
                } else if !isEnd, ["head", "style", "script", "title"].contains(name), !tag.hasSuffix("/") {
                    skipping = name
                } else if name == "br" || (isEnd && ["p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table"].contains(name)) {
                    out.append("\n")
                } else if !isEnd, name == "li" {
                    out.append("- ")
                } else if isEnd, name == "td" {
                    out.append("\t")
                }
                i = html.index(after: close)
                continue
            }
            if skipping != nil {
                i = html.index(after: i)
                continue
            }
            if c == "&", let semicolon = html[i...].prefix(12).firstIndex(of: ";") {
                let entity = String(html[html.index(after: i)..<semicolon])
                if let decoded = decode(entity) {
                    out.append(decoded)
                    i = html.index(after: semicolon)
                    continue
                }
            }
            if c == "\r" || c == "\n" || c == "\t" {
                if let last = out.last, last != " ", last != "\n" { out.append(" ") }
            } else {
                out.append(c)
            }
            i = html.index(after: i)
        }
        // Trim each line and collapse blank runs.
        var lines: [Substring] = []
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            var l = line
            while let f = l.first, f == " " || f == "\u{00A0}" { l = l.dropFirst() }
            while let e = l.last, e == " " || e == "\u{00A0}" { l = l.dropLast() }
            if l.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(l)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    private static func decode(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            var digits = Substring(entity)
            guard digits.first == "#" else { return nil }
            digits = digits.dropFirst()
            let hex = digits.first == "x" || digits.first == "X"
            if hex { digits = digits.dropFirst() }
            guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) else { return nil }
            return String(Character(scalar))
        }
    }
}
