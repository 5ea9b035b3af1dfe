import CalendarModel

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
        if n == 0 { atEOF = true }
        return n > 0
    }

    /// The next physical byte, or nil at the end.
    @inline(__always)
    private mutating func peek() throws -> UInt8? {
        if position < end { return buffer[position] }
        return try fill() ? buffer[position] : nil
    }

    /// The index of the first CR or LF in `[from, to)`, or `to`. Eight bytes at a time (the
    /// classic has-zero-byte test on the bytes XOR CR and XOR LF), since this loop touches every
    /// byte of every input.
    @inline(__always)
    static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, to limit: Int) -> Int {
        var j = from
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while j + 8 <= limit {
            let word = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
            let lf = word ^ (ones &* 0x0A)
            let cr = word ^ (ones &* 0x0D)
            let found = ((lf &- ones) & ~lf | (cr &- ones) & ~cr) & highs
            if found != 0 { break }
            j += 8
        }
        while j < limit {
            let c = base[j]
            if c == 0x0A || c == 0x0D { return j }
            j += 1
        }
        return j
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
            let limit = end
            let i = buffer.withUnsafeBufferPointer { b -> Int in Self.lineEnd(b.baseAddress!, from: start, to: limit) }
            if i > start {
                if current.count + (i - start) > Self.maximumLineLength {
                    throw CalendarError(.data, file: options.sourceName, line: physicalLine,
                        "line is longer than \(Self.maximumLineLength) bytes")
                }
                current.append(contentsOf: buffer[start..<i])
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
        current.removeAll(keepingCapacity: true)
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
