import CalendarModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// All the files one run writes, staged beside their destinations and moved into place only
/// when the whole batch has succeeded: a batch writes everything or nothing, and a failure
/// never harms a file that already existed.
///
/// Staged files are closed as soon as their writer is done, so a run that writes one file per
/// item (a vdir of 100k events) never holds more than one descriptor open at a time.
public final class OutputTransaction {
    /// One file to be moved into place at commit.
    final class StagedFile: ByteSink {
        let destination: String
        let temporaryPath: String
        private var descriptor: Int32
        /// Bytes written so far (the dry run and the report count them).
        private(set) var byteCount = 0
        /// Whether the file was handed back by its writer.
        private(set) var isClosed = false

        /// A dry run's file: counts what would be written and touches no file at all.
        private let countsOnly: Bool
        /// A device or pipe (`-o /dev/null`, a FIFO) written as it is: there is nothing to
        /// protect by renaming, and a rename would put a regular file in its place.
        let writesInPlace: Bool

        init(destination: String, temporaryPath: String, descriptor: Int32) {
            self.destination = destination
            self.temporaryPath = temporaryPath
            self.descriptor = descriptor
            self.countsOnly = false
            self.writesInPlace = false
        }

        /// A device or pipe, open at `descriptor`, written in place.
        init(inPlace destination: String, descriptor: Int32) {
            self.destination = destination
            self.temporaryPath = destination
            self.descriptor = descriptor
            self.countsOnly = false
            self.writesInPlace = true
        }

        /// A file of a dry run: nothing is created, written, closed or removed.
        init(countingFor destination: String) {
            self.destination = destination
            self.temporaryPath = ""
            self.descriptor = -1
            self.countsOnly = true
            self.writesInPlace = false
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws {
            if countsOnly {
                byteCount += bytes.count
                return
            }
            if descriptor < 0 { try reopen() }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CalendarError(.io, file: destination, "write failed: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
            byteCount += bytes.count
        }

        /// Reopens a closed file to append (a vdir item whose overrides arrive later).
        private func reopen() throws {
            let fd = open(temporaryPath, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else {
                throw CalendarError(.io, file: destination, "cannot reopen staged output: \(String(cString: strerror(errno)))")
            }
            descriptor = fd
        }

        /// Whether a descriptor is open (the file has not been handed back yet).
        var isOpen: Bool { descriptor >= 0 }

        func close(sync: Bool) throws {
            isClosed = true
            if countsOnly { return }
            if descriptor < 0 {
                guard sync, !writesInPlace else { return }
                descriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw CalendarError(.io, file: destination, "cannot reopen staged output: \(String(cString: strerror(errno)))")
                }
            }
            defer {
                Glibc.close(descriptor)
                descriptor = -1
            }
            if sync, fsync(descriptor) != 0, errno != EINVAL {
                throw CalendarError(.io, file: destination, "cannot flush output: \(String(cString: strerror(errno)))")
            }
        }

        func discard() {
            if countsOnly { return }
            if descriptor >= 0 {
                Glibc.close(descriptor)
                descriptor = -1
            }
            if !writesInPlace { unlink(temporaryPath) }
        }
    }

    /// Whether nothing is written at all (`--dry-run`): sinks count bytes and drop them.
    public let dryRun: Bool
    private var staged: [StagedFile] = []
    /// Directories this run created, removed again on rollback (deepest first).
    private var createdDirectories: [String] = []
    /// Destinations already claimed, so two outputs never share a path.
    private var claimed: Set<String> = []
    private var finished = false
    /// What a dry run would have written: destination and size.
    public private(set) var plannedFiles: [(path: String, bytes: Int)] = []

    /// A transaction; with `dryRun` it creates nothing.
    public init(dryRun: Bool = false) {
        self.dryRun = dryRun
    }

    deinit {
        if !finished { rollback() }
    }

    /// Whether `path` is already the destination of a file in this batch.
    public func isClaimed(_ path: String) -> Bool { claimed.contains(path) }

    /// A sink for `destination`: a temporary file in the same directory (so the final rename
    /// never crosses file systems). Missing parent directories are created when
    /// `createDirectories` (a directory or vdir output), and are an error otherwise (a typo in
    /// a single output's path should not make directories).
    func stage(_ destination: String, createDirectories: Bool = true) throws -> StagedFile {
        claimed.insert(destination)
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        if dryRun {
            let file = StagedFile(countingFor: destination)
            staged.append(file)
            return file
        }
        if let fd = try Self.openInPlace(destination) {
            let file = StagedFile(inPlace: destination, descriptor: fd)
            staged.append(file)
            return file
        }
        if createDirectories { try makeDirectories(directory, for: destination) }
        var template = Array((directory + "/." + url.lastPathComponent + ".calport-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CalendarError(.cannotCreateOutput, file: destination, "cannot create output: \(String(cString: strerror(errno)))")
        }
        let file = StagedFile(destination: destination, temporaryPath: String(cString: template), descriptor: fd)
        staged.append(file)
        return file
    }

    /// A descriptor for `destination` when it is a device, pipe or socket (`/dev/null`,
    /// `/dev/stdout`, a FIFO), which is written as it is; nil for a file or a new path.
    static func openInPlace(_ destination: String) throws -> Int32? {
        var info = stat()
        guard stat(destination, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK || type == S_IFBLK else { return nil }
        let fd = open(destination, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CalendarError(.cannotCreateOutput, file: destination, "cannot open output: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Creates `directory` and its missing parents, remembering which it created.
    private func makeDirectories(_ directory: String, for destination: String) throws {
        var missing: [String] = []
        var path = directory
        var info = stat()
        while !path.isEmpty, path != "/", stat(path, &info) != 0 {
            missing.append(path)
            path = URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        if !path.isEmpty, stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw CalendarError(.cannotCreateOutput, file: destination, "\(path) is not a directory")
        }
        for dir in missing.reversed() {
            guard mkdir(dir, 0o777) == 0 || errno == EEXIST else {
                throw CalendarError(.cannotCreateOutput, file: destination, "cannot create directory \(dir): \(String(cString: strerror(errno)))")
            }
            createdDirectories.append(dir)
        }
    }

    /// Discards the staged files in `files` (an input that failed in lenient mode).
    func discard(_ files: [StagedFile]) {
        let doomed = Set(files.map { ObjectIdentifier($0) })
        for file in files {
            file.discard()
            claimed.remove(file.destination)
        }
        staged.removeAll { doomed.contains(ObjectIdentifier($0)) }
    }

    /// The staged files so far, in creation order.
    var stagedFiles: [StagedFile] { staged }

    /// Moves every staged file into place, keeping an existing destination's permissions.
    /// Everything is flushed to disk before the first rename, so a crash in between leaves
    /// either the old files or complete new ones.
    public func commit() throws {
        finished = true
        if dryRun {
            plannedFiles = staged.map { ($0.destination, $0.byteCount) }
            for file in staged { file.discard() }
            return
        }
        do {
            // Flushing before renaming is what makes rename-over safe. Files already closed (a
            // vdir's many small items) are reopened to be flushed: syncfs would be one call,
            // but Glibc's module does not export it.
            for file in staged { try file.close(sync: true) }
        } catch {
            rollback()
            throw error
        }
        let mask = umask(0)
        umask(mask)
        for (index, file) in staged.enumerated() where !file.writesInPlace {
            var existing = stat()
            let mode = stat(file.destination, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666 & ~mask
            chmod(file.temporaryPath, mode)
            guard rename(file.temporaryPath, file.destination) == 0 else {
                let message = String(cString: strerror(errno))
                for later in staged[index...] { later.discard() }
                throw CalendarError(.cannotCreateOutput, file: file.destination, "cannot move output into place: \(message)")
            }
        }
        plannedFiles = staged.map { ($0.destination, $0.byteCount) }
    }

    /// Removes every staged file and every directory this run created; existing files stay as
    /// they were.
    public func rollback() {
        finished = true
        for file in staged { file.discard() }
        staged.removeAll()
        for dir in createdDirectories.reversed() { rmdir(dir) }
        createdDirectories.removeAll()
    }
}
