import CalendarModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The blocks of iCalendar text that a body's resources repeat, with what reading them gave.
/// Each resource is a whole iCalendar object (RFC 4791 §4.1), so a server repeats in every one
/// the VCALENDAR's own properties and the VTIMEZONEs its components use: on the bench archive
/// two resources in three carry the same few VTIMEZONEs of some 40 lines, a third of the text
/// and more than a third of the cost of parsing it (and `CalDAVReader` keeps only the first
/// of each, and only the first resource's calendar). A block met before is cut out of the text
/// before it is parsed, and what its first reading gave is put back at its place.
///
/// Shared by the reader's thread and the scanner's (`CalendarDataReadAhead`), under a lock.
/// Bounded: blocks are learnt until `maximumCount` or `maximumBytes` is reached.
final class RepeatedCalendarText: @unchecked Sendable {
    /// Lines of a resource's text that may be cut out: whole physical lines, from `start` up
    /// to `end` (past the last one's terminator), the first on `line` (1-based, counted as the
    /// iCalendar lexer counts them), `lineCount` of them.
    struct Block {
        var start: Int
        var end: Int
        var line: Int
        var lineCount: Int
    }

    /// What may be cut out of one text: the properties of its first VCALENDAR before its first
    /// component, and VTIMEZONEs, in the order of the text.
    struct Blocks {
        var header: Block?
        var zones: [Block] = []
    }

    static let maximumCount = 256
    static let maximumBytes = 1 << 20

    /// A block's text as a dictionary key. Hashed by its length and its first and last bytes
    /// (an array of bytes hashes byte by byte: 30k instructions for a VTIMEZONE; a zone's
    /// TZID is in its first line), compared whole.
    private struct Key: Hashable {
        var bytes: [UInt8]

        static func == (a: Key, b: Key) -> Bool {
            guard a.bytes.count == b.bytes.count else { return false }
            return a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in
                    guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                    return memcmp(p, q, x.count) == 0
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { all in
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all.prefix(96)))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all.suffix(32)))
            }
        }
    }

    private struct State {
        var zones: [Key: CalendarEntry] = [:]
        var headers: [Key: CalendarModel.Calendar] = [:]
        var bytes = 0

        mutating func makeRoom(for count: Int) -> Bool {
            guard zones.count + headers.count < maximumCount, bytes + count <= maximumBytes else { return false }
            bytes += count
            return true
        }
    }

    // A pthread lock (NSLock), not Synchronization's Mutex: ThreadSanitizer sees no order in
    // the Mutex's futex on Linux and reports its guarded state as raced.
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var state = State()

    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// The entry read before from each zone block's text, nil where there is none.
    func knownZones(_ blocks: [Block], in text: [UInt8]) -> [CalendarEntry?] {
        let keys = blocks.map { Key(bytes: Array(text[$0.start..<$0.end])) }
        return withState { state in keys.map { state.zones[$0] } }
    }

    /// The calendar read before from a header block's text.
    func knownHeader(_ block: Block, in text: [UInt8]) -> CalendarModel.Calendar? {
        let key = Key(bytes: Array(text[block.start..<block.end]))
        return withState { $0.headers[key] }
    }

    /// Keeps the entry read from a VTIMEZONE's text, while there is room; the entry kept for
    /// that text, which may have been read on the other thread. Handing out one entry per text
    /// keeps `CalDAVReader`'s comparison of each repeated VTIMEZONE with the first cheap: equal
    /// arrays that share their storage compare at once.
    func learn(zone entry: CalendarEntry, text: ArraySlice<UInt8>) -> CalendarEntry {
        let key = Key(bytes: Array(text))
        return withState { state in
            if let kept = state.zones[key] { return kept }
            if state.makeRoom(for: text.count) { state.zones[key] = entry }
            return entry
        }
    }

    /// Keeps the calendar read from a header's text, while there is room.
    func learn(header calendar: CalendarModel.Calendar, text: ArraySlice<UInt8>) {
        let key = Key(bytes: Array(text))
        withState { state in
            guard state.headers[key] == nil, state.makeRoom(for: text.count) else { return }
            state.headers[key] = calendar
        }
    }

    // MARK: - Finding the blocks

    private static let vcalendar = Array("VCALENDAR".utf8)
    private static let vtimezone = Array("VTIMEZONE".utf8)
    private static let begin = Array("BEGIN".utf8)
    private static let end = Array("END".utf8)
    /// Components the iCalendar reader closes whatever is open for (`ICSReader.topLevelComponents`).
    private static let topLevel = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"].map { Array($0.utf8) }

    private enum StructureLine {
        case none
        /// A plain `BEGIN:NAME` or `END:NAME`, the name at `name` in the text.
        case begin(name: Range<Int>)
        case end(name: Range<Int>)
        /// A BEGIN or END line in a form other than the plain one.
        case irregular
    }

    /// The blocks of an iCalendar text that can be cut out without changing how the rest reads.
    /// A VTIMEZONE block stands directly in a VCALENDAR (every BEGIN and END line before it
    /// plain and matched, no component left open), its lines start at the start of a physical
    /// line, and the line after it begins another component, so that the calendar is announced
    /// and its properties fall where they did. The header is the lines between the text's
    /// first line, a BEGIN:VCALENDAR, and the BEGIN of its first component. Any irregular
    /// structure line, a structure line continued by folding, or a NUL byte gives none at all:
    /// the text is then read whole.
    static func blocks(in text: [UInt8]) -> Blocks {
        text.withUnsafeBufferPointer { blocks(in: $0) }
    }

    private static func blocks(in text: UnsafeBufferPointer<UInt8>) -> Blocks {
        guard let base = text.baseAddress, !text.isEmpty, memchr(base, 0, text.count) == nil else { return Blocks() }
        func equal(_ name: Range<Int>, _ other: [UInt8]) -> Bool {
            name.count == other.count && memcmp(base + name.lowerBound, other, other.count) == 0
        }
        func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
        }
        var found = Blocks()
        var stack: [Range<Int>] = []
        // The header's first line, while the first VCALENDAR's first component has not begun.
        var header: (start: Int, line: Int)?
        // A VTIMEZONE begun directly in the VCALENDAR; one ended, until the next line shows
        // whether it may be cut out.
        var open: (start: Int, line: Int)?
        var closed: Block?
        var previousIsStructure = false
        var i = 0
        var line = 1
        let n = text.count
        // Where the next CR and LF are (n when there is none), found with memchr.
        var nextCR = -1
        var nextLF = -1
        func find(_ byte: UInt8, from: Int) -> Int {
            guard let p = memchr(base + from, Int32(byte), n - from) else { return n }
            return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
        }
        while i < n {
            let start = i
            if nextCR < start { nextCR = find(0x0D, from: start) }
            if nextLF < start { nextLF = find(0x0A, from: start) }
            let e = min(nextCR, nextLF)
            var next = e
            if next < n { next += text[next] == 0x0D && next + 1 < n && text[next + 1] == 0x0A ? 2 : 1 }
            defer {
                i = next
                line += 1
            }
            guard e > start else {
                closed = nil
                previousIsStructure = false
                continue
            }
            let first = text[start]
            if first == 0x20 || first == 0x09 {
                if previousIsStructure { return Blocks() }
                continue
            }
            switch structure(text, start..<e) {
            case .none:
                closed = nil
                previousIsStructure = false
            case .irregular:
                return Blocks()
            case .begin(let name):
                previousIsStructure = true
                if let block = closed, !equal(name, vcalendar) { found.zones.append(block) }
                closed = nil
                if let first = header, stack.count == 1, !equal(name, vcalendar), first.start < start {
                    found.header = Block(start: first.start, end: start, line: first.line, lineCount: line - first.line)
                }
                header = nil
                if equal(name, vcalendar) {
                    guard stack.isEmpty else { return Blocks() }
                    if start == 0 { header = (next, line + 1) }
                } else if topLevel.contains(where: { equal(name, $0) }) {
                    guard stack.count == 1 else { return Blocks() }
                }
                guard stack.count < 16 else { return Blocks() }
                if stack.count == 1, equal(name, vtimezone), equal(stack[0], vcalendar) { open = (start, line) }
                stack.append(name)
            case .end(let name):
                previousIsStructure = true
                closed = nil
                header = nil
                guard let top = stack.last, equal(top, name) else { return Blocks() }
                stack.removeLast()
                if stack.count == 1, equal(name, vtimezone), equal(stack[0], vcalendar), let begun = open {
                    closed = Block(start: begun.start, end: next, line: begun.line, lineCount: line - begun.line + 1)
                    open = nil
                }
            }
        }
        return found
    }

    /// Whether a physical line is a BEGIN or END line, as the iCalendar reader decides it (the
    /// name before the first ';' or ':', in any case).
    private static func structure(_ text: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> StructureLine {
        let first = text[line.lowerBound] & 0xDF
        let keyword: [UInt8]
        switch first {
        case UInt8(ascii: "B"): keyword = begin
        case UInt8(ascii: "E"): keyword = end
        default: return .none
        }
        // The name runs to the first ';' or ':' (the reader's test, which no name longer than
        // the keyword passes).
        var nameEnd = line.lowerBound
        while nameEnd < line.upperBound, nameEnd - line.lowerBound <= keyword.count, text[nameEnd] != UInt8(ascii: ";"),
            text[nameEnd] != UInt8(ascii: ":")
        {
            nameEnd += 1
        }
        guard nameEnd - line.lowerBound == keyword.count else { return .none }
        var plain = true
        for (k, byte) in zip(keyword, text[line.lowerBound..<nameEnd]) {
            if byte & 0xDF != k { return .none }
            if byte != k { plain = false }
        }
        // Plain: upper-case keyword, ':', and a name of upper-case letters, digits and '-'.
        guard plain, nameEnd + 1 < line.upperBound, text[nameEnd] == UInt8(ascii: ":") else { return .irregular }
        let name = (nameEnd + 1)..<line.upperBound
        for byte in text[name] where !((byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D) {
            return .irregular
        }
        return first == UInt8(ascii: "B") ? .begin(name: name) : .end(name: name)
    }
}
