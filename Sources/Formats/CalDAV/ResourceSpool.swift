import CalendarModel

#if canImport(Glibc)
    import Glibc
#endif

/// Where `CalDAVWriter` keeps a calendar's items, written out as calendar data, until the
/// calendar ends: in memory up to 1 MiB, then in an unlinked temporary file, so the
/// writer's memory stays that of one resource however long the calendar.
///
/// A record is one item: its href, the entity tag it came with, the TZIDs it refers to and its
/// calendar data, and the offset of the next record of the same resource (patched when that
/// one arrives), so a resource's items are found from its first record without an index per
/// item.
final class ResourceSpool {
    /// One record read back.
    struct Record {
        var next: Int
        /// Where the record after this one in the spool starts.
        var end: Int
        /// The first record of its resource.
        var first: Bool
        /// The href is relative to the collection (made from a UID).
        var relative: Bool
        var href: String
        var etag: String?
        var zoneReferences: [String]
        /// Where the calendar data is in the reader's scratch bytes.
        var data: Range<Int>
    }

    /// Bytes not yet in the file; the file holds everything before `tailStart`.
    private var tail: [UInt8] = []
    private var tailStart = 0
    private var fd: Int32 = -1
    /// File bytes read ahead (a resource's items mostly follow one another), from `windowStart`.
    private var window: [UInt8] = []
    private var windowStart = 0
    private let name: String
    /// How much is kept in memory before the file is made, and how much is written at once.
    private static let memoryLimit = 1 << 20
    private static let chunk = 256 << 10
    private static let headerSize = 8 + 1 + 4 + 4 + 4 + 4

    /// `name` is the destination, for errors.
    init(name: String) {
        self.name = name
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Where the next record will start.
    var endOffset: Int { tailStart + tail.count }

    /// Appends a record with no next one yet; returns its offset.
    func append(first: Bool, relative: Bool, href: String, etag: String?, zoneReferences: [String], data: [UInt8]) throws -> Int {
        let offset = tailStart + tail.count
        let references = zoneReferences.joined(separator: "\n")
        // Lengths are kept in 32 bits (0xFFFFFFFF says "no etag").
        guard max(href.utf8.count, etag?.utf8.count ?? 0, references.utf8.count, data.count) < 0xFFFF_FFFF else {
            throw CalendarError(.data, file: name, "an item of 4 GiB or more cannot be archived")
        }
        appendInteger(UInt64(bitPattern: -1), bytes: 8)
        tail.append((relative ? 1 : 0) | (first ? 2 : 0))
        appendInteger(UInt64(href.utf8.count), bytes: 4)
        appendInteger(etag.map { UInt64($0.utf8.count) } ?? 0xFFFF_FFFF, bytes: 4)
        appendInteger(UInt64(references.utf8.count), bytes: 4)
        appendInteger(UInt64(data.count), bytes: 4)
        tail += href.utf8
        if let etag { tail += etag.utf8 }
        tail += references.utf8
        tail += data
        if tail.count >= Self.chunk && (fd >= 0 || tail.count >= Self.memoryLimit) { try spill() }
        return offset
    }

    /// Sets the next record of the record at `offset`.
    func link(_ offset: Int, to next: Int) throws {
        var value = UInt64(bitPattern: Int64(next)).littleEndian
        if offset >= tailStart {
            withUnsafeBytes(of: &value) { v in
                for k in 0..<8 { tail[offset - tailStart + k] = v[k] }
            }
        } else {
            window.removeAll(keepingCapacity: true)
            let written = withUnsafeBytes(of: &value) { pwrite(fd, $0.baseAddress, 8, off_t(offset)) }
            guard written == 8 else { throw ioError("cannot write the spool") }
        }
    }

    /// The record at `offset`, its data read into `scratch` (replacing what it held) unless
    /// `hrefOnly`.
    func record(at offset: Int, into scratch: inout [UInt8], hrefOnly: Bool = false) throws -> Record {
        scratch.removeAll(keepingCapacity: true)
        try read(offset, Self.headerSize, into: &scratch)
        func integer(_ at: Int, _ count: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in stride(from: count - 1, through: 0, by: -1) { v = v << 8 | UInt64(scratch[at + k]) }
            return v
        }
        let next = Int(Int64(bitPattern: integer(0, 8)))
        let relative = scratch[8] & 1 != 0
        let first = scratch[8] & 2 != 0
        let hrefLength = Int(integer(9, 4))
        let etagField = integer(13, 4)
        let etagLength = etagField == 0xFFFF_FFFF ? 0 : Int(etagField)
        let referencesLength = Int(integer(17, 4))
        let dataLength = Int(integer(21, 4))
        let end = offset + Self.headerSize + hrefLength + etagLength + referencesLength + dataLength
        let bodyLength = hrefOnly ? hrefLength : hrefLength + etagLength + referencesLength + dataLength
        scratch.removeAll(keepingCapacity: true)
        try read(offset + Self.headerSize, bodyLength, into: &scratch)
        func text(_ from: Int, _ count: Int) -> String { String(decoding: scratch[from..<(from + count)], as: UTF8.self) }
        let href = text(0, hrefLength)
        guard !hrefOnly else {
            return Record(next: next, end: end, first: first, relative: relative, href: href, etag: nil, zoneReferences: [], data: 0..<0)
        }
        let etag = etagField == 0xFFFF_FFFF ? nil : text(hrefLength, etagLength)
        let references =
            referencesLength == 0 ? [] : text(hrefLength + etagLength, referencesLength).split(separator: "\n").map(String.init)
        let dataStart = hrefLength + etagLength + referencesLength
        return Record(
            next: next, end: end, first: first, relative: relative, href: href, etag: etag, zoneReferences: references,
            data: dataStart..<(dataStart + dataLength))
    }

    /// Forgets every record (the next calendar starts from the beginning).
    func reset() {
        tail.removeAll(keepingCapacity: tail.capacity <= Self.memoryLimit + Self.chunk)
        tailStart = 0
        window.removeAll(keepingCapacity: true)
        if fd >= 0 { _ = ftruncate(fd, 0) }
    }

    private func appendInteger(_ value: UInt64, bytes: Int) {
        for k in 0..<bytes { tail.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
    }

    /// Appends `count` bytes from `offset` to `out`.
    private func read(_ offset: Int, _ count: Int, into out: inout [UInt8]) throws {
        guard count > 0 else { return }
        if offset >= tailStart {
            out += tail[(offset - tailStart)..<(offset - tailStart + count)]
            return
        }
        if offset < windowStart || offset + count > windowStart + window.count {
            // Records never straddle the tail: the file holds all of this one.
            let length = min(max(count, Self.chunk), tailStart - offset)
            window.removeAll(keepingCapacity: true)
            window += repeatElement(0, count: length)
            windowStart = offset
            var done = 0
            while done < length {
                let n = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, length - done, off_t(offset + done)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw ioError("cannot read the spool") }
                done += n
            }
        }
        out += window[(offset - windowStart)..<(offset - windowStart + count)]
    }

    /// Moves the memory tail to the file, making the file first.
    private func spill() throws {
        if fd < 0 {
            let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            var template = Array((directory + "/calport-caldav-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw ioError("cannot make a spool file in \(directory)") }
            // Unlinked at once: the file goes when the writer does, however the run ends.
            unlink(String(cString: template))
        }
        var done = 0
        while done < tail.count {
            let n = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, tail.count - done, off_t(tailStart + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ioError("cannot write the spool") }
            done += n
        }
        tailStart += tail.count
        tail.removeAll(keepingCapacity: true)
    }

    private func ioError(_ what: String) -> CalendarError {
        CalendarError(.io, file: name, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// A sink that collects what a writer hands it, to take and clear.
final class CollectingSink: ByteSink {
    var bytes: [UInt8] = []

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }
}
