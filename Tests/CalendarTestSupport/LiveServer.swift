import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real server for the live CalDAV tests, started on 127.0.0.1 on a free port with its own
/// temporary storage, and stopped by `stop()` (call it in tearDown): Radicale or Xandikos from
/// the virtual environment `make deps` fills, or the tests' fault-injecting proxy.
public final class LiveServer {
    /// Which server.
    public enum Kind {
        /// Radicale; with users (name → password) it checks them against an htpasswd file.
        case radicale(users: [String: String])
        /// Xandikos with its default principal `/user/` and no authentication.
        case xandikos
        /// The fault proxy in front of the server on `upstream`, with its extra arguments.
        case faultProxy(upstream: Int, arguments: [String])
    }

    /// The port it listens on.
    public let port: Int
    /// Its folder (storage, logs).
    public let folder: URL
    private let process: Process

    /// The repository's root (two folders above this file's).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The virtual environment's Python (`make deps`), else the system's.
    public static var python: String {
        let venv = repository.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and waits (at most 30 s) until it accepts connections.
    public init(_ kind: Kind, folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        let storage = folder.appendingPathComponent("storage").path
        var arguments: [String]
        switch kind {
        case .radicale(let users):
            arguments = [
                "-m", "radicale", "--storage-filesystem-folder", storage, "--rights-type", "owner_only",
                "--server-hosts", "127.0.0.1:\(port)", "--logging-level", "warning",
            ]
            if users.isEmpty {
                arguments += ["--auth-type", "none"]
            } else {
                let file = folder.appendingPathComponent("users")
                try Data(users.map { "\($0.key):\($0.value)\n" }.joined().utf8).write(to: file)
                arguments += ["--auth-type", "htpasswd", "--auth-htpasswd-filename", file.path, "--auth-htpasswd-encryption", "plain"]
            }
        case .xandikos:
            arguments = ["-m", "xandikos", "serve", "--defaults", "-d", storage, "-l", "127.0.0.1", "-p", "\(port)"]
        case .faultProxy(let upstream, let extra):
            let script = Self.repository.appendingPathComponent("Tests/CalDAVLiveTests/Servers/fault_proxy.py").path
            arguments = [script, "--port", "\(port)", "--upstream", "\(upstream)", "--log", folder.appendingPathComponent("proxy.log").path] + extra
        }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: Self.python)
        check.arguments = ["-c", "import radicale, xandikos"]
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        guard check.terminationStatus == 0 else {
            throw NSError(domain: "LiveServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "Radicale or Xandikos missing: run `make deps`"])
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = arguments
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Self.listening(port) {
            guard process.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw NSError(domain: "LiveServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "server did not start on \(port): \(text)"])
            }
            usleep(100_000)
        }
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s).
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A TCP port nobody listens on now: bind port 0 and read what the kernel chose.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NSError(domain: "LiveServer", code: 3) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw NSError(domain: "LiveServer", code: 4) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the port.
    public static func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
