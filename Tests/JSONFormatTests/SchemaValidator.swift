import Foundation
import XCTest

/// Runs schemas/validate.py (python3 + jsonschema) on JSON text, failing the test with the
/// validator's messages when the text does not match the schema.
enum SchemaValidator {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func schema(_ name: String) -> URL { repositoryRoot.appendingPathComponent("schemas/\(name)") }

    /// Validates files in one run of the validator (starting Python per file would dominate
    /// corpus tests).
    static func assertFilesValid(
        _ files: [URL], schema schemaName: String, lines: Bool = false, definition: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        guard !files.isEmpty else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", schema("validate.py").path, schema(schemaName).path] + files.map(\.path)
        if lines { arguments.append("--lines") }
        if let definition { arguments += ["--def", definition] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schema validation failed:\n\(output.prefix(6000))", file: file, line: line)
    }

    /// Validates `text` (a document, or JSON Lines with `lines`) against `schemaName`.
    static func assertValid(
        _ text: String, schema schemaName: String, lines: Bool = false, definition: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent(lines ? "output.jsonl" : "output.json")
        try Data(text.utf8).write(to: data)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", schema("validate.py").path, schema(schemaName).path, data.path]
        if lines { arguments.append("--lines") }
        if let definition { arguments += ["--def", definition] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schema validation failed:\n\(output.prefix(4000))", file: file, line: line)
    }
}
