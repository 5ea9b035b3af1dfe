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
        var replaced = 0
        text.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                // Fast test: nothing below 0x3F but controls, '&', '<', '>', '"' needs work, and
                // 0xEF leads U+FFFE/U+FFFF.
                if b >= 0x3F && b != 0xEF {
                    i += 1
                    continue
                }
                var replacement: StaticString?
                var skip = 1
                switch b {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22 where attribute: replacement = "&quot;"
                case 0x0D: replacement = "&#13;"
                case 0x0A where attribute: replacement = "&#10;"
                case 0x09 where attribute: replacement = "&#9;"
                case 0x0A, 0x09: break
                case 0xEF:
                    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                    if i + 2 < n, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                        replacement = "\u{FFFD}"
                        skip = 3
                    }
                case _ where b < 0x20: replacement = "\u{FFFD}"
                default: break
                }
                guard let replacement else {
                    i += 1
                    continue
                }
                if i > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                if b < 0x20 && b != 0x0D && b != 0x0A && b != 0x09 || skip == 3 { replaced += 1 }
                buffer.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                i += skip
                runStart = i
            }
            if n > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
        }
        return replaced
    }
}
