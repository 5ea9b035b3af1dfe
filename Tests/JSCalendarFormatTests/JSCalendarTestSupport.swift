import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import JSONCoding
import XCTest

/// Conversions the JSCalendar tests share.
enum JSCalendarTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let schemas = RoundTripCheck.repositoryRoot.appendingPathComponent("schemas")

    static func convert(_ bytes: [UInt8], from: String, to: String, strict: Bool = false, log: DiagnosticLog = DiagnosticLog()) throws
        -> [UInt8]
    {
        let registry = StandardFormats.registry
        guard let input = registry.format(id: from), let output = registry.format(id: to) else {
            throw CalendarError(.usage, file: from, "format \(from) or \(to) is not registered")
        }
        var reader = input.makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: from, strict: strict), log: log)
        let sink = MemoryByteSink()
        var writer = output.makeWriter(sink: sink, options: WriteOptions(destinationName: to), log: log)
        while let element = try reader.next() { try writer.write(element) }
        try writer.finish()
        return sink.bytes
    }

    static func read(_ bytes: [UInt8], format: String, strict: Bool = false, log: DiagnosticLog = DiagnosticLog()) throws
        -> [CalendarStreamElement]
    {
        guard let input = StandardFormats.registry.format(id: format) else { throw CalendarError(.usage, file: format, "not registered") }
        var reader = input.makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: format, strict: strict), log: log)
        var out: [CalendarStreamElement] = []
        while let e = try reader.next() { out.append(e) }
        return out
    }

    /// Every top-level JSON value in the bytes.
    static func jsonValues(_ bytes: [UInt8]) throws -> [JSONValue] {
        var parser = JSONParser(source: MemoryByteSource(bytes), sourceName: "json")
        var values: [JSONValue] = []
        while try !parser.isAtEnd() { values.append(try parser.readValue()) }
        return values
    }

    /// The value without any `calport:` member, at any depth: JSCalendar as others see it.
    static func withoutVendorMembers(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let o):
            return .object(
                JSONObject(
                    o.members.filter { !$0.key.hasPrefix("calport:") }.map { .init(key: $0.key, value: withoutVendorMembers($0.value)) }))
        case .array(let a): return .array(a.map(withoutVendorMembers))
        default: return v
        }
    }

    static func text(_ values: [JSONValue]) -> [UInt8] {
        Array(values.map(\.description).joined(separator: "\n").utf8)
    }

    static func assertValid(_ files: [URL], schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
        guard !files.isEmpty else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", schemas.appendingPathComponent("validate.py").path, schemas.appendingPathComponent(schema).path]
            + files.map(\.path) + ["--sequence"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schema validation failed:\n\(output.prefix(6000))", file: file, line: line)
    }

    static func corpusFiles() -> [(name: String, url: URL)] {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
            .map { ("samples/" + $0.lastPathComponent, $0) }
        let root = RoundTripCheck.corpusRoot.path
        return samples + RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot).map { ("corpus" + $0.path.dropFirst(root.count), $0) }
    }
}
