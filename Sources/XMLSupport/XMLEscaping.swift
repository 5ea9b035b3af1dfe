/// XML text and attribute values from Strings, on their UTF-8 bytes: what the byte writers
/// (`XMLByteWriter`, EWS's emitter) share.
public enum XMLEscaping {
    /// Appends `text` escaped for XML to `buffer`: markup characters as entities, a carriage
    /// return as `&#13;` (XML would otherwise fold CRLF into LF), in an attribute also tab and
    /// line feed as references, and what XML 1.0 cannot carry (C0 controls, U+FFFE, U+FFFF) as
    /// U+FFFD. Runs of plain bytes are copied at once (a CalDAV calendar-data element holds a
    /// whole iCalendar object). Returns how many characters were replaced with U+FFFD.
    public static func append(_ text: String, attribute: Bool, to buffer: inout [UInt8]) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            escape(bytes, attribute: attribute) { buffer.append(contentsOf: $0) }
        }
    }

    /// Escapes `bytes` (UTF-8) as `append(_:attribute:to:)` says, handing each piece of the
    /// result to `emit`: runs of plain bytes as they are, and each replacement.
    @inline(__always)
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, attribute: Bool, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        var replaced = 0
        var runStart = 0
        var i = 0
        while i < n {
            let b: UInt8
            // Eight bytes at a time to the first that may need work (a calendar-data element
            // is kilobytes of text with a CR every 75 bytes); bounds checked by the conditions.
            if i + 8 <= n {
                let hits = candidates(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self), attribute: attribute)
                guard hits != 0 else {
                    i += 8
                    continue
                }
                i += hits.trailingZeroBitCount >> 3
                b = base[i]
            } else {
                b = base[i]
                guard b < 0x20 || b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0xEF else {
                    i += 1
                    continue
                }
            }
            let replacement: StaticString
            var skip = 1
            switch b {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x0D where !attribute && i + 1 < n && base[i + 1] == 0x0A:
                // iCalendar text ends every line so: one step for the pair.
                replacement = "&#13;\n"
                skip = 2
            case 0x0D: replacement = "&#13;"
            case 0x22 where attribute: replacement = "&quot;"
            case 0x0A where attribute: replacement = "&#10;"
            case 0x09 where attribute: replacement = "&#9;"
            case 0x22, 0x0A, 0x09:
                i += 1
                continue
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                guard i + 2 < n, base[i + 1] == 0xBF, base[i + 2] == 0xBE || base[i + 2] == 0xBF else {
                    i += 1
                    continue
                }
                replacement = "\u{FFFD}"
                skip = 3
                replaced += 1
            default:
                // The other C0 controls.
                replacement = "\u{FFFD}"
                replaced += 1
            }
            if i > runStart { emit(UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
            emit(UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            i += skip
            runStart = i
        }
        if n > runStart { emit(UnsafeBufferPointer(start: base + runStart, count: n - runStart)) }
        return replaced
    }

    /// The top bits of the bytes of `word` (little-endian) that may need escaping: below 0x20,
    /// `&`, `<`, `>`, in an attribute `"`, or 0xEF (U+FFFE/U+FFFF lead). Exact up to the first such byte (the
    /// zero-byte test `(v - 0x01…) & ~v & 0x80…` marks a byte above a hit only through its
    /// borrow), which is all the caller uses.
    @inline(__always)
    private static func candidates(_ word: UInt64, attribute: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v }
        let controls = (word &- ones &* 0x20) & ~word
        var hits =
            controls | zeroBytes(word ^ (ones &* 0x26)) | zeroBytes(word ^ (ones &* 0x3C)) | zeroBytes(word ^ (ones &* 0x3E))
            | zeroBytes(word ^ (ones &* 0xEF))
        if attribute { hits |= zeroBytes(word ^ (ones &* 0x22)) }
        return hits & 0x8080_8080_8080_8080
    }
}
