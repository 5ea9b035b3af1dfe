import CalendarModel

/// Turns input bytes into UTF-8, chunk by chunk: UTF-8 with or without a byte-order mark, and
/// UTF-16 as Outlook's "Unicode" export writes it (little-endian with a BOM; big-endian and
/// BOM-less UTF-16 are recognized too).
final class CSVTextDecoder {
    /// The encodings recognized from the first bytes.
    enum Encoding: String {
        case utf8 = "UTF-8", utf16LE = "UTF-16LE", utf16BE = "UTF-16BE"
    }

    private let source: ByteSource
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    /// Bytes read but not yet decoded (a UTF-16 code unit split across reads, the BOM probe).
    private var carry: [UInt8] = []
    /// A high surrogate waiting for its partner across reads.
    private var pendingHighSurrogate: UInt16?
    private var finished = false
    /// The encoding, known after the first read.
    private(set) var encoding: Encoding?
    /// Unpaired UTF-16 surrogates replaced by U+FFFD.
    private(set) var replacedSurrogates = 0

    init(source: ByteSource) {
        self.source = source
    }

    /// Appends the next piece of UTF-8 text to `output`; returns false once the input is exhausted.
    func read(into output: inout [UInt8]) throws -> Bool {
        if finished { return false }
        let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 {
            finished = true
            if encoding == nil { detect(final: true) }
            flushAtEnd(into: &output)
            return true
        }
        carry.append(contentsOf: chunk[0..<count])
        if encoding == nil {
            guard carry.count >= 4 else { return true }
            detect(final: false)
        }
        decodeCarry(into: &output)
        return true
    }

    private func detect(final: Bool) {
        let b = carry
        if b.starts(with: [0xEF, 0xBB, 0xBF]) {
            encoding = .utf8
            carry.removeFirst(3)
        } else if b.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LE
            carry.removeFirst(2)
        } else if b.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BE
            carry.removeFirst(2)
        } else if b.count >= 4 && b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0 {
            // ASCII header text in UTF-16 without a mark: every second byte is zero.
            encoding = .utf16LE
        } else if b.count >= 4 && b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0 {
            encoding = .utf16BE
        } else {
            encoding = .utf8
        }
    }

    private func decodeCarry(into output: inout [UInt8]) {
        switch encoding {
        case .utf8, nil:
            output.append(contentsOf: carry)
            carry.removeAll(keepingCapacity: true)
        case .utf16LE, .utf16BE:
            let littleEndian = encoding == .utf16LE
            let usable = carry.count & ~1
            var i = 0
            while i < usable {
                let unit = littleEndian ? UInt16(carry[i]) | UInt16(carry[i + 1]) << 8 : UInt16(carry[i]) << 8 | UInt16(carry[i + 1])
                decode(unit, into: &output)
                i += 2
            }
            carry.removeFirst(usable)
        }
    }

    private func decode(_ unit: UInt16, into output: inout [UInt8]) {
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
                appendUTF8(scalar, to: &output)
                return
            }
            replacedSurrogates += 1
            appendUTF8(0xFFFD, to: &output)
        }
        if (0xD800...0xDBFF).contains(unit) {
            pendingHighSurrogate = unit
        } else if (0xDC00...0xDFFF).contains(unit) {
            replacedSurrogates += 1
            appendUTF8(0xFFFD, to: &output)
        } else {
            appendUTF8(UInt32(unit), to: &output)
        }
    }

    private func flushAtEnd(into output: inout [UInt8]) {
        decodeCarry(into: &output)
        if pendingHighSurrogate != nil || !carry.isEmpty {
            // A lone high surrogate or an odd trailing byte ends a UTF-16 input.
            replacedSurrogates += 1
            appendUTF8(0xFFFD, to: &output)
            pendingHighSurrogate = nil
            carry.removeAll()
        }
    }

    private func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
