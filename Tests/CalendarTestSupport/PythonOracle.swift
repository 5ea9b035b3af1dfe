import Foundation

/// Runs one of the python oracles in Tests/Oracles (independent implementations installed by
/// `make deps`) and hands back what it printed.
public enum PythonOracle {
    /// The folder the oracle scripts live in.
    public static let directory = RoundTripCheck.repositoryRoot.appendingPathComponent("Tests/Oracles")

    /// What a run printed; a failed run throws with its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `python3 Tests/Oracles/SCRIPT ARGUMENTS`, feeding `stdin` when given.
    public static func run(_ script: String, _ arguments: [String] = [], stdin: Data? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory.appendingPathComponent(script).path] + arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Both pipes are drained while the script runs, so a large output cannot block it.
        // The reader thread's bytes are read after its signal, which orders the two threads.
        final class Drained: @unchecked Sendable { var data = Data() }
        let errDrained = Drained()
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errDrained.data = err.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }.start()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errDone.wait()
        let errData = errDrained.data
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(script) exited \(process.terminationStatus): " + String(decoding: errData, as: UTF8.self))
        }
        return String(decoding: outData, as: UTF8.self)
    }
}
