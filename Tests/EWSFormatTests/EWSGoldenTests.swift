import CalendarTestSupport
import Foundation
import XCTest

/// Golden pairs: every `Fixtures/valid/<case>.xml` converts, with no `-f` (the format is sniffed
/// by EWS's namespace), to `<case>.expected.ics`, and its warnings are `<case>.expected.warnings`
/// (none when the file is absent); every `Fixtures/invalid/<case>.xml` read with `-f ews` exits
/// 65 with each line of `<case>.expected.err` in its message (the element and the reason).
/// `EWS_GOLDEN_UPDATE=1` rewrites the expected files from the current output, for review.
final class EWSGoldenTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    let runner = CommandRunner(directory: EWSGoldenTests.fixtures)
    let update = ProcessInfo.processInfo.environment["EWS_GOLDEN_UPDATE"] == "1"

    static func cases(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }

    func testValidDocumentsConvertToTheirGoldenICS() throws {
        let cases = try Self.cases("valid")
        XCTAssertGreaterThanOrEqual(cases.count, 8)
        for name in cases {
            let run = try runner.calport(["convert", "valid/\(name).xml", "-t", "ics"])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            let expectedURL = Self.fixtures.appendingPathComponent("valid/\(name).expected.ics")
            let warningsURL = Self.fixtures.appendingPathComponent("valid/\(name).expected.warnings")
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }.joined(separator: "\n")
            if update {
                try run.stdout.write(to: expectedURL, atomically: true, encoding: .utf8)
                if warnings.isEmpty {
                    try? FileManager.default.removeItem(at: warningsURL)
                } else {
                    try (warnings + "\n").write(to: warningsURL, atomically: true, encoding: .utf8)
                }
                continue
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(run.stdout, expected, "\(name): output differs from \(name).expected.ics")
            let expectedWarnings = (try? String(contentsOf: warningsURL, encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? ""
            XCTAssertEqual(warnings, expectedWarnings, "\(name): warnings differ")
        }
    }

    func testBadDocumentsExit65NamingTheElementAndReason() throws {
        let cases = try Self.cases("invalid")
        XCTAssertGreaterThanOrEqual(cases.count, 5)
        for name in cases {
            let run = try runner.calport(["convert", "invalid/\(name).xml", "-f", "ews", "-t", "ics"])
            XCTAssertEqual(run.status, 65, "\(name): \(run.stderr)")
            XCTAssertEqual(run.stdout, "", "\(name): nothing is written on a data error")
            let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("invalid/\(name).expected.err"), encoding: .utf8)
            for line in expected.split(separator: "\n") where !line.isEmpty {
                XCTAssertTrue(run.stderr.contains(line), "\(name): stderr lacks '\(line)':\n\(run.stderr)")
            }
        }
    }
}
