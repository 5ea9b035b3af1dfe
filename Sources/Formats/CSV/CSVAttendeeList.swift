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
        // slice between two separators: kept as a Substring, not rebuilt Character by Character.
        var entries: [Entry] = []
        var start = text.startIndex
        var inQuotes = false
        var inAngle = false
        var escaped = false
        var i = text.startIndex
        while i != text.endIndex {
            let c = text[i]
            let next = text.index(after: i)
            defer { i = next }
            if escaped {
                escaped = false
                continue
            }
            switch c {
            case "\\" where inQuotes: escaped = true
            case "\"": inQuotes.toggle()
            case "<" where !inQuotes: inAngle = true
            case ">" where !inQuotes: inAngle = false
            case ";" where !inQuotes && !inAngle, "\n" where !inQuotes && !inAngle, "\r" where !inQuotes && !inAngle:
                if let entry = entry(text[start..<i]) { entries.append(entry) }
                start = next
            default: break
            }
        }
        if let entry = entry(text[start...]) { entries.append(entry) }
        return entries
    }

    private static func entry(_ raw: Substring) -> Entry? {
        let text = String(raw).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)]).trimmingCharacters(in: .whitespaces)
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
