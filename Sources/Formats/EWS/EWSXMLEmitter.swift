import CalendarModel
import XMLSupport

/// Writes an EWS SOAP document as UTF-8 bytes, indented two spaces a level. EWS documents use
/// three fixed prefixes (`s:` SOAP, `m:` messages, `t:` types) declared once on the envelope, so
/// tags are written as the literal bytes they are: no namespace bookkeeping and no String per
/// tag, which is what keeps writing 100k items cheap (`XMLByteWriter` builds each tag as a String).
///
/// Characters XML 1.0 cannot carry (most C0 controls, U+FFFE, U+FFFF) are replaced with U+FFFD
/// and counted in `replacedCharacters`, as `XMLByteWriter` does, so the writer can warn.
struct EWSXMLEmitter: UTF8Output {
    /// Bytes written and not yet taken.
    private(set) var buffer: [UInt8] = []
    /// Open elements.
    private var depth = 0
    /// How many characters were replaced because XML cannot represent them.
    private(set) var replacedCharacters = 0

    init() {
        buffer.reserveCapacity(1 << 17)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }

    @inline(__always)
    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// A line break and the indentation of the current depth.
    private mutating func newline() {
        buffer.append(0x0A)
        for _ in 0..<depth {
            buffer.append(0x20)
            buffer.append(0x20)
        }
    }

    /// `<?xml …?>`, written once at the top.
    mutating func declaration() {
        append("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
    }

    /// Opens `<tag attributes>` on a line of its own; `attributes` is literal markup (with its
    /// leading space), so that namespace declarations stay constants.
    mutating func open(_ tag: StaticString, _ attributes: StaticString = "") {
        newline()
        buffer.append(0x3C)
        append(tag)
        append(attributes)
        buffer.append(0x3E)
        depth += 1
    }

    /// Opens `<tag name="value">` with one escaped attribute.
    mutating func open(_ tag: StaticString, attribute name: StaticString, _ value: String) {
        newline()
        buffer.append(0x3C)
        append(tag)
        attribute(name, value)
        buffer.append(0x3E)
        depth += 1
    }

    /// Closes the element opened last with the same `tag`.
    mutating func close(_ tag: StaticString) {
        depth -= 1
        newline()
        buffer.append(0x3C)
        buffer.append(0x2F)
        append(tag)
        buffer.append(0x3E)
    }

    /// `<tag>text</tag>`, the text escaped.
    mutating func element(_ tag: StaticString, _ text: String) {
        startInline(tag)
        escape(text, attribute: false)
        endInline(tag)
    }

    /// `<tag name="value">text</tag>`.
    mutating func element(_ tag: StaticString, attribute name: StaticString, _ value: String, _ text: String) {
        newline()
        buffer.append(0x3C)
        append(tag)
        attribute(name, value)
        buffer.append(0x3E)
        escape(text, attribute: false)
        endInline(tag)
    }

    /// `<tag>literal</tag>` for a constant word (`true`, `Busy`).
    mutating func element(_ tag: StaticString, literal: StaticString) {
        startInline(tag)
        append(literal)
        endInline(tag)
    }

    /// `<tag>n</tag>`.
    mutating func element(_ tag: StaticString, integer: Int) {
        startInline(tag)
        appendDecimal(integer)
        endInline(tag)
    }

    /// `<tag>true</tag>` or `<tag>false</tag>`.
    mutating func element(_ tag: StaticString, bool: Bool) {
        element(tag, literal: bool ? "true" : "false")
    }

    /// `<tag>YYYY-MM-DDTHH:MM:SSZ</tag>` for an instant in seconds since 1970 UTC.
    mutating func element(_ tag: StaticString, utcSeconds: Int) {
        startInline(tag)
        appendUTC(utcSeconds)
        endInline(tag)
    }

    /// `<tag>YYYY-MM-DD</tag>`.
    mutating func element(_ tag: StaticString, date: CalendarDate) {
        startInline(tag)
        appendDate(date)
        endInline(tag)
    }

    /// `<tag/>` with literal attributes.
    mutating func empty(_ tag: StaticString, _ attributes: StaticString = "") {
        newline()
        buffer.append(0x3C)
        append(tag)
        append(attributes)
        buffer.append(0x2F)
        buffer.append(0x3E)
    }

    /// `<tag a="…" b="…"/>`, the values escaped.
    mutating func empty(_ tag: StaticString, attributes: KeyValuePairs<StaticString, String>) {
        newline()
        buffer.append(0x3C)
        append(tag)
        for (name, value) in attributes { attribute(name, value) }
        buffer.append(0x2F)
        buffer.append(0x3E)
    }

    /// The bytes written since the last call, leaving the emitter empty.
    mutating func takeBytes() -> [UInt8] {
        let out = buffer
        buffer.removeAll(keepingCapacity: true)
        return out
    }

    /// Appends `YYYY-MM-DDTHH:MM:SSZ`.
    mutating func appendUTC(_ seconds: Int) {
        var days = seconds / 86_400
        if seconds % 86_400 < 0 { days -= 1 }
        let rest = seconds - days * 86_400
        appendDate(CalendarDate(daysSinceEpoch: days))
        buffer.append(0x54)
        appendTwoDigits(rest / 3600)
        buffer.append(0x3A)
        appendTwoDigits(rest / 60 % 60)
        buffer.append(0x3A)
        appendTwoDigits(rest % 60)
        buffer.append(0x5A)
    }

    /// Appends `YYYY-MM-DD` (four-digit years; EWS dates are xs:date).
    mutating func appendDate(_ date: CalendarDate) {
        var year = date.year
        if year < 0 {
            buffer.append(0x2D)
            year = -year
        }
        if year < 1000 { buffer.append(0x30) }
        if year < 100 { buffer.append(0x30) }
        if year < 10 { buffer.append(0x30) }
        appendDecimal(year)
        buffer.append(0x2D)
        appendTwoDigits(date.month)
        buffer.append(0x2D)
        appendTwoDigits(date.day)
    }

    private mutating func startInline(_ tag: StaticString) {
        newline()
        buffer.append(0x3C)
        append(tag)
        buffer.append(0x3E)
    }

    private mutating func endInline(_ tag: StaticString) {
        buffer.append(0x3C)
        buffer.append(0x2F)
        append(tag)
        buffer.append(0x3E)
    }

    private mutating func attribute(_ name: StaticString, _ value: String) {
        buffer.append(0x20)
        append(name)
        buffer.append(0x3D)
        buffer.append(0x22)
        escape(value, attribute: true)
        buffer.append(0x22)
    }

    /// Appends text escaped for XML (`XMLEscaping`).
    mutating func escape(_ text: String, attribute: Bool) {
        replacedCharacters += XMLEscaping.append(text, attribute: attribute, to: &buffer)
    }
}
