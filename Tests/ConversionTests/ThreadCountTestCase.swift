import CalendarModel
import Conversion
import Foundation
import XCTest

/// What the tests of readers and writers that spread their work over threads share: a
/// conversion at several `--jobs` counts gives the bytes, the diagnostics in their order and
/// the error that one thread gives.
class ThreadCountTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-threads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    struct Outcome: Equatable {
        var output: [UInt8]?
        var diagnostics: [String]
        var error: String?
    }

    func convert(_ input: URL, from: String, to: String = "ics", jobs: Int, name: String, settings: [String: String] = [:]) -> Outcome {
        let output = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: output)
        let log = DiagnosticLog()
        var failure: String?
        do {
            try Converter().run(
                ConversionRequest(
                    inputs: [input.path], output: output.path, inputFormat: from, outputFormat: to, formatSettings: settings, jobs: jobs),
                log: log)
        } catch {
            failure = "\(error)"
        }
        return Outcome(
            output: (try? Data(contentsOf: output)).map { [UInt8]($0) }, diagnostics: log.diagnostics.map { "\($0)" }, error: failure)
    }

    /// Converts `input` on 1, 2 and 4 threads and compares; returns the one-thread outcome.
    @discardableResult
    func assertSameOnEveryThreadCount(
        _ input: URL, from: String, to: String = "ics", settings: [String: String] = [:], file: StaticString = #filePath,
        line: UInt = #line
    ) -> Outcome {
        // One output name for every run: some writers' warnings name it.
        let one = convert(input, from: from, to: to, jobs: 1, name: "out.\(to)", settings: settings)
        for jobs in [2, 4] {
            let many = convert(input, from: from, to: to, jobs: jobs, name: "out.\(to)", settings: settings)
            XCTAssertEqual(many.error, one.error, "\(from) -> \(to), -j \(jobs)", file: file, line: line)
            XCTAssertEqual(many.diagnostics, one.diagnostics, "\(from) -> \(to), -j \(jobs)", file: file, line: line)
            XCTAssertTrue(many.output == one.output, "\(from) -> \(to), -j \(jobs): the output differs", file: file, line: line)
        }
        return one
    }
}
