import CalendarModel

/// Writes JSON text by hand into a byte buffer and hands it to a `ByteSink` in large chunks.
/// Writers use this instead of `JSONEncoder` because encoding each calendar item through
/// Codable costs an allocation-heavy intermediate tree per item; here bytes go straight out.
///
/// Commas are placed automatically: a value or key written after a complete value in the
/// same container is preceded by one.
public struct JSONOutput {
    private let sink: ByteSink
    /// The bytes written and not yet handed to the sink.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false
    /// Bytes kept before handing them to the sink; large enough to make writes cheap, small
    /// enough that `| jq` sees output early.
    public var flushThreshold = 64 * 1024

    /// An output writing to `sink`; `capacity` is what its buffer reserves (less for a value
    /// that is read back through `bytes`).
    public init(sink: ByteSink, capacity: Int = 64 * 1024 + 4096) {
        self.sink = sink
        bytes.reserveCapacity(capacity)
    }

    /// Hands buffered bytes to the sink when the buffer is full.
    public mutating func flushIfFull() throws {
        if bytes.count >= flushThreshold { try flush() }
    }

    /// Hands all buffered bytes to the sink.
    public mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try sink.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func comma() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Writes `{`.
    public mutating func beginObject() {
        comma()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`.
    public mutating func beginArray() {
        comma()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Ends a top-level value with a line break (JSON Lines); the next value needs no comma.
    public mutating func newline() {
        bytes.append(0x0A)
        needsComma = false
    }

    /// Starts a new line before the next element inside a container, writing the comma owed
    /// first, so documents read one item per line (`},\n{`).
    public mutating func lineBreak() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(0x0A)
        needsComma = false
    }

    /// Writes a line break that is only whitespace: the comma state is unchanged, so a closing
    /// bracket may follow (`\n]`).
    public mutating func softNewline() {
        bytes.append(0x0A)
    }

    /// Writes a member name and its colon.
    public mutating func key(_ name: String) {
        comma()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        comma()
        appendQuoted(value)
        needsComma = true
    }

    /// Writes `value.lowercased()` as a string value. iCalendar names (jCal writes every one
    /// lower-case) are ASCII: lowered on the way into the buffer, with no String made.
    public mutating func lowercasedString(_ value: String) {
        comma()
        if !appendQuotedLowercasedASCII(value) { appendQuoted(value.lowercased()) }
        needsComma = true
    }

    /// Writes `name.lowercased()` as a member name and its colon.
    public mutating func lowercasedKey(_ name: String) {
        comma()
        if !appendQuotedLowercasedASCII(name) { appendQuoted(name.lowercased()) }
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Appends `s` quoted and lower-cased when it is ASCII that needs no escape; false (nothing
    /// written) otherwise.
    private mutating func appendQuotedLowercasedASCII(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else {
                bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")])
                return true
            }
            let n = utf8.count
            guard JSONStringBytes.plainRunEnd(base, from: 0, end: n) == n, !utf8.contains(where: { $0 >= 0x80 }) else { return false }
            bytes.append(UInt8(ascii: "\""))
            for b in utf8 { bytes.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
            bytes.append(UInt8(ascii: "\""))
            return true
        }
    }

    /// Writes an integer.
    public mutating func int(_ value: Int) {
        comma()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Writes a number; NaN and infinities, which JSON cannot hold, are written as the strings
    /// "NaN", "Infinity" and "-Infinity" (readers accept them back).
    public mutating func double(_ value: Double) {
        comma()
        if value.isFinite {
            // Swift's description is the shortest text that reads back as the same Double.
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        } else {
            appendQuoted(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        comma()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        comma()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes a value already rendered as JSON text (`rendered(_:)`), as `value` would have.
    public mutating func rawValue(_ text: [UInt8]) {
        comma()
        bytes.append(contentsOf: text)
        needsComma = true
    }

    /// A value as compact JSON text, for writers that hold values before writing them: the
    /// text is a fraction of the size of the value's tree.
    public static func rendered(_ value: JSONValue, capacity: Int = 4096) -> [UInt8] {
        var out = JSONOutput(sink: DiscardingSink(), capacity: capacity)
        out.value(value)
        // An array of exactly the text's size: the buffer's spare capacity would be held too.
        return Array(out.bytes[...])
    }

    /// Writes a whole parsed value back out, members in their order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let text):
            comma()
            bytes.append(contentsOf: text.utf8)
            needsComma = true
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for e in elements { self.value(e) }
            endArray()
        case .object(let object):
            beginObject()
            for m in object.members {
                key(m.key)
                self.value(m.value)
            }
            endObject()
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let n = utf8.count
            var runStart = 0
            while true {
                // Plain runs are found a word at a time and copied whole.
                let i = JSONStringBytes.plainRunEnd(base, from: runStart, end: n)
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart)) }
                guard i < n else { break }
                let b = base[i]
                runStart = i + 1
                bytes.append(0x5C)
                switch b {
                case 0x22: bytes.append(0x22)
                case 0x5C: bytes.append(0x5C)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 48, 48, Self.hexDigits[Int(b >> 4)], Self.hexDigits[Int(b & 15)]])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A sink for `JSONOutput`s that are only read through `bytes`.
private final class DiscardingSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {}
}
