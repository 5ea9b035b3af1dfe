import CalendarModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file or standard input through read(2), in the caller's buffer: no copies, no
/// Foundation in the loop.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Bytes read ahead by format sniffing, replayed before the descriptor is read again.
    private var replay: [UInt8] = []
    private var replayOffset = 0
    public let name: String
    /// Bytes handed out so far (progress and reports).
    public private(set) var bytesRead = 0

    /// Opens `path`, or standard input for "-".
    public init(path: String) throws {
        name = path
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CalendarError(.inputMissing, file: path, "no such file")
        }
        guard !isDirectory.boolValue else { throw CalendarError(.inputMissing, file: path, "is a directory") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CalendarError(errno == ENOENT ? .inputMissing : .io, file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The first bytes of the input, which later reads return again.
    public func peek(_ count: Int) throws -> [UInt8] {
        while replay.count < count {
            var chunk = [UInt8](repeating: 0, count: count - replay.count)
            let n = try chunk.withUnsafeMutableBytes { try rawRead($0) }
            if n == 0 { break }
            replay += chunk[0..<n]
        }
        return Array(replay.prefix(count))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if replayOffset < replay.count {
            let n = min(buffer.count, replay.count - replayOffset)
            replay.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + replayOffset, byteCount: n)
            }
            replayOffset += n
            if replayOffset == replay.count {
                replay = []
                replayOffset = 0
            }
            bytesRead += n
            return n
        }
        let n = try rawRead(buffer)
        bytesRead += n
        return n
    }

    private func rawRead(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw CalendarError(.io, file: name, "read failed: \(String(cString: strerror(errno)))")
        }
    }
}
