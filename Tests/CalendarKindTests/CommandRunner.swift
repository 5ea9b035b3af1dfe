import Foundation
import XCTest

/// Runs the built `calport` executable as a user would.
struct CommandRunner {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let directory: URL

    /// The calport executable beside the test bundle.
    static var executable: URL {
        // On Linux the test bundle's URL is the products folder itself; elsewhere it is the .xctest inside it.
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        let candidates = [bundle.appendingPathComponent("calport"), bundle.deletingLastPathComponent().appendingPathComponent("calport")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    func calport(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

private final class BundleMarker {}
