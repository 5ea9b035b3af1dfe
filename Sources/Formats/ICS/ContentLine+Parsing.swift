import CalendarModel

extension ContentLine {
    /// Splits a logical line into name, parameters and value (RFC 5545 §3.1, with RFC 6868's
    /// ^-escapes in parameter values). Invalid UTF-8 and NUL bytes are repaired with a warning,
    /// or rejected under `--strict`.
    static func parse(_ raw: [UInt8], line: Int, options: ReadOptions, log: DiagnosticLog) throws -> ContentLine {
        var bytes = raw
        if bytes.contains(0) {
            guard !options.strict else {
                throw CalendarError(.data, file: options.sourceName, line: line, "NUL byte in content line")
            }
            log.warning(file: options.sourceName, line: line, "NUL bytes removed from content line")
            bytes.removeAll { $0 == 0 }
        }
        func fail(_ message: String) -> CalendarError {
            CalendarError(.data, file: options.sourceName, line: line, message)
        }
        let n = bytes.count
        var i = 0
        while i < n, bytes[i] != UInt8(ascii: ";"), bytes[i] != UInt8(ascii: ":") { i += 1 }
        guard i < n else {
            let preview = String(decoding: bytes.prefix(40), as: UTF8.self)
            throw fail("content line has no ':' (\"\(preview)\(bytes.count > 40 ? "…" : "")\")")
        }
        guard i > 0 else { throw fail("content line has no property name") }
        guard bytes[0..<i].allSatisfy(isNameByte) else {
            throw fail("invalid property name '\(String(decoding: bytes[0..<i], as: UTF8.self))'")
        }
        let name = upperASCII(bytes[0..<i])
        var parameters: [Parameter] = []
        while i < n, bytes[i] == UInt8(ascii: ";") {
            i += 1
            let nameStart = i
            while i < n, bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ":"), bytes[i] != UInt8(ascii: ";") { i += 1 }
            let parameterName = bytes[nameStart..<i].allSatisfy(isNameByte)
                ? upperASCII(bytes[nameStart..<i])
                : try text(bytes[nameStart..<i], line: line, options: options, log: log).uppercased()
            guard i < n, bytes[i] == UInt8(ascii: "=") else {
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
                if i < n, bytes[i] == UInt8(ascii: "\"") {
                    let start = i + 1
                    i = start
                    while i < n, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                    guard i < n else { throw fail("unterminated quoted parameter value in \(name);\(parameterName)") }
                    values.append(decodeCaret(try text(bytes[start..<i], line: line, options: options, log: log)))
                    i += 1
                } else {
                    let start = i
                    while i < n, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: ";"), bytes[i] != UInt8(ascii: ":") { i += 1 }
                    values.append(decodeCaret(try text(bytes[start..<i], line: line, options: options, log: log)))
                }
                if i < n, bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                break
            }
            parameters.append(Parameter(name: parameterName, values: values))
        }
        guard i < n, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the parameters of \(name)") }
        let value = try text(bytes[(i + 1)...], line: line, options: options, log: log)
        return ContentLine(name: name, parameters: parameters, value: value, line: line)
    }

    /// Upper-cases an ASCII name without going through Unicode case mapping; names are
    /// nearly always upper-case already, and then nothing is copied but the String.
    @inline(__always)
    private static func upperASCII(_ slice: ArraySlice<UInt8>) -> String {
        if !slice.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { return String(decoding: slice, as: UTF8.self) }
        return String(decoding: slice.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    @inline(__always)
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E || b == 0x2F
    }

    private static func text(_ slice: ArraySlice<UInt8>, line: Int, options: ReadOptions, log: DiagnosticLog) throws -> String {
        // ASCII is the common case and always valid.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        if let s = String(validating: slice, as: UTF8.self) { return s }
        guard !options.strict else {
            throw CalendarError(.data, file: options.sourceName, line: line, "invalid UTF-8")
        }
        log.warning(file: options.sourceName, line: line, "invalid UTF-8 replaced with U+FFFD")
        return String(decoding: slice, as: UTF8.self)
    }

    /// Undoes RFC 6868's ^n, ^' and ^^; any other ^ stays as it is.
    private static func decodeCaret(_ s: String) -> String {
        guard ValueCodec.contains(s, UInt8(ascii: "^")) else { return s }
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
