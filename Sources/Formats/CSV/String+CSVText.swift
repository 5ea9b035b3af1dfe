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

    /// `lastIndex(of:)` an ASCII character other than CR and LF, found by bytes when the last
    /// such byte has ASCII bytes (or the text's ends) on both sides, by Characters otherwise.
    func lastIndex(ofASCII character: UInt8) -> Index? {
        let bytes = utf8
        guard let i = bytes.lastIndex(of: character) else { return nil }
        let before = i == bytes.startIndex ? 0 : bytes[bytes.index(before: i)]
        let next = bytes.index(after: i)
        if before < 0x80 && (next == bytes.endIndex || bytes[next] < 0x80) { return i }
        return lastIndex(of: Character(Unicode.Scalar(character)))
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
    func splitting(at separator: UInt8) -> [Substring] {
        // The bytes are looked through in place when they lie together (a native String's do):
        // a byte at a time through the view cost several times as much, on every cell.
        let byCharacters =
            utf8.withContiguousStorageIfAvailable { Self.needsCharacterSplit($0, at: separator) }
            ?? Self.needsCharacterSplit(utf8, at: separator)
        if byCharacters { return split(separator: Character(Unicode.Scalar(separator))).map { Substring($0) } }
        return utf8Pieces { $0 == separator }
    }

    /// Whether `splitting(at:)` must split by Characters: a separator byte next to a non-ASCII
    /// one, or a byte that may begin a character equal to `;`.
    private static func needsCharacterSplit<Bytes: Sequence<UInt8>>(_ bytes: Bytes, at separator: UInt8) -> Bool {
        var previous: UInt8 = 0
        var afterSeparator = false
        for b in bytes {
            if (afterSeparator && b >= 0x80) || (b == separator && previous >= 0x80) || (b == 0xCD && separator == UInt8(ascii: ";")) {
                return true
            }
            afterSeparator = b == separator
            previous = b
        }
        return false
    }

    /// The pieces between separator bytes, empty ones left out, each a String of its own: a slice
    /// cut at a UTF-8 index would make every Character step in it round that index first.
    func utf8Pieces(separatedBy isSeparator: (UInt8) -> Bool) -> [Substring] {
        let inPlace = utf8.withContiguousStorageIfAvailable { bytes -> [Substring] in
            var pieces: [Substring] = []
            var start = 0
            for i in bytes.indices where isSeparator(bytes[i]) {
                if start != i { pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)[...]) }
                start = i + 1
            }
            if start != bytes.count { pieces.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)[...]) }
            return pieces
        }
        if let inPlace { return inPlace }
        var pieces: [Substring] = []
        let bytes = utf8
        var start = bytes.startIndex
        var i = start
        while i != bytes.endIndex {
            if isSeparator(bytes[i]) {
                if start != i { pieces.append(String(decoding: bytes[start..<i], as: UTF8.self)[...]) }
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        if start != bytes.endIndex { pieces.append(String(decoding: bytes[start...], as: UTF8.self)[...]) }
        return pieces
    }

    /// `firstIndex(of:)` an ASCII character other than CR and LF, found by bytes when the first
    /// such byte has ASCII bytes (or the text's ends) on both sides, by Characters otherwise.
    func firstIndex(ofASCII character: UInt8) -> Index? {
        let bytes = utf8
        var previous: UInt8 = 0
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == character {
                let next = bytes.index(after: i)
                if previous < 0x80 && (next == bytes.endIndex || bytes[next] < 0x80) { return i }
                return firstIndex(of: Character(Unicode.Scalar(character)))
            }
            previous = b
            i = bytes.index(after: i)
        }
        return nil
    }
}
