/// Text made safe for an HTML page: escaped for element content and attribute values, and
/// stripped of URL userinfo and secret query values on the way (`SecretRedaction.text`), so
/// no string the report shows can carry a credential into the page.
enum HTMLText {
    /// `text` escaped for element content or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        let text = SecretRedaction.text(text)
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// An integer with its thousands grouped by a narrow no-break space (`12 345`), which
    /// reads the same in every language.
    static func number(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = n < 0 ? "-" : ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "\u{202F}" }
            out.append(d)
        }
        return out
    }

    /// A duration as a person reads it: `0.42 s`, `12.3 s`, `3 min 12 s`, `2 h 5 min`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(Double(Int((seconds * 100).rounded())) / 100) + " s" }
        if seconds < 60 { return String(Double(Int((seconds * 10).rounded())) / 10) + " s" }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    /// `word` for one, `words` (or `plural`) for any other count, after the count.
    static func count(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        number(n) + " " + (n == 1 ? word : plural ?? word + "s")
    }
}
