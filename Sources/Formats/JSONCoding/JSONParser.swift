import CalendarModel

/// A pull parser for JSON (RFC 8259) that reads bytes from a `ByteSource` as it goes, so a
/// reader can take one calendar item at a time out of a document of any size: it walks the
/// outer containers token by token (`beginObject`, `nextKey`, `nextElement`) and parses only
/// one item at a time into a `JSONValue`.
public struct JSONParser {
    private let source: ByteSource
    private let sourceName: String
    private var buffer: [UInt8]
    private var position = 0
    private var count = 0
    private var atEndOfSource = false
    private var startSeen = false
    /// Whether a separator is still owed before the next element or member, per open container.
    /// `separated`: an array's comma was already consumed by `hasNextElement`.
    private var containerStack: [(isObject: Bool, hasElements: Bool, separated: Bool)] = []
    /// 1-based line of the next unread byte.
    public private(set) var line = 1
    /// Nesting deeper than this is refused: it only happens in hostile input, and recursion
    /// must not overflow the stack.
    public static let maximumDepth = 512
    /// One value (a calendar item) longer than this is refused: what is parsed into a `JSONValue`
    /// is held whole, and a 1 GB string or a million members would be held too.
    public static let maximumValueBytes = 64 << 20
    /// Bytes of the source before those in `buffer`, and where the value being read began.
    private var bytesBefore = 0
    private var valueStart = 0
    /// Short strings made before, looked up before a string is made (nil: none).
    private let strings: JSONStringTable?

    /// A parser over `source`; `sourceName` names it in errors. `strings`, when given, is used by
    /// this parser only while it parses.
    public init(source: ByteSource, sourceName: String, bufferSize: Int = 64 * 1024, strings: JSONStringTable? = nil) {
        self.source = source
        self.sourceName = sourceName
        self.buffer = [UInt8](repeating: 0, count: bufferSize)
        self.strings = strings
    }

    /// A parser over one value's bytes taken out of a document by `readValueBytes()`, its
    /// first byte on `line` of that document: parsing them gives what `readValue()` would have
    /// given there, errors and their lines included, on whatever thread. `strings`, when given,
    /// is used by this parser only while it parses.
    public init(bytes: [UInt8], sourceName: String, line: Int, strings: JSONStringTable? = nil) {
        self.source = MemoryByteSource([])
        self.sourceName = sourceName
        self.buffer = bytes
        self.count = bytes.count
        self.atEndOfSource = true
        self.startSeen = true
        self.line = line
        self.strings = strings
    }

    // MARK: Bytes

    private mutating func fill() throws -> Bool {
        if position < count { return true }
        if atEndOfSource { return false }
        let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        bytesBefore += count
        position = 0
        count = n
        if n == 0 { atEndOfSource = true }
        if !startSeen {
            startSeen = true
            // RFC 8259 §8.1 lets a parser ignore a byte order mark; editors on Windows add one.
            if n >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
        }
        return position < count
    }

    @inline(__always)
    private mutating func peekByte() throws -> UInt8? {
        if position < count { return buffer[position] }
        guard try fill() else { return nil }
        return buffer[position]
    }

    @inline(__always)
    private mutating func nextByte() throws -> UInt8? {
        if position >= count, try !fill() { return nil }
        let b = buffer[position]
        position += 1
        if b == 0x0A { line += 1 }
        return b
    }

    /// An error at the current line.
    public func error(_ message: String) -> CalendarError {
        CalendarError(.data, file: sourceName, line: line, message)
    }

    private mutating func skipWhitespace() throws {
        while let b = try peekByte() {
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            _ = try nextByte()
        }
    }

    /// The next non-space byte without consuming it; nil at the end of the input.
    public mutating func peekSignificantByte() throws -> UInt8? {
        try skipWhitespace()
        return try peekByte()
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        try skipWhitespace()
        guard let b = try nextByte() else { throw error("unexpected end of input, expected \(what)") }
        guard b == byte else { throw error("expected \(what), found '\(Self.describe(b))'") }
    }

    private static func describe(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    // MARK: Pulling containers

    /// Whether only whitespace is left.
    public mutating func isAtEnd() throws -> Bool {
        try peekSignificantByte() == nil
    }

    /// Consumes the separator owed before a value in the innermost container, if any.
    private mutating func separateElement() throws {
        guard let top = containerStack.last, !top.isObject else { return }
        if top.hasElements && !top.separated { try expect(UInt8(ascii: ","), "','") }
        containerStack[containerStack.count - 1].hasElements = true
        containerStack[containerStack.count - 1].separated = false
    }

    /// Consumes `{` and enters the object.
    public mutating func beginObject() throws {
        try separateElement()
        try expect(UInt8(ascii: "{"), "'{'")
        containerStack.append((true, false, false))
    }

    /// Consumes `[` and enters the array.
    public mutating func beginArray() throws {
        try separateElement()
        try expect(UInt8(ascii: "["), "'['")
        containerStack.append((false, false, false))
    }

    /// The next member name of the current object (its `:` consumed), or nil after consuming
    /// the closing `}`.
    public mutating func nextKey() throws -> String? {
        guard let top = containerStack.last, top.isObject else { throw error("internal: not inside an object") }
        try skipWhitespace()
        if try peekByte() == UInt8(ascii: "}") {
            _ = try nextByte()
            containerStack.removeLast()
            return nil
        }
        if top.hasElements { try expect(UInt8(ascii: ","), "',' or '}'") }
        containerStack[containerStack.count - 1].hasElements = true
        try skipWhitespace()
        guard try peekByte() == UInt8(ascii: "\"") else {
            throw error("expected a member name in quotes")
        }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// Whether the current array has another element; consumes the closing `]` when not.
    public mutating func hasNextElement() throws -> Bool {
        guard let top = containerStack.last, !top.isObject else { throw error("internal: not inside an array") }
        try skipWhitespace()
        guard let b = try peekByte() else { throw error("unexpected end of input inside an array") }
        if b == UInt8(ascii: "]") && !top.separated {
            _ = try nextByte()
            containerStack.removeLast()
            return false
        }
        if top.hasElements && !top.separated {
            try expect(UInt8(ascii: ","), "',' or ']'")
            containerStack[containerStack.count - 1].separated = true
            // Skipping to the element makes `line` the line the element starts on.
            try skipWhitespace()
            guard let next = try peekByte() else { throw error("unexpected end of input inside an array") }
            if next == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
        }
        return true
    }

    /// Parses the next whole value (an element of the current array, a member value, or a
    /// top-level value).
    public mutating func readValue() throws -> JSONValue {
        try separateElement()
        valueStart = bytesBefore + position
        return try parseValue(depth: 0)
    }

    /// The bytes of the next value, which starts with `{` or `[`, and the line it starts on,
    /// found by matching brackets outside strings without parsing: a reader hands them to
    /// another thread to parse (`init(bytes:sourceName:line:)`), at a tenth of the cost of
    /// parsing here. The bytes stop where that parse must stop, so it fails as `readValue()`
    /// would: at a bracket that does not match, one nesting level too deep, or the input's end.
    public mutating func readValueBytes() throws -> (bytes: [UInt8], line: Int) {
        try separateElement()
        try skipWhitespace()
        let startLine = line
        guard let first = try peekByte(), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            throw error("internal: readValueBytes needs an object or an array")
        }
        var bytes: [UInt8] = []
        var closers: [UInt8] = []
        var inString = false
        /// Whether the buffer ended between a backslash in a string and the byte it escapes.
        var escaped = false
        while try fill() {
            let start = position
            var i = position
            var lines = 0
            var done = false
            buffer.withUnsafeBufferPointer { buf in
                let base = buf.baseAddress!
                let end = count
                if escaped {
                    i &+= 1
                    escaped = false
                }
                while i < end {
                    if inString {
                        // Strings are most of an item: skipped a word at a time to what ends a run.
                        i = JSONStringBytes.plainRunEnd(base, from: i, end: end)
                        guard i < end else { break }
                        switch base[i] {
                        case 0x22: inString = false
                        case 0x5C:
                            if end &- i < 2 { escaped = true }
                            i &+= 1
                        case 0x0A: lines &+= 1
                        default: break
                        }
                        i &+= 1
                        continue
                    }
                    let b = base[i]
                    i &+= 1
                    switch b {
                    case 0x22: inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        closers.append(b &+ 2)  // `}` and `]` follow their openers by two
                        done = closers.count > Self.maximumDepth
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        done = closers.popLast() != b || closers.isEmpty
                    case 0x0A: lines &+= 1
                    default: break
                    }
                    if done { break }
                }
                i = min(i, end)
            }
            bytes.append(contentsOf: buffer[start..<i])
            position = i
            line += lines
            if done { break }
            guard bytes.count <= Self.maximumValueBytes else {
                throw error("one value is longer than \(Self.maximumValueBytes >> 20) MiB")
            }
        }
        return (bytes, startLine)
    }

    private func checkValueLength() throws {
        guard bytesBefore + position - valueStart <= Self.maximumValueBytes else {
            throw error("one value is longer than \(Self.maximumValueBytes >> 20) MiB")
        }
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
        try checkValueLength()
        try skipWhitespace()
        guard let b = try peekByte() else { throw error("unexpected end of input, expected a value") }
        switch b {
        case UInt8(ascii: "{"):
            _ = try nextByte()
            var members: [JSONObject.Member] = []
            try skipWhitespace()
            if try peekByte() == UInt8(ascii: "}") {
                _ = try nextByte()
                return .object(JSONObject(members))
            }
            // Grown from empty, an item's arrays were reallocated log2(n) times each (~5% of a
            // Graph read): an item (depth 0) has some dozen members, what is inside it a few.
            members.reserveCapacity(depth == 0 ? 32 : 4)
            while true {
                try skipWhitespace()
                guard try peekByte() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try parseString()
                try expect(UInt8(ascii: ":"), "':'")
                members.append(JSONObject.Member(key: key, value: try parseValue(depth: depth + 1)))
                try skipWhitespace()
                guard let c = try nextByte() else { throw error("unexpected end of input inside an object") }
                if c == UInt8(ascii: "}") { break }
                guard c == UInt8(ascii: ",") else { throw error("expected ',' or '}', found '\(Self.describe(c))'") }
            }
            return .object(JSONObject(members))
        case UInt8(ascii: "["):
            _ = try nextByte()
            var elements: [JSONValue] = []
            try skipWhitespace()
            if try peekByte() == UInt8(ascii: "]") {
                _ = try nextByte()
                return .array(elements)
            }
            elements.reserveCapacity(4)
            while true {
                elements.append(try parseValue(depth: depth + 1))
                try skipWhitespace()
                guard let c = try nextByte() else { throw error("unexpected end of input inside an array") }
                if c == UInt8(ascii: "]") { break }
                guard c == UInt8(ascii: ",") else { throw error("expected ',' or ']', found '\(Self.describe(c))'") }
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw error("unexpected '\(Self.describe(b))', expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard let b = try nextByte(), b == expected else { throw error("invalid literal, expected '\(word)'") }
        }
    }

    private mutating func parseNumber() throws -> String {
        var text: [UInt8] = []
        while let b = try peekByte() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                text.append(b)
                _ = try nextByte()
            default:
                return try validatedNumber(text)
            }
        }
        return try validatedNumber(text)
    }

    /// Checks RFC 8259 §6's grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
    private func validatedNumber(_ t: [UInt8]) throws -> String {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < t.count, t[i] >= 48, t[i] <= 57 { i += 1 }
            return i - start
        }
        if i < t.count, t[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        let n = digits()
        var ok = n > 0 && !(n > 1 && t[intStart] == UInt8(ascii: "0"))
        if ok, i < t.count, t[i] == UInt8(ascii: ".") {
            i += 1
            ok = digits() > 0
        }
        if ok, i < t.count, t[i] == UInt8(ascii: "e") || t[i] == UInt8(ascii: "E") {
            i += 1
            if i < t.count, t[i] == UInt8(ascii: "+") || t[i] == UInt8(ascii: "-") { i += 1 }
            ok = digits() > 0
        }
        let text = String(decoding: t, as: UTF8.self)
        guard ok, i == t.count else { throw error("invalid number '\(text)'") }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try nextByte() else { throw error("unexpected end of input in a \\u escape") }
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - 55
            default: throw error("invalid hex digit '\(Self.describe(b))' in a \\u escape")
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// The run of plain bytes from `position` to the first `"`, `\` or control byte in the
    /// buffer (or the buffer's end).
    private func plainRunEnd() -> Int {
        buffer.withUnsafeBufferPointer { JSONStringBytes.plainRunEnd($0.baseAddress!, from: position, end: count) }
    }

    /// From `position`: copies plain runs and the escapes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
    /// `\r`, `\t` into `bytes` while they lie in the buffer. Returns where it stopped and
    /// whether that is just past the closing quote; otherwise it stopped at the buffer's end or
    /// at a byte the caller handles.
    private func scanEscaped(into bytes: inout [UInt8]) -> (Int, Bool) {
        let end = count
        let start = position
        var stop = start
        var closed = false
        // Unescaped text is never longer than its source: it is written into memory of the
        // rest of the buffer's size, plain bytes a word at a time (a copy call per short run
        // between escapes cost more than the run), and handed over whole.
        let chunk = buffer.withUnsafeBufferPointer { buf in
            [UInt8](unsafeUninitializedCapacity: end - start) { dst, written in
                let src = buf.baseAddress!
                let out = dst.baseAddress!
                var i = start
                var k = 0
                scan: while true {
                    JSONStringBytes.copyPlainWords(src, &i, end: end, to: out, &k)
                    guard i < end else { break }
                    let b = src[i]
                    if !JSONStringBytes.isSpecial(b) {
                        out[k] = b
                        i &+= 1
                        k &+= 1
                        continue
                    }
                    if b == 0x22 {
                        i &+= 1
                        closed = true
                        break
                    }
                    guard b == 0x5C, i &+ 1 < end else { break }
                    switch src[i &+ 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out[k] = src[i &+ 1]
                    case UInt8(ascii: "b"): out[k] = 0x08
                    case UInt8(ascii: "f"): out[k] = 0x0C
                    case UInt8(ascii: "n"): out[k] = 0x0A
                    case UInt8(ascii: "r"): out[k] = 0x0D
                    case UInt8(ascii: "t"): out[k] = 0x09
                    default: break scan
                    }
                    k &+= 1
                    i &+= 2
                }
                written = k
                stop = i
            }
        }
        if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
        return (stop, closed)
    }

    private mutating func parseString() throws -> String {
        _ = try nextByte()  // the opening quote
        let startLine = line
        // Most strings have no escape and lie in the buffer: made straight from it.
        if position < count {
            let end = plainRunEnd()
            if end < count, buffer[end] == 0x22 {
                let start = position
                position = end + 1
                let s = buffer.withUnsafeBufferPointer {
                    let bytes = UnsafeBufferPointer(rebasing: $0[start..<end])
                    if let strings, bytes.count <= JSONStringTable.maximumLength { return strings.string(bytes) }
                    return JSONStringBytes.string(validating: bytes)
                }
                guard let s else { throw error("string is not valid UTF-8") }
                return s
            }
        }
        var bytes: [UInt8] = []
        while true {
            guard try fill() else { throw CalendarError(.data, file: sourceName, line: startLine, "unterminated string") }
            try checkValueLength()
            // Runs of plain bytes and the short escapes that lie whole in the buffer are taken
            // in one loop over it: a string holding JSON text (Graph's kept iCalendar) has an
            // escaped quote every few bytes, and a round of this loop per escape cost ~20% of
            // a Graph read.
            let (next, closed) = scanEscaped(into: &bytes)
            position = next
            if closed { break }
            if position == count { continue }
            // What the loop leaves: `\u`, an escape cut by the buffer's end, a control byte.
            let b = buffer[position]
            position += 1
            if b == 0x22 { break }
            if b < 0x20 { throw error("control character U+\(String(b, radix: 16)) must be escaped in a string") }
            guard let e = try nextByte() else { throw error("unexpected end of input in an escape") }
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard try nextByte() == UInt8(ascii: "\\"), try nextByte() == UInt8(ascii: "u") else {
                        throw error("lone high surrogate in a \\u escape")
                    }
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("lone low surrogate in a \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw error("invalid escape '\\\(Self.describe(e))'")
            }
        }
        guard let s = bytes.withUnsafeBufferPointer({ JSONStringBytes.string(validating: $0) }) else {
            throw error("string is not valid UTF-8")
        }
        return s
    }
}
