import CalendarModel
import ICalendarData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ContentLine {
    /// Splits a logical line into name, parameters and value (RFC 5545 §3.1, with RFC 6868's
    /// ^-escapes in parameter values). Invalid UTF-8 and NUL bytes are repaired with a warning,
    /// or rejected under `--strict`.
    static func parse(_ raw: UnsafeBufferPointer<UInt8>, line: Int, options: ReadOptions, log: DiagnosticLog) throws -> ContentLine {
        // memchr finds a NUL many bytes at a time; this runs over every byte read.
        let hasNUL = raw.count > 0 && memchr(raw.baseAddress!, 0, raw.count) != nil
        if hasNUL {
            guard !options.strict else {
                throw CalendarError(.data, file: options.sourceName, line: line, "NUL byte in content line")
            }
            log.warning(file: options.sourceName, line: line, "NUL bytes removed from content line")
            let bytes = raw.filter { $0 != 0 }
            // The value is made a String before the filtered bytes go.
            return try bytes.withUnsafeBufferPointer { try parse(buffer: $0, line: line, options: options, log: log).materializingValue() }
        }
        return try parse(buffer: raw, line: line, options: options, log: log)
    }

    /// The parse proper, on the line's buffer: every index below is checked against `n` before
    /// it is read, so the unchecked buffer subscripts stay in bounds.
    @inline(__always)
    private static func parse(
        buffer b: UnsafeBufferPointer<UInt8>, line: Int, options: ReadOptions, log: DiagnosticLog
    ) throws -> ContentLine {
        func fail(_ message: String) -> CalendarError {
            CalendarError(.data, file: options.sourceName, line: line, message)
        }
        func piece(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: b[from..<to]) }
        let semicolon = UInt8(ascii: ";"), colon = UInt8(ascii: ":"), comma = UInt8(ascii: ","), equals = UInt8(ascii: "=")
        let quote = UInt8(ascii: "\""), caretByte = UInt8(ascii: "^"), space = UInt8(ascii: " ")
        let n = b.count
        var i = 0
        while i < n, b[i] != semicolon, b[i] != colon { i += 1 }
        guard i < n else {
            let preview = String(decoding: piece(0, min(n, 40)), as: UTF8.self)
            throw fail("content line has no ':' (\"\(preview)\(n > 40 ? "…" : "")\")")
        }
        guard i > 0 else { throw fail("content line has no property name") }
        // A known name gives its table entry and a shared String in one lookup.
        let name: String
        let info: PropertyInfo
        if let known = PropertyTable.info(nameBytes: piece(0, i)) {
            name = known.name
            info = known.info
        } else {
            guard let upper = upperCasedName(piece(0, i)) else {
                throw fail("invalid property name '\(String(decoding: piece(0, i), as: UTF8.self))'")
            }
            name = upper
            // The bytes lookup covers every name of up to 16 bytes as it stands: when it was
            // upper-case already, the table does not know it. Longer names the table compares
            // as Strings, and knows only a few lengths of.
            let unknown =
                i > 16 ? i >= knownLongNameLengths.count || !knownLongNameLengths[i] : !piece(0, i).contains(where: { $0 >= 0x61 && $0 <= 0x7A })
            info = unknown ? .unknown : PropertyTable.info(name)
        }
        var parameters: [Parameter] = []
        // Attendees carry CUTYPE, ROLE, PARTSTAT, RSVP, CN and more: room for them at once
        // rather than growing the array on the way.
        if b[i] == semicolon { parameters.reserveCapacity(info.id == .attendee ? 8 : 4) }
        // Parameters and their values are counted: a 64 MiB line of `;A=1` would otherwise
        // become millions of them, gigabytes once they are Strings.
        var parameterValues = 0
        func countValue() throws {
            parameterValues += 1
            guard parameterValues <= Self.maximumParameterValues else {
                throw fail("\(name) has more than \(Self.maximumParameterValues) parameters and parameter values")
            }
        }
        while i < n, b[i] == semicolon {
            i += 1
            try countValue()
            let nameStart = i
            while i < n, b[i] != equals, b[i] != colon, b[i] != semicolon { i += 1 }
            let parameterName =
                try ParameterID.knownName(piece(nameStart, i)) ?? upperCasedName(piece(nameStart, i))
                ?? text(piece(nameStart, i), line: line, options: options, log: log).uppercased()
            guard i < n, b[i] == equals else {
                // A parameter without '=' (seen in old exports: ";ENCODING;CHARSET=…") is kept
                // as a valueless parameter so it round-trips.
                guard !parameterName.isEmpty, parameterName.utf8.allSatisfy(isNameByte) else {
                    throw fail("malformed parameter in \(name)")
                }
                parameters.append(Parameter(name: parameterName, values: []))
                continue
            }
            i += 1
            var values: [String] = []
            while true {
                let value: String
                // Whether the value holds a '^' (RFC 6868) is noted on the way, not looked for again.
                var caret = false
                if i < n, b[i] == quote {
                    let start = i + 1
                    i = start
                    while i < n, b[i] != quote {
                        caret = caret || b[i] == caretByte
                        i += 1
                    }
                    guard i < n else { throw fail("unterminated quoted parameter value in \(name);\(parameterName)") }
                    value = try parameterValue(piece(start, i), caret: caret, line: line, options: options, log: log)
                    i += 1
                    // `CN="Doe, Jane" ;ROLE=…`: spaces between a closing quote and what follows it.
                    if i < n, b[i] == space {
                        i = try skipStraySpaces(
                            b, from: i, before: [semicolon, colon, comma], in: "\(name);\(parameterName)", line: line, options: options,
                            log: log)
                    }
                } else {
                    let start = i
                    while i < n {
                        let c = b[i]
                        if c == comma || c == semicolon || c == colon { break }
                        caret = caret || c == caretByte
                        i += 1
                    }
                    value = try parameterValue(piece(start, i), caret: caret, line: line, options: options, log: log)
                }
                if i < n, b[i] == comma {
                    values.append(value)
                    try countValue()
                    i += 1
                    // `DELEGATED-TO="mailto:a@…", "mailto:b@…"`: spaces before the next quoted value.
                    if i < n, b[i] == space {
                        i = try skipStraySpaces(
                            b, from: i, before: [quote], in: "\(name);\(parameterName)", line: line, options: options, log: log)
                    }
                    continue
                }
                // Most parameters hold one value: build that array in one step.
                if values.isEmpty { values = [value] } else { values.append(value) }
                break
            }
            parameters.append(Parameter(name: parameterName, values: values))
        }
        guard i < n, b[i] == colon else { throw fail("expected ':' after the parameters of \(name)") }
        // An ASCII value (most are) stays bytes: dates, numbers and words are read from them
        // without a String. Other text is made a String here, where invalid UTF-8 is repaired
        // (or rejected), as the one validation it gets; but text with escapes is checked here
        // and kept as bytes, so that only its unescaped String is made (and validated).
        let valueBytes = piece(i + 1, n)
        let nonASCII = firstNonASCII(valueBytes)
        if nonASCII < valueBytes.count,
            !ValueCodec.contains(valueBytes, UInt8(ascii: "\\")) || !isValidUTF8(valueBytes, from: nonASCII)
        {
            let valueText = try text(valueBytes, line: line, options: options, log: log)
            return ContentLine(name: name, parameters: parameters, rawValue: .text(valueText), line: line, info: info)
        }
        return ContentLine(name: name, parameters: parameters, rawValue: .bytes(valueBytes), line: line, info: info)
    }

    /// The index of the first byte of `b` from `from` on that is not ASCII, or `b.count`; eight
    /// bytes are looked at a time, and every read stays below `b.count`.
    @inline(__always)
    static func firstNonASCII(_ b: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int {
        guard let p = b.baseAddress else { return 0 }
        let n = b.count
        var i = from
        while i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        while i < n, p[i] < 0x80 { i += 1 }
        return i
    }

    /// Whether bytes are valid UTF-8 (RFC 3629: no overlong forms, surrogates or code points
    /// past U+10FFFF), exactly when `String(decoding:as:)` repairs nothing; the bytes before
    /// `from` are known to be ASCII. All reads stay below `b.count`.
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Bool {
        guard let p = b.baseAddress else { return true }
        let n = b.count
        var i = from
        while true {
            i = firstNonASCII(b, from: i)
            guard i < n else { return true }
            let c = p[i]
            @inline(__always) func continuation(_ k: Int) -> UInt8? {
                guard i + k < n, p[i + k] & 0xC0 == 0x80 else { return nil }
                return p[i + k]
            }
            if c < 0xC2 {
                return false
            } else if c < 0xE0 {
                guard continuation(1) != nil else { return false }
                i += 2
            } else if c < 0xF0 {
                guard let c1 = continuation(1), continuation(2) != nil else { return false }
                // E0 needs A0…BF after it (no overlong form); ED 80…9F (no surrogate).
                if (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) { return false }
                i += 3
            } else if c < 0xF5 {
                guard let c1 = continuation(1), continuation(2) != nil, continuation(3) != nil else { return false }
                // F0 needs 90…BF after it (no overlong form); F4 80…8F (nothing past U+10FFFF).
                if (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F) { return false }
                i += 4
            } else {
                return false
            }
        }
    }

    /// Whether the property table knows a name of this many bytes, for counts over 16.
    /// The most parameters, and values in them, one content line may have: an ATTENDEE has about
    /// ten; this many is no calendar's.
    static let maximumParameterValues = 10_000

    static let knownLongNameLengths: [Bool] = {
        let names = Array(PropertyTable.definitions.keys) + PropertyID.allCases.map(\.rawValue)
        let counts = names.map(\.utf8.count)
        var known = [Bool](repeating: false, count: (counts.max() ?? 0) + 1)
        for count in counts where count > 16 { known[count] = true }
        return known
    }()

    /// Where parsing goes on after the spaces from `from` on, when a byte of `before` follows
    /// them: those spaces stand where RFC 5545 §3.1 allows none (after a closing quote, or
    /// before a quoted value in a list), so lenient mode skips them with a warning and `--strict`
    /// refuses them. Otherwise `from`, for the parse to go on as before. Off the hot path: a
    /// parameter is followed by a space only in broken input.
    private static func skipStraySpaces(
        _ b: UnsafeBufferPointer<UInt8>, from: Int, before: [UInt8], in place: String, line: Int, options: ReadOptions, log: DiagnosticLog
    ) throws -> Int {
        var i = from
        while i < b.count, b[i] == UInt8(ascii: " ") || b[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < b.count, before.contains(b[i]) else { return from }
        let message = "space in the parameters of \(place) where none may stand"
        guard !options.strict else { throw CalendarError(.data, file: options.sourceName, line: line, message) }
        log.warning(file: options.sourceName, line: line, message + "; ignored")
        return i
    }

    /// The name upper-cased without going through Unicode case mapping (names are nearly always
    /// upper-case already, and then nothing is copied but the String); nil when a byte is not a
    /// name byte.
    @inline(__always)
    static func upperCasedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var hasLower = false
        for b in bytes {
            guard isNameByte(b) else { return nil }
            if b >= 0x61 && b <= 0x7A { hasLower = true }
        }
        if !hasLower { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    @inline(__always)
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E || b == 0x2F
    }

    /// Text from bytes: invalid UTF-8 is repaired with a warning, or rejected under `--strict`.
    /// Decoding repairs, so the text is valid exactly when its bytes are the input's; that
    /// comparison (memcmp) costs far less than the generic `String(validating:)`.
    @inline(__always)
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, options: ReadOptions, log: DiagnosticLog) throws -> String {
        var s = String(decoding: bytes, as: UTF8.self)
        let valid = s.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        if valid { return s }
        guard !options.strict else {
            throw CalendarError(.data, file: options.sourceName, line: line, "invalid UTF-8")
        }
        log.warning(file: options.sourceName, line: line, "invalid UTF-8 replaced with U+FFFD")
        return s
    }

    /// A parameter value's text; `caret` tells whether its bytes hold a '^' (repair never
    /// touches one, so the bytes tell whether the text holds one).
    @inline(__always)
    private static func parameterValue(
        _ bytes: UnsafeBufferPointer<UInt8>, caret: Bool, line: Int, options: ReadOptions, log: DiagnosticLog
    ) throws -> String {
        if !caret, let shared = CommonWord.string(bytes) { return shared }
        let s = try text(bytes, line: line, options: options, log: log)
        return caret ? decodeCaret(s) : s
    }

    /// Undoes RFC 6868's ^n, ^' and ^^; any other ^ stays as it is.
    private static func decodeCaret(_ s: String) -> String {
        var out = ""
        var iterator = s.makeIterator()
        while let c = iterator.next() {
            guard c == "^" else {
                out.append(c)
                continue
            }
            switch iterator.next() {
            case "n": out.append("\n")
            case "'": out.append("\"")
            case "^": out.append("^")
            case let other?: out.append("^"); out.append(other)
            case nil: out.append("^")
            }
        }
        return out
    }
}

/// The values of RFC 5545's enumerated parameters (CUTYPE, ROLE, PARTSTAT, RSVP, VALUE, …)
/// and properties (STATUS, CLASS, TRANSP, ACTION, …), which make up most parameter values and
/// many property values: looking one up costs a fraction of decoding and validating its bytes
/// into a new String.
enum CommonWord {
    /// A word packed into two integers (the count in the top byte of `high`), and its String.
    private struct Entry {
        var low: UInt64
        var high: UInt64
        var string: String
    }

    /// Words of up to 15 bytes, so the count fits beside them.
    static let words = [
        "INDIVIDUAL", "GROUP", "RESOURCE", "ROOM", "UNKNOWN", "CHAIR", "REQ-PARTICIPANT", "OPT-PARTICIPANT",
        "NON-PARTICIPANT", "NEEDS-ACTION", "ACCEPTED", "DECLINED", "TENTATIVE", "DELEGATED", "COMPLETED", "IN-PROCESS",
        "TRUE", "FALSE", "DATE", "DATE-TIME", "PERIOD", "DURATION", "BINARY", "URI", "TEXT", "START", "END", "BASE64",
        "8BIT", "THISANDFUTURE", "FREE", "BUSY", "BUSY-TENTATIVE", "PARENT", "CHILD", "SIBLING",
        // Property values (and Microsoft's busy statuses).
        "CONFIRMED", "CANCELLED", "DRAFT", "FINAL", "PUBLIC", "PRIVATE", "CONFIDENTIAL", "OPAQUE", "TRANSPARENT", "DISPLAY",
        "EMAIL", "AUDIO", "GREGORIAN", "PUBLISH", "REQUEST", "REPLY", "CANCEL", "2.0", "OOF", "AUTOMATIC",
    ]
    private static let slotBits = 7
    /// Open addressing on `slot(low:high:)`; a free slot has `high` 0 (no word is empty).
    private static let table: [Entry] = {
        var table = [Entry](repeating: Entry(low: 0, high: 0, string: ""), count: 1 << slotBits)
        for word in words {
            let (low, high) = Array(word.utf8).withUnsafeBufferPointer { pack($0) }
            var slot = CommonWord.slot(low: low, high: high)
            while table[slot].high != 0 { slot = (slot + 1) & ((1 << slotBits) - 1) }
            table[slot] = Entry(low: low, high: high, string: word)
        }
        return table
    }()

    /// Per count, a bit per first byte ('0' to 'o') that some word has: most other values
    /// (names, time zones) are turned away by it before any hashing.
    private static let firstBytes: [UInt64] = {
        var masks = [UInt64](repeating: 0, count: 16)
        for word in words { masks[word.utf8.count] |= 1 << (word.utf8.first! - 0x30) }
        return masks
    }()

    @inline(__always)
    private static func pack(_ b: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
        var low: UInt64 = 0
        var high = UInt64(b.count) << 56
        for k in 0..<min(b.count, 8) { low |= UInt64(b[k]) << (k << 3) }
        if b.count > 8 { for k in 8..<b.count { high |= UInt64(b[k]) << ((k - 8) << 3) } }
        return (low, high)
    }

    @inline(__always)
    private static func slot(low: UInt64, high: UInt64) -> Int {
        Int(truncatingIfNeeded: ((low ^ high &* 0xC2B2_AE3D_27D4_EB4F) &* 0x9E37_79B9_7F4A_7C15) >> (64 - slotBits))
    }

    /// The shared String for `b` when it is one of the words, else nil.
    static func string(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.count >= 3, b.count <= 15 else { return nil }
        let first = b[0] &- 0x30
        guard first < 64, firstBytes.withUnsafeBufferPointer({ $0[b.count] }) & (1 << first) != 0 else { return nil }
        let (low, high) = pack(b)
        var slot = slot(low: low, high: high)
        return table.withUnsafeBufferPointer { table in
            while true {
                let entry = table[slot]
                if entry.high == 0 { return nil }
                if entry.high == high && entry.low == low { return entry.string }
                slot = (slot + 1) & ((1 << slotBits) - 1)
            }
        }
    }
}
