import Foundation

/// Runs the built `calport` executable as a user would, in a given working directory.
public struct CommandRunner {
    /// What one run did.
    public struct Run {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The calport executable beside the test bundle.
    public static var executable: URL {
        // On Linux the test bundle's URL is the products folder itself; elsewhere it is the .xctest inside it.
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        let candidates = [bundle.appendingPathComponent("calport"), bundle.deletingLastPathComponent().appendingPathComponent("calport")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `calport ARGUMENTS`, feeding `stdin` when given (standard input is closed either
    /// way), with `environment` added to this process's.
    public func calport(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

private final class BundleMarker {}
