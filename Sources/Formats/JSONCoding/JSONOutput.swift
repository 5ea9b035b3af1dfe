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

    /// An output writing to `sink`.
    public init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(flushThreshold + 4096)
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
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b == 0x22 || b == 0x5C || b < 0x20 else { continue }
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
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
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
