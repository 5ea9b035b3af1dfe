import CalendarModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to a temporary file beside the destination and renames it over the destination only
/// on `commit()`, so a failed run never truncates or half-writes what the user had.
public final class AtomicFileSink: ByteSink {
    public let destination: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var committed = false
    /// A device or pipe (`--report /dev/stdout`) is written as it is (OutputTransaction.openInPlace).
    private let writesInPlace: Bool

    public init(destination: String) throws {
        self.destination = destination
        if let fd = try OutputTransaction.openInPlace(destination) {
            descriptor = fd
            temporaryPath = destination
            writesInPlace = true
            return
        }
        writesInPlace = false
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".calport-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CalendarError(.cannotCreateOutput, file: destination, "cannot create output: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        temporaryPath = String(cString: template)
    }

    deinit {
        if !committed { discard() }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw CalendarError(.io, file: destination, "write failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Makes the output visible under its name, keeping an existing file's permissions.
    public func commit() throws {
        if writesInPlace {
            close(descriptor)
            descriptor = -1
            committed = true
            return
        }
        var existing = stat()
        if stat(destination, &existing) == 0 {
            fchmod(descriptor, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw CalendarError(.io, file: destination, "cannot flush output: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, destination) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            committed = true
            throw CalendarError(.cannotCreateOutput, file: destination, "cannot move output into place: \(message)")
        }
        committed = true
    }

    /// Removes the temporary file; the destination is untouched.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !writesInPlace { unlink(temporaryPath) }
        committed = true
    }
}

/// Standard output, buffered by the writers.
public final class StandardOutputSink: ByteSink {
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw CalendarError(.io, file: "-", "write to standard output failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

/// Collects bytes in memory (tests, round trips).
public final class MemoryByteSink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}
