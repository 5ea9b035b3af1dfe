import CalendarModel
import ICalendarData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A logical line as the lexer hands it out: its bytes, folding undone and without the
/// terminator, and the physical line it started on (1-based). The bytes belong to the lexer
/// and stay valid until its next `nextLine` call.
struct RawLine {
    var bytes: UnsafeBufferPointer<UInt8>
    var line: Int
}

/// Bytes in memory of their own, so a line can be handed out as a pointer into them without
/// a copy (an Array's storage may not be pointed into outside a closure).
final class ByteStore {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// How many bytes from `base` on are in use.
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for at least `minimum` bytes, keeping the `count` in use.
    func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let grown = max(minimum, capacity * 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }

    /// Empties the store, and gives back its memory for a fresh `capacity` when it grew past
    /// `limit`.
    func clear(shrinkingAbove limit: Int, to capacity: Int) {
        count = 0
        guard self.capacity > limit else { return }
        base.deallocate()
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(count + bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }
}

/// Turns bytes into unfolded logical lines. A line that is one physical line (most are) is
/// handed out where it stands in the read buffer; only a folded line is copied, into one
/// scratch buffer that is reused: this loop runs over every byte of every conversion, and an
/// allocation per line cost more than the rest of it.
struct ContentLineLexer {
    /// The longest logical line accepted; a longer one is a data error rather than a way to
    /// exhaust memory.
    static let maximumLineLength = 64 << 20
    /// How much is asked of the source at a time, at least.
    private static let readSize = 1 << 16

    private let source: ByteSource
    private let options: ReadOptions
    /// The input read so far and not yet done with. Bytes before `position` are consumed, but
    /// those from `keep` on are kept when the window is refilled, since the line being read
    /// (or handed out) stands there.
    private let window = ByteStore(capacity: readSize)
    private var position = 0
    private var keep = 0
    private var atEOF = false
    /// Physical line number of the byte at `position`.
    private var physicalLine = 1
    private var checkedBOM = false
    /// The folded line being read, unfolded.
    private let unfolded = ByteStore(capacity: 1 << 12)
    /// Lenient mode's rare repairs: a line with the following lines that lack ':' joined to it,
    /// and the line read while looking for the end of such a join, to be handed out next.
    private var joined: ByteStore?
    private var held: ByteStore?
    private var heldLine: Int?
    /// Where the next CR and the next LF stand in the window (`window.count` when there is
    /// none), as memchr last found them; searched again only once the search start has passed
    /// them or more input arrived.
    private var nextCR = -1
    private var nextLF = -1

    init(source: ByteSource, options: ReadOptions, log: DiagnosticLog) {
        self.source = source
        self.options = options
    }

    /// Reads more input after the window's bytes, first moving those from `keep` on to its
    /// start (growing it only when a line fills half of it); false at the end of input.
    private mutating func fill() throws -> Bool {
        if atEOF { return false }
        let shift = keep
        if shift > 0 {
            let live = window.count - shift
            if live > 0 { memmove(window.base, window.base + shift, live) }
            window.count = live
            position -= shift
            keep = 0
            nextCR -= shift
            nextLF -= shift
        }
        if window.capacity - window.count < Self.readSize / 2 { window.reserve(window.count + Self.readSize) }
        let oldEnd = window.count
        let free = UnsafeMutableRawBufferPointer(start: window.base + oldEnd, count: window.capacity - oldEnd)
        let n = try source.read(into: free)
        window.count += n
        // "None before the end" no longer holds once the end moves.
        if nextCR >= oldEnd { nextCR = -1 }
        if nextLF >= oldEnd { nextLF = -1 }
        if n == 0 { atEOF = true }
        return n > 0
    }

    /// Whether a byte is available at `position`, reading more if needed.
    @inline(__always)
    private mutating func hasByte() throws -> Bool {
        try position < window.count || fill()
    }

    /// The index of the first CR or LF at or after `from` in the window, or `window.count`.
    /// memchr looks at many bytes at a time (this touches every byte of every input), and the
    /// position of the terminator not taken is kept, so a file of LF-only (or CR-only) lines
    /// searches for the other byte once per buffer rather than once per line.
    @inline(__always)
    private mutating func lineEnd(from: Int) -> Int {
        let limit = window.count
        if nextLF < from || nextCR < from {
            let base = window.base
            func find(_ byte: UInt8) -> Int {
                guard let p = memchr(base + from, Int32(byte), limit - from) else { return limit }
                return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
            }
            if nextLF < from { nextLF = find(0x0A) }
            if nextCR < from { nextCR = find(0x0D) }
        }
        return min(nextCR, nextLF)
    }

    /// Consumes the terminator at `position` (CR, LF or CR LF).
    @inline(__always)
    private mutating func consumeTerminator() throws {
        let terminator = window.base[position]
        position += 1
        if terminator == 0x0D, try hasByte(), window.base[position] == 0x0A { position += 1 }
        physicalLine += 1
    }

    /// Reads the physical line at `position` and its terminator; its bytes are the window's
    /// from `keep` on, and their count is returned. `before` is how much of the logical line
    /// precedes it. Nil at end of input with nothing read.
    private mutating func readPhysicalLine(before: Int) throws -> Int? {
        keep = position
        while true {
            let i = lineEnd(from: position)
            if before + (i - keep) > Self.maximumLineLength {
                throw CalendarError(.data, file: options.sourceName, line: physicalLine,
                    "line is longer than \(Self.maximumLineLength) bytes")
            }
            if i < window.count {
                let length = i - keep
                position = i
                try consumeTerminator()
                return length
            }
            position = i
            if try !fill() {
                // The last line, without a terminator.
                return position > keep ? position - keep : nil
            }
        }
    }

    /// Whether the byte at `position` begins a continuation line: a space or a tab (RFC 5545 §3.1).
    @inline(__always)
    private mutating func continues() throws -> Bool {
        guard try hasByte() else { return false }
        let b = window.base[position]
        return b == 0x20 || b == 0x09
    }

    /// Reads the next logical line, skipping blank lines: its bytes are `unfolded`'s when it
    /// was folded, else the window's from `keep` on. Nil at end of input.
    private mutating func readLogicalLine() throws -> (folded: Bool, count: Int, line: Int)? {
        if !checkedBOM {
            checkedBOM = true
            if try hasByte(), window.base[position] == 0xEF {
                // Only a complete BOM is skipped; the window holds at least 3 bytes unless the input is shorter.
                if window.count - position >= 3, window.base[position + 1] == 0xBB, window.base[position + 2] == 0xBF { position += 3 }
            }
        }
        var startLine: Int
        var length: Int
        repeat {
            startLine = physicalLine
            guard let n = try readPhysicalLine(before: 0) else { return nil }
            length = n
        } while length == 0
        guard try continues() else { return (false, length, startLine) }
        unfolded.count = 0
        unfolded.append(UnsafeBufferPointer(start: window.base + keep, count: length))
        repeat {
            position += 1
            guard let n = try readPhysicalLine(before: unfolded.count) else { break }
            unfolded.append(UnsafeBufferPointer(start: window.base + keep, count: n))
        } while try continues()
        return (true, unfolded.count, startLine)
    }

    @inline(__always)
    private func bytes(of line: (folded: Bool, count: Int, line: Int)) -> UnsafeBufferPointer<UInt8> {
        line.folded ? unfolded.bytes : UnsafeBufferPointer(start: window.base + keep, count: line.count)
    }

    /// Whether the next logical line lacks ':' in its first physical line, so lenient mode
    /// must look at it whole: it may be the rest of a line whose folding lost its space. Blank
    /// lines before it are consumed, as reading it would; false at the end of input.
    private mutating func nextLineMayJoin() throws -> Bool {
        while true {
            guard try hasByte() else { return false }
            let e = lineEnd(from: position)
            if e == window.count, !atEOF {
                // A line past the limit is refused when it is read: looking for its end here
                // would read all of it (a 1 GB line, gigabytes of window).
                if e - position > Self.maximumLineLength { return false }
                _ = try fill()
                continue
            }
            if e == position {
                try consumeTerminator()
                continue
            }
            return memchr(window.base + position, Int32(UInt8(ascii: ":")), e - position) == nil
        }
    }

    /// The next logical line, folding undone; nil at the end. In lenient mode, the following
    /// lines without ':' (folding that lost its leading space) are joined to it, each with a
    /// warning to `log`.
    mutating func nextLine(log: DiagnosticLog) throws -> RawLine? {
        var current: RawLine
        // Whether the line stands in the window: looking ahead may move the window, and the
        // line is then found again at `keep`.
        var inWindow = false
        if let line = heldLine, let held {
            heldLine = nil
            current = RawLine(bytes: held.bytes, line: line)
        } else {
            guard let line = try readLogicalLine() else { return nil }
            current = RawLine(bytes: bytes(of: line), line: line.line)
            inWindow = !line.folded
        }
        guard !options.strict else { return current }
        guard try nextLineMayJoin() else {
            if inWindow { current.bytes = UnsafeBufferPointer(start: window.base + keep, count: current.bytes.count) }
            return current
        }
        // Rare: the line is copied, and each following line read whole to see whether it has a ':'.
        let join = joined ?? ByteStore(capacity: current.bytes.count * 2)
        joined = join
        join.count = 0
        join.append(inWindow ? UnsafeBufferPointer(start: window.base + keep, count: current.bytes.count) : current.bytes)
        while let next = try readLogicalLine() {
            let nextBytes = bytes(of: next)
            if let base = nextBytes.baseAddress, memchr(base, Int32(UInt8(ascii: ":")), nextBytes.count) != nil {
                let store = held ?? ByteStore(capacity: nextBytes.count)
                held = store
                store.count = 0
                store.append(nextBytes)
                heldLine = next.line
                break
            }
            if Self.isPropertyWithoutValue(nextBytes) {
                // `ORGANIZER;CN=Jane Doe` is a property that lost its value, not the rest of the
                // line above: glued on, it would corrupt that line's value.
                let preview = String(decoding: nextBytes.prefix(60), as: UTF8.self)
                log.warning(
                    file: options.sourceName, line: next.line, "property line has no ':' and no value (\"\(preview)\"); line skipped")
            } else {
                log.warning(
                    file: options.sourceName, line: next.line,
                    "line has no ':'; joined to the line \(current.line) above it (folding without a leading space)")
                join.append(nextBytes)
            }
            guard try nextLineMayJoin() else { break }
        }
        return RawLine(bytes: join.bytes, line: current.line)
    }

    /// Whether a line without ':' starts as a property with parameters does: a name the
    /// property table knows (or an X- name), ';', a parameter name and '='. Text that lost its
    /// folding space seldom does, and such a line is skipped rather than joined.
    static func isPropertyWithoutValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
        }
        var i = 0
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard i > 0, i < bytes.count, bytes[i] == UInt8(ascii: ";") else { return false }
        let name = UnsafeBufferPointer(rebasing: bytes[0..<i])
        let isXName = i > 2 && name[0] | 0x20 == UInt8(ascii: "x") && name[1] == UInt8(ascii: "-")
        guard isXName || PropertyTable.info(nameBytes: name) != nil else { return false }
        var j = i + 1
        while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
        return j > i + 1 && j < bytes.count && bytes[j] == UInt8(ascii: "=")
    }
}
