/// Bytes from memory (tests, and inputs already held).
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}
