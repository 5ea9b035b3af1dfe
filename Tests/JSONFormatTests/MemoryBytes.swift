import CalendarModel

/// Bytes from memory, handed out in chunks of at most `chunkSize` so parsers meet every
/// buffer boundary; `consumed` tells how far a reader has read.
final class MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    let chunkSize: Int
    private(set) var consumed = 0

    init(_ bytes: [UInt8], chunkSize: Int = 7) {
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    convenience init(_ text: String, chunkSize: Int = 7) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, chunkSize, bytes.count - consumed)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + consumed, byteCount: n)
        }
        consumed += n
        return n
    }
}

/// Collects written bytes; `writes` counts the calls, to see that output leaves early.
final class MemoryByteSink: ByteSink {
    private(set) var bytes: [UInt8] = []
    private(set) var writes = 0

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
        writes += 1
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
