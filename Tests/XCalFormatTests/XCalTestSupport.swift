import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest
import XMLSupport

/// Shared helpers: conversions in memory and XML compared as trees.
enum XCalTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let rfcFolder = RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc6321-xcal")
    static let sabreFolder = RoundTripCheck.corpusRoot.appendingPathComponent("sabre-vobject/extracted/xcal")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Converts bytes from one format to another through the registry, collecting warnings.
    static func convert(_ bytes: [UInt8], from: String, to: String, log: DiagnosticLog = DiagnosticLog(), strict: Bool = false) throws
        -> [UInt8]
    {
        let registry = StandardFormats.registry
        var reader = registry.format(id: from)!.makeReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: from, strict: strict), log: log)
        let sink = MemoryByteSink()
        var writer = registry.format(id: to)!.makeWriter(sink: sink, options: WriteOptions(destinationName: to), log: log)
        while let e = try reader.next() { try writer.write(e) }
        try writer.finish()
        return sink.bytes
    }

    /// An XML document as a tree: whitespace-only text dropped.
    static func tree(_ bytes: [UInt8], name: String = "xml") throws -> XMLElement {
        var offset = 0
        let reader = try XMLPullReader(name: name) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
        guard case .start(let root, let attributes)? = try reader.next() else { throw CalendarError(.data, file: name, "no root") }
        return try reader.readElement(start: root, attributes: attributes)
    }

    /// A canonical text of an xCal tree for comparison: one line per element with its trimmed
    /// text; the children of `properties` and `parameters` sorted (their order carries no
    /// meaning in iCalendar), components in order.
    static func canonical(_ e: XMLElement, dropping: Set<String> = [], depth: Int = 0) -> String {
        let pad = String(repeating: " ", count: depth * 2)
        var children = e.children.filter { child in
            // An element left empty by what is dropped (a properties element that held only VERSION) goes too.
            !dropping.contains(child.name.local)
                && !(child.name.local == "properties" && !child.children.isEmpty
                    && child.children.allSatisfy { dropping.contains($0.name.local) })
        }.map { canonical($0, dropping: dropping, depth: depth + 1) }
        if e.name.local == "properties" || e.name.local == "parameters" { children.sort() }
        let text = e.children.isEmpty ? e.text : e.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let attributes = e.attributes.map { " \($0.name)=\"\($0.value)\"" }.sorted().joined()
        return ([pad + "\(e.name)\(attributes)" + (text.isEmpty ? "" : " = \(text.debugDescription)")] + children).joined(separator: "\n")
    }
}
