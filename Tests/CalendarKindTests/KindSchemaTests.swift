import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// The native JSON written for birthday and subscription calendars (contact identifiers,
/// year-less birthdays, descriptors) follows schemas/calport.schema.json.
final class KindSchemaTests: XCTestCase {
    func testEveryKindFixtureConvertsToSchemaValidJSONAndJSONLines() throws {
        let harness = try ConversionHarness()
        defer { harness.remove() }
        var documents: [URL] = []
        var lines: [URL] = []
        let inputs =
            ["birthdays", "subscriptions"].flatMap { folder in
                (try? FileManager.default.contentsOfDirectory(atPath: KindFacts.fixtures.appendingPathComponent(folder).path))?
                    .filter { ($0.hasSuffix(".ics") || $0.hasSuffix(".json")) && !$0.contains(".expected.") }.sorted()
                    .map { KindFacts.fixtures.appendingPathComponent("\(folder)/\($0)") } ?? []
            } + [RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/samples/google_birthday.ics")]
        XCTAssertGreaterThanOrEqual(inputs.count, 9)
        for (i, input) in inputs.enumerated() {
            for handling in BirthdayHandling.allCases {
                for (ext, list) in [("json", 0), ("jsonl", 1)] {
                    let name = "\(i)-\(handling.rawValue).\(ext)"
                    _ = try harness.convert(input, to: ext, birthdays: handling, subscriptions: .descriptor, output: name)
                    let url = harness.directory.appendingPathComponent(name)
                    if list == 0 { documents.append(url) } else { lines.append(url) }
                }
            }
        }
        try validate(documents, lines: false)
        try validate(lines, lines: true)
    }

    func validate(_ files: [URL], lines: Bool) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", root.appendingPathComponent("schemas/validate.py").path,
                root.appendingPathComponent("schemas/calport.schema.json").path,
            ]
            + files.map(\.path) + (lines ? ["--lines"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schema validation failed:\n\(output.prefix(4000))")
    }
}
