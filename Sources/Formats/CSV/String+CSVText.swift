import CalendarModel

extension String {
    /// The string with every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard let first = target.utf8.first else { return self }
        // Most texts hold no occurrence: a byte scan settles that before the Character search.
        guard utf8ContainsAny(of: [first]) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}

/// Byte-level shortcuts for the CSV cells, read and written once per cell. Each gives exactly
/// what the Character-level operation it stands for gives, and falls back to that operation
/// where bytes alone cannot tell: Swift compares Characters by canonical equivalence (U+037E
/// GREEK QUESTION MARK equals `;`), and a combining mark joins the Character before it.
extension StringProtocol {
    /// Whether any UTF-8 byte of the text is one of `bytes` (ASCII). When none is, no Character
    /// of the text is one of those characters either, so a Character-level check can be skipped.
    func utf8ContainsAny(of bytes: [UInt8]) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: bytes.contains) }) { return found }
        return utf8.contains(where: bytes.contains)
    }

    /// `split(separator:)` at an ASCII separator other than CR and LF, empty pieces left out. A
    /// separator byte with ASCII bytes (or the text's ends) on both sides is a Character of its
    /// own; when one is not, or the text may hold a character equal to `;`, the Character split
    /// decides.
    func splitting(at separator: UInt8) -> [SubSequence] {
        let bytes = utf8
        var previous: UInt8 = 0
        var afterSeparator = false
        for b in bytes {
            if (afterSeparator && b >= 0x80) || (b == separator && previous >= 0x80) || (b == 0xCD && separator == UInt8(ascii: ";")) {
                return split(separator: Character(Unicode.Scalar(separator)))
            }
            afterSeparator = b == separator
            previous = b
        }
        var pieces: [SubSequence] = []
        var start = bytes.startIndex
        var i = start
        while i != bytes.endIndex {
            if bytes[i] == separator {
                if start != i { pieces.append(self[start..<i]) }
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        if start != bytes.endIndex { pieces.append(self[start..<bytes.endIndex]) }
        return pieces
    }
}
