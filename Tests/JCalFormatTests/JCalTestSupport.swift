import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import ICSFormat
import JCalCoding
import JSONCoding
import XCTest

@testable import JCalFormat

/// Conversions and comparisons the jCal tests share.
enum JCalTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let schemas = RoundTripCheck.repositoryRoot.appendingPathComponent("schemas")

    /// One conversion through the registered formats, in memory.
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

    /// Every top-level JSON value in the bytes, in order.
    static func jsonValues(_ bytes: [UInt8]) throws -> [JSONValue] {
        var parser = JSONParser(source: MemoryByteSource(bytes), sourceName: "json")
        var values: [JSONValue] = []
        while try !parser.isAtEnd() { values.append(try parser.readValue()) }
        return values
    }

    /// A jCal value with each component's properties sorted, since iCalendar gives their order no
    /// meaning and the mapper writes typed properties in its own stable order.
    static func propertyOrderFree(_ v: JSONValue) -> JSONValue {
        guard case .array(let a) = v else { return v }
        if a.count == 3, case .string = a[0], case .array(let props) = a[1], case .array(let comps) = a[2] {
            let sorted = props.sorted { $0.description < $1.description }
            return .array([a[0], .array(sorted), .array(comps.map(propertyOrderFree))])
        }
        return .array(a.map(propertyOrderFree))
    }

    /// Runs schemas/validate.py on files; fails the test with its messages.
    static func assertValid(_ files: [URL], schema: String, sequence: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        guard !files.isEmpty else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", schemas.appendingPathComponent("validate.py").path, schemas.appendingPathComponent(schema).path]
            + files.map(\.path) + (sequence ? ["--sequence"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schema validation failed:\n\(output.prefix(6000))", file: file, line: line)
    }

    /// Writes bytes to a fresh temporary file.
    static func temporaryFile(_ bytes: [UInt8], name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-jcal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
