import CSVFormat
import CalendarModel
import Conversion
import Foundation
import JSONFormat

/// Reading and writing through the registered formats, in memory.
enum CSVTestHelpers {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let registry = StandardFormats.registry

    /// Every element a format reads from bytes.
    static func read(_ bytes: [UInt8], format id: String, name: String = "input", settings: [String: String] = [:],
                     strict: Bool = false, log: DiagnosticLog = DiagnosticLog()) throws -> [CalendarStreamElement] {
        var reader = registry.format(id: id)!.makeReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name, strict: strict, formatSettings: settings), log: log)
        var elements: [CalendarStreamElement] = []
        while let e = try reader.next() { elements.append(e) }
        return elements
    }

    /// The bytes a format writes for elements.
    static func write(_ elements: [CalendarStreamElement], format id: String, settings: [String: String] = [:],
                      log: DiagnosticLog = DiagnosticLog()) throws -> [UInt8] {
        let sink = MemoryByteSink()
        var writer = registry.format(id: id)!.makeWriter(sink: sink, options: WriteOptions(destinationName: "output", formatSettings: settings), log: log)
        for e in elements { try writer.write(e) }
        try writer.finish()
        return sink.bytes
    }

    /// The events among elements.
    static func events(_ elements: [CalendarStreamElement]) -> [Event] {
        elements.compactMap { if case .entry(.event(let e), _) = $0 { return e } else { return nil } }
    }

    /// `key=value` lines of a `.settings` file beside a fixture, if there is one.
    static func settings(for file: URL) -> [String: String] {
        let url = file.deletingPathExtension().appendingPathExtension("settings")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            result[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return result
    }

    /// The `.csv` fixtures of a folder, sorted.
    static func cases(_ folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "csv" }.sorted { $0.path < $1.path }
    }
}
