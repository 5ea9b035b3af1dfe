import CalendarModel

/// Writes JSON text by hand into a byte buffer and hands it to a `ByteSink` in large chunks.
/// Writers use this instead of `JSONEncoder` because encoding each calendar item through
/// Codable costs an allocation-heavy intermediate tree per item; here bytes go straight out.
///
/// Commas are placed automatically: a value or key written after a complete value in the
/// same container is preceded by one.
public struct JSONOutput {
    /// The buffer's memory, owned apart from the struct so that an append is a capacity
    /// compare and a store or a `memcpy`: an `[UInt8]` append checks uniqueness and capacity
    /// and calls a generic copy every time (~90 instructions, most of a Graph body's cost), as
    /// `ICSOutputBuffer` found for the ICS writer. Copies of an output share it until one
    /// writes: every public entry point calls `makeUnique()` first.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private let sink: ByteSink
    private var storage: Storage
    /// `storage.base` and `storage.capacity`, held here so that an append reads no class field.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written and not yet handed to the sink.
    private var count = 0
    private var needsComma = false
    /// Set while `stringOfJSON` writes: strings are written escaped once more.
    private var insideString = false
    /// Bytes kept before handing them to the sink; large enough to make writes cheap, small
    /// enough that `| jq` sees output early.
    public var flushThreshold = 64 * 1024

    /// The bytes written and not yet handed to the sink, as an array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// An output writing to `sink`; `capacity` is what its buffer reserves (less for a value
    /// that is read back through `bytes`).
    public init(sink: ByteSink, capacity: Int = 64 * 1024 + 4096) {
        self.sink = sink
        storage = Storage(capacity: max(capacity, 16))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// An output that is never flushed, whose bytes are read back through `bytes`: a value
    /// written apart (on a worker thread) and then into a document with `rawValue`.
    public init(capacity: Int) {
        self.init(sink: DiscardingSink(), capacity: capacity)
    }

    /// Calls `body` with the bytes written and not yet handed to the sink, without copying them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Hands buffered bytes to the sink when the buffer is full.
    public mutating func flushIfFull() throws {
        if count >= flushThreshold { try flush() }
    }

    /// Hands all buffered bytes to the sink.
    public mutating func flush() throws {
        guard count > 0 else { return }
        makeUnique()
        try sink.write(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    @inline(__always)
    private mutating func makeUnique() {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { reallocate(minimumCapacity: capacity) }
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if _slowPath(capacity &- count < n) { reallocate(minimumCapacity: count + n) }
    }

    @inline(never)
    private mutating func reallocate(minimumCapacity: Int) {
        let new = Storage(capacity: max(minimumCapacity, 2 * capacity))
        new.base.initialize(from: base, count: count)
        storage = new
        base = new.base
        capacity = new.capacity
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: from, count: bytes.count)
        count &+= bytes.count
    }

    private mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always)
    private mutating func comma() {
        makeUnique()
        if needsComma { append(UInt8(ascii: ",")) }
    }

    /// Writes `{`.
    public mutating func beginObject() {
        comma()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        makeUnique()
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`.
    public mutating func beginArray() {
        comma()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        makeUnique()
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Ends a top-level value with a line break (JSON Lines); the next value needs no comma.
    public mutating func newline() {
        makeUnique()
        append(0x0A)
        needsComma = false
    }

    /// Starts a new line before the next element inside a container, writing the comma owed
    /// first, so documents read one item per line (`},\n{`).
    public mutating func lineBreak() {
        makeUnique()
        if needsComma { append(UInt8(ascii: ",")) }
        append(0x0A)
        needsComma = false
    }

    /// Writes a line break that is only whitespace: the comma state is unchanged, so a closing
    /// bracket may follow (`\n]`).
    public mutating func softNewline() {
        makeUnique()
        append(0x0A)
    }

    /// Writes a member name and its colon.
    public mutating func key(_ name: String) {
        comma()
        appendQuoted(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        comma()
        appendQuoted(value)
        needsComma = true
    }

    /// Writes `ISO8601Text.dateTime(v)` as a string value, formatted straight into the buffer
    /// (no String made: jCal writes a date-time for most kept properties). Its bytes need no
    /// escape.
    public mutating func dateTimeString(_ v: CalendarDateTime) {
        comma()
        let quote = insideString ? 2 : 1
        reserve(ISO8601Text.dateTimeCapacity &+ 2 &* quote)
        storeQuote(at: count, insideString)
        var k = count &+ quote
        guard let n = ISO8601Text.write(dateTime: v, to: UnsafeMutableBufferPointer(start: base + k, count: ISO8601Text.dateTimeCapacity))
        else {
            appendQuoted(ISO8601Text.dateTime(v))
            needsComma = true
            return
        }
        k &+= n
        storeQuote(at: k, insideString)
        count = k &+ quote
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
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Appends `s` quoted and lower-cased when it is ASCII that needs no escape; false (nothing
    /// written) otherwise. One pass checks and lowers each byte (jCal writes every property
    /// name through here); a name that needs more is taken back.
    private mutating func appendQuotedLowercasedASCII(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { utf8 in
            let n = utf8.count
            // Room for the name (a word at least) and its quotes, escaped ones inside
            // `stringOfJSON`, at once.
            let quote = insideString ? 2 : 1
            reserve(max(n, 8) &+ 2 &* quote)
            storeQuote(at: count, insideString)
            var k = count &+ quote
            if let from = utf8.baseAddress {
                // Checked and lowered a word at a time, the last part of a word too (a name is
                // mostly shorter than a word: a byte loop cost ~15 instructions a byte).
                var i = 0
                while n &- i >= 8 {
                    guard let lowered = Self.loweredPlainASCII(UnsafeRawPointer(from + i).loadUnaligned(as: UInt64.self)) else {
                        return false
                    }
                    UnsafeMutableRawPointer(base + (k &+ i)).storeBytes(of: lowered, as: UInt64.self)
                    i &+= 8
                }
                if i < n {
                    // The last word ends with the name: it overlaps the one before when there is one.
                    let last = n >= 8 ? n &- 8 : 0
                    let w = n >= 8 ? UnsafeRawPointer(from + last).loadUnaligned(as: UInt64.self) : Self.shortWord(from, n)
                    guard let lowered = Self.loweredPlainASCII(w) else { return false }
                    UnsafeMutableRawPointer(base + (k &+ last)).storeBytes(of: lowered, as: UInt64.self)
                }
                k &+= n
            }
            storeQuote(at: k, insideString)
            count = k &+ quote
            return true
        } ?? false
    }

    /// Writes a string value that needs no escape (ASCII without `"`, `\` or control bytes):
    /// jCal's type names, one a property, skip the scan for escapes.
    public mutating func plainString(_ value: StaticString) {
        comma()
        // Room for the text (a word at least) and its quotes at once; a type name shorter than
        // a word stored as one, a longer one byte by byte (a memcpy call cost more).
        let n = value.utf8CodeUnitCount
        let quote = insideString ? 2 : 1
        reserve(max(n, 8) &+ 2 &* quote)
        storeQuote(at: count, insideString)
        var k = count &+ quote
        let from = value.utf8Start
        if n < 8 {
            UnsafeMutableRawPointer(base + k).storeBytes(of: Self.shortWord(from, n), as: UInt64.self)
        } else {
            for i in 0..<n { base[k &+ i] = from[i] }
        }
        k &+= n
        storeQuote(at: k, insideString)
        count = k &+ quote
        needsComma = true
    }

    /// A string's quote: `"`, or `\"` inside `stringOfJSON`.
    @inline(__always)
    private mutating func appendQuote() {
        if insideString { append(0x5C) }
        append(UInt8(ascii: "\""))
    }

    /// Writes an integer.
    public mutating func int(_ value: Int) {
        comma()
        append(utf8: String(value))
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
            append(utf8: text)
        } else {
            appendQuoted(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        comma()
        if value { append("true") } else { append("false") }
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        comma()
        append("null")
        needsComma = true
    }

    /// Writes a value already rendered as JSON text (`rendered(_:)`), as `value` would have.
    public mutating func rawValue(_ text: [UInt8]) {
        comma()
        text.withUnsafeBufferPointer { append($0) }
        needsComma = true
    }

    /// Writes, as one string value, the JSON text `write` writes, escaped as it is written: the
    /// bytes of `string(_:)` of that text, without the text as a `String` or a second pass (a
    /// value kept inside another document's string, Graph's kept iCalendar). Text `write`
    /// gives `rawValue` must be escaped so already; it writes no line breaks.
    public mutating func stringOfJSON(_ write: (inout JSONOutput) -> Void) {
        precondition(!insideString, "a string of JSON inside another is not supported")
        comma()
        append(UInt8(ascii: "\""))
        needsComma = false
        insideString = true
        write(&self)
        insideString = false
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A value as compact JSON text, for writers that hold values before writing them: the
    /// text is a fraction of the size of the value's tree.
    public static func rendered(_ value: JSONValue, capacity: Int = 4096) -> [UInt8] {
        var out = JSONOutput(sink: DiscardingSink(), capacity: capacity)
        out.value(value)
        // An array of exactly the text's size: the buffer's spare capacity would be held too.
        return out.bytes
    }

    /// Writes a whole parsed value back out, members in their order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let text):
            comma()
            append(utf8: text)
            needsComma = true
        case .string(let s): string(s)
        // Elements and members are read in place: a `for` loop copied each (a retain and a
        // release of its parts), for every value of every body a writer renders.
        case .array(let elements):
            beginArray()
            elements.withUnsafeBufferPointer { all in
                var i = 0
                while i < all.count {
                    self.value(all[i])
                    i += 1
                }
            }
            endArray()
        case .object(let object):
            beginObject()
            object.members.withUnsafeBufferPointer { all in
                var i = 0
                while i < all.count {
                    key(all[i].key)
                    self.value(all[i].value)
                    i += 1
                }
            }
            endObject()
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ s: String) {
        // Read in place: `withUTF8` needs a `var` copy of the string (a retain and release a
        // string, most of the strings a body writes being short).
        if s.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) != nil { return }
        var s = s
        s.withUTF8 { appendQuoted($0) }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        if _slowPath(insideString) { return appendQuoted(utf8, escapedOnceMore: true) }
        appendQuoted(utf8, escapedOnceMore: false)
    }

    /// Appends `utf8` as a JSON string; `escapedOnceMore` (inside `stringOfJSON`): its quotes and
    /// each escape escaped once more (`"` is `\\\"`, a line break `\\n`), as Graph's kept
    /// iCalendar writes every jCal string.
    @inline(__always)
    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, escapedOnceMore: Bool) {
        // The bytes of a quote and of an escape's backslash.
        let quote = escapedOnceMore ? 2 : 1
        let n = utf8.count
        guard let from = utf8.baseAddress, n > 0 else {
            reserve(2 &* quote)
            storeQuote(at: count, escapedOnceMore)
            storeQuote(at: count &+ quote, escapedOnceMore)
            count &+= 2 &* quote
            return
        }
        // A short string in one word (checked and stored whole), a longer one checked a word at
        // a time and copied whole when it needs no escape, as most do.
        if n < 8 {
            let w = Self.shortWord(from, n)
            if !JSONStringBytes.hasSpecialByte(w) {
                reserve(8 &+ 2 &* quote)
                storeQuote(at: count, escapedOnceMore)
                UnsafeMutableRawPointer(base + (count &+ quote)).storeBytes(of: w, as: UInt64.self)
                storeQuote(at: count &+ quote &+ n, escapedOnceMore)
                count &+= n &+ 2 &* quote
                return
            }
        } else if Self.isPlain(from, n) {
            reserve(n &+ 2 &* quote)
            storeQuote(at: count, escapedOnceMore)
            (base + (count &+ quote)).initialize(from: from, count: n)
            storeQuote(at: count &+ quote &+ n, escapedOnceMore)
            count &+= n &+ 2 &* quote
            return
        }
        // The plain run before the first byte to escape (there is one).
        let first = JSONStringBytes.plainRunEnd(from, from: 0, end: n)
        // A string with escapes (Graph's kept iCalendar is JSON text: a quote every ~9 bytes)
        // gets room for its longest escaped form (6 bytes a byte, 7 escaped once more) once, and
        // is copied a word at a time as it is scanned: a memcpy call per short run cost more
        // than the run. A word is stored only where 8 input bytes remain, so stores stay in the
        // room.
        reserve(first &+ (5 &+ quote) &* (n &- first) &+ 2 &* quote)
        var k = count
        storeQuote(at: k, escapedOnceMore)
        k &+= quote
        (base + k).initialize(from: from, count: first)
        k &+= first
        var i = first
        while true {
            JSONStringBytes.copyPlainWords(from, &i, end: n, to: base, &k)
            guard i < n else { break }
            let b = from[i]
            i &+= 1
            guard JSONStringBytes.isSpecial(b) else {
                base[k] = b
                k &+= 1
                continue
            }
            // The escape's backslash (itself escaped once more).
            base[k] = 0x5C
            if escapedOnceMore { base[k &+ 1] = 0x5C }
            k &+= quote
            switch b {
            case 0x22, 0x5C:
                if escapedOnceMore {
                    base[k] = 0x5C
                    k &+= 1
                }
                base[k] = b
            case 0x0A: base[k] = UInt8(ascii: "n")
            case 0x0D: base[k] = UInt8(ascii: "r")
            case 0x09: base[k] = UInt8(ascii: "t")
            case 0x08: base[k] = UInt8(ascii: "b")
            case 0x0C: base[k] = UInt8(ascii: "f")
            default:
                base[k] = UInt8(ascii: "u")
                base[k &+ 1] = 48
                base[k &+ 2] = 48
                base[k &+ 3] = Self.hexDigits[Int(b >> 4)]
                base[k &+ 4] = Self.hexDigits[Int(b & 15)]
                k &+= 4
            }
            k &+= 1
        }
        storeQuote(at: k, escapedOnceMore)
        count = k &+ quote
    }

    /// `w` with `A`…`Z` lowered, or nil when a byte is not ASCII or needs an escape: `A`…`Z`
    /// found and lowered in all eight at once (no carry crosses a byte, for every byte is below
    /// 0x80).
    @inline(__always)
    private static func loweredPlainASCII(_ w: UInt64) -> UInt64? {
        guard w & 0x8080_8080_8080_8080 == 0, !JSONStringBytes.hasSpecialByte(w) else { return nil }
        let atLeastA: UInt64 = w &+ 0x3F3F_3F3F_3F3F_3F3F
        let pastZ: UInt64 = w &+ 0x2525_2525_2525_2525
        let upper: UInt64 = atLeastA & ~pastZ & 0x8080_8080_8080_8080
        return w | (upper &>> 2)
    }

    /// The `n` (< 8) bytes at `from` as a word, in memory order, its other bytes `a` (plain
    /// ASCII, so they change no check): read in at most three loads, where a byte loop cost
    /// ~10 instructions a byte, and most names and many values are this short. Stored whole,
    /// its first `n` bytes are the text.
    @inline(__always)
    private static func shortWord(_ from: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        let raw = UnsafeRawPointer(from)
        var w: UInt64 = 0
        var offset = 0
        if n & 4 != 0 {
            w = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            offset = 4
        }
        if n & 2 != 0 {
            w |= UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) &<< UInt64(offset &* 8)
            offset &+= 2
        }
        if n & 1 != 0 { w |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) &<< UInt64(offset &* 8) }
        let text: UInt64 = (1 &<< UInt64(n &* 8)) &- 1
        return UInt64(littleEndian: w | (0x6161_6161_6161_6161 & ~text))
    }

    /// Whether the `n` (>= 8) bytes at `from` need no escape, a word at a time (the last word
    /// overlapping the one before), without the byte loop `plainRunEnd` ends with.
    @inline(__always)
    private static func isPlain(_ from: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 0
        while n &- i > 8 {
            if JSONStringBytes.hasSpecialByte(UnsafeRawPointer(from + i).loadUnaligned(as: UInt64.self)) { return false }
            i &+= 8
        }
        return !JSONStringBytes.hasSpecialByte(UnsafeRawPointer(from + (n &- 8)).loadUnaligned(as: UInt64.self))
    }

    /// Stores `"` at `k`, or `\"` when `escapedOnceMore` (room made by the caller).
    @inline(__always)
    private func storeQuote(at k: Int, _ escapedOnceMore: Bool) {
        if escapedOnceMore {
            base[k] = 0x5C
            base[k &+ 1] = UInt8(ascii: "\"")
        } else {
            base[k] = UInt8(ascii: "\"")
        }
    }
}

/// A sink for `JSONOutput`s that are only read through `bytes`.
private final class DiscardingSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {}
}
