import CalendarModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns bytes into unfolded content lines. Works on a byte buffer and builds Strings only
/// for the finished pieces, because this loop runs over every byte of every conversion.
struct ContentLineLexer {
    /// The longest logical line accepted; a longer one is a data error rather than a way to
    /// exhaust memory.
    static let maximumLineLength = 64 << 20

    private let source: ByteSource
    private let options: ReadOptions
    private let log: DiagnosticLog
    private var buffer: [UInt8]
    private var position = 0
    private var end = 0
    private var atEOF = false
    /// Physical line number of the next byte.
    private var physicalLine = 1
    private var checkedBOM = false
    /// The logical line being assembled.
    private var current: [UInt8] = []
    /// Where the next CR and the next LF stand in the buffer (`end` when there is none), as
    /// memchr last found them; searched again only once `position` has passed them.
    private var nextCR = -1
    private var nextLF = -1

    init(source: ByteSource, options: ReadOptions, log: DiagnosticLog) {
        self.source = source
        self.options = options
        self.log = log
        self.buffer = [UInt8](repeating: 0, count: 1 << 16)
    }

    private mutating func fill() throws -> Bool {
        if atEOF { return false }
        let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        position = 0
        end = n
        nextCR = -1
        nextLF = -1
        if n == 0 { atEOF = true }
        return n > 0
    }

    /// The next physical byte, or nil at the end.
    @inline(__always)
    private mutating func peek() throws -> UInt8? {
        if position < end { return buffer[position] }
        return try fill() ? buffer[position] : nil
    }

    /// The index of the first CR or LF at or after `from` in the buffer, or `end`. memchr looks
    /// at many bytes at a time (this touches every byte of every input), and the position of the
    /// terminator not taken is kept, so a file of LF-only (or CR-only) lines searches for the
    /// other byte once per buffer rather than once per line.
    @inline(__always)
    private mutating func lineEnd(from: Int) -> Int {
        let limit = end
        if nextLF < from || nextCR < from {
            buffer.withUnsafeBufferPointer { b in
                let base = b.baseAddress!
                func find(_ byte: UInt8) -> Int {
                    guard let p = memchr(base + from, Int32(byte), limit - from) else { return limit }
                    return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                }
                if nextLF < from { nextLF = find(0x0A) }
                if nextCR < from { nextCR = find(0x0D) }
            }
        }
        return min(nextCR, nextLF)
    }

    /// Reads one physical line into `current` (appending), without its terminator; returns
    /// false at end of input with nothing read.
    private mutating func readPhysicalLine() throws -> Bool {
        var readAny = false
        while true {
            if position >= end {
                if try !fill() { return readAny }
            }
            readAny = true
            // Scan the buffer for CR or LF without per-byte bookkeeping.
            let start = position
            let i = lineEnd(from: start)
            if i > start {
                if current.count + (i - start) > Self.maximumLineLength {
                    throw CalendarError(.data, file: options.sourceName, line: physicalLine,
                        "line is longer than \(Self.maximumLineLength) bytes")
                }
                buffer.withUnsafeBufferPointer { b in
                    let piece = UnsafeBufferPointer(rebasing: b[start..<i])
                    // Most logical lines are one physical line: one exact allocation and a copy.
                    if current.isEmpty { current = Array(piece) } else { current.append(contentsOf: piece) }
                }
            }
            position = i
            if i < end {
                let terminator = buffer[i]
                position += 1
                if terminator == 0x0D, try peek() == 0x0A { position += 1 }
                physicalLine += 1
                return true
            }
        }
    }

    /// The next logical line as bytes with its starting line number, folding undone; nil at end.
    mutating func nextRawLine() throws -> (bytes: [UInt8], line: Int)? {
        // A fresh array: the last line went to the caller, so keeping its capacity would mean
        // allocating a copy of that (possibly large) buffer for every line.
        current = []
        if !checkedBOM {
            checkedBOM = true
            if try peek() == 0xEF {
                // Only a complete BOM is skipped; the buffer holds at least 3 bytes unless the input is shorter.
                if end - position >= 3, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF { position += 3 }
            }
        }
        var startLine = physicalLine
        // Skip blank lines (seen between components in real files).
        while true {
            startLine = physicalLine
            guard try readPhysicalLine() else { return nil }
            if !current.isEmpty { break }
        }
        // Continuation lines start with a space or a tab (RFC 5545 §3.1).
        while let next = try peek(), next == 0x20 || next == 0x09 {
            position += 1
            _ = try readPhysicalLine()
        }
        return (current, startLine)
    }
}
