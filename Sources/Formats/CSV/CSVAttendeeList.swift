import CalendarModel

/// The attendee cells of the Outlook layout: entries separated by `;`, each `Name <address>`,
/// `"Name; with semicolon" <address>` or a bare address. Outlook's own exports often hold
/// display names only; such an entry has a name and no address.
enum CSVAttendeeList {
    /// One entry of a cell.
    struct Entry: Equatable {
        var name: String?
        var address: String?
    }

    /// The entries of a cell, in order; empty entries are dropped.
    static func parse(_ text: String) -> [Entry] {
        // Every Character but a separator belongs to the entry being read, so an entry is the
        // slice between two separators, not rebuilt Character by Character.
        var entries: [Entry] = []
        var start = text.startIndex
        var inQuotes = false
        var inAngle = false
        var escaped = false
        /// One Character (or byte), given as the ASCII code of the quoting or separating
        /// character it is, else 0.
        func step(_ code: UInt8, at i: String.Index, next: String.Index) {
            if escaped {
                escaped = false
                return
            }
            switch code {
            case UInt8(ascii: "\\") where inQuotes: escaped = true
            case UInt8(ascii: "\""): inQuotes.toggle()
            case UInt8(ascii: "<") where !inQuotes: inAngle = true
            case UInt8(ascii: ">") where !inQuotes: inAngle = false
            case UInt8(ascii: ";"), 0x0A, 0x0D:
                guard !inQuotes && !inAngle else { break }
                if let entry = entry(text[start..<i]) { entries.append(entry) }
                start = next
            default: break
            }
        }
        if bytesDecide(text) {
            let bytes = text.utf8
            var i = bytes.startIndex
            while i != bytes.endIndex {
                let next = bytes.index(after: i)
                step(bytes[i], at: i, next: next)
                i = next
            }
        } else {
            var i = text.startIndex
            while i != text.endIndex {
                let next = text.index(after: i)
                step(code(of: text[i]), at: i, next: next)
                i = next
            }
        }
        if let entry = entry(text[start...]) { entries.append(entry) }
        return entries
    }

    /// The ASCII code of a quoting or separating Character (U+037E GREEK QUESTION MARK counts as
    /// `;`, as Swift compares Characters), else 0.
    private static func code(of c: Character) -> UInt8 {
        switch c {
        case "\\": UInt8(ascii: "\\")
        case "\"": UInt8(ascii: "\"")
        case "<": UInt8(ascii: "<")
        case ">": UInt8(ascii: ">")
        case ";": UInt8(ascii: ";")
        case "\n": 0x0A
        case "\r": 0x0D
        default: 0
        }
    }

    /// Whether reading the cell byte by byte gives what reading it Character by Character does:
    /// each quoting or separating byte has ASCII bytes (or the text's ends) on both sides, so it
    /// is a Character of its own, and there is no CR (CR LF is one Character, neither CR nor LF)
    /// and no 0xCD (the lead byte of U+037E).
    private static func bytesDecide(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var afterSpecial = false
        for b in text.utf8 {
            if b == 0xCD || b == 0x0D || (afterSpecial && b >= 0x80) { return false }
            switch b {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ";"), 0x0A: afterSpecial = true
            default: afterSpecial = false
            }
            if afterSpecial && previous >= 0x80 { return false }
            previous = b
        }
        return true
    }

    private static func entry(_ raw: Substring) -> Entry? {
        let text = String(raw).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if let open = text.lastIndex(ofASCII: UInt8(ascii: "<")), text.hasSuffix(">") {
            // Both are one byte: '>' ends the text (hasSuffix compares Characters).
            let inside = text[text.utf8.index(after: open)..<text.utf8.index(before: text.endIndex)]
            let address = String(inside).trimmingCharacters(in: .whitespaces)
            let name = unquote(String(text[..<open]).trimmingCharacters(in: .whitespaces))
            return Entry(name: name.isEmpty ? nil : name, address: address.isEmpty ? nil : address)
        }
        let bare = unquote(text)
        if isAddress(bare) { return Entry(name: nil, address: bare) }
        return Entry(name: bare, address: nil)
    }

    private static func unquote(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var result = ""
        var escaped = false
        for c in text.dropFirst().dropLast() {
            if escaped {
                result.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                result.append(c)
            }
        }
        return result
    }

    /// Whether a token is an address rather than a name: it has an `@` and no spaces, or a scheme.
    static func isAddress(_ token: String) -> Bool {
        if token.contains(" ") { return false }
        if token.contains("@") { return true }
        let lower = token.lowercased()
        return lower.hasPrefix("mailto:") || lower.hasPrefix("urn:") || lower.hasPrefix("http:") || lower.hasPrefix("https:")
    }

    /// The participant URL for an address: `mailto:` added to a bare e-mail address.
    static func url(for address: String) -> String {
        let lower = address.lowercased()
        if lower.hasPrefix("mailto:") || lower.hasPrefix("urn:") || lower.hasPrefix("http:") || lower.hasPrefix("https:") { return address }
        return "mailto:" + address
    }

    /// The address to write for a participant: the e-mail address without `mailto:`, else the URL.
    static func address(of participant: Participant) -> String {
        participant.emailAddress ?? participant.url
    }

    /// A cell listing participants as `Name <address>`, separated by `; ` as Outlook does.
    static func format(_ participants: [Participant]) -> String {
        participants.map(format).joined(separator: "; ")
    }

    /// The bytes of the characters that make a name need quotes (checked first, since most
    /// names have none and a byte scan is much cheaper than comparing Characters), and 0xCD, the
    /// lead byte of U+037E GREEK QUESTION MARK, which Swift takes for `;`.
    private static let quotedNameBytes: [UInt8] = Array(";<>\"\\,\n\r".utf8) + [0xCD]

    /// One participant as `Name <address>`, or the bare address when it has no name.
    static func format(_ participant: Participant) -> String {
        let address = address(of: participant)
        guard let name = participant.name, !name.isEmpty else { return address }
        let needsQuotes = name.utf8ContainsAny(of: Self.quotedNameBytes) && name.contains { ";<>\"\\,\n\r".contains($0) }
        let shownName = needsQuotes ? "\"" + name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\"" : name
        return address.isEmpty ? shownName : "\(shownName) <\(address)>"
    }
}
