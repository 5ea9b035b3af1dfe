import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// ICS → json → ICS and ICS → jsonl → ICS over every .ics file in samples/ and
/// ../shared/corpus/: what the output says must equal what the input said (the same check as
/// the ICS round trip, RoundTripCheck); every JSON produced on the way matches the schema.
/// Files the ICS reader cannot read even leniently are the ICS tests' concern
/// (Tests/ICSFormatTests/Fixtures/corpus-unreadable.txt) and are skipped here.
final class NativeJSONCorpusTests: XCTestCase {
    static func corpusFiles() -> [(name: String, url: URL)] {
        let samples = RoundTripCheck.icsFiles(under: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"))
            .map { ("samples/" + $0.lastPathComponent, $0) }
        let root = RoundTripCheck.corpusRoot.path
        let corpus = RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot).map { ("corpus" + $0.path.dropFirst(root.count), $0) }
        return samples + corpus
    }

    /// One conversion through the registered formats, in memory.
    static func convert(_ bytes: [UInt8], from: String, to: String) throws -> [UInt8] {
        let registry = StandardFormats.registry
        guard let input = registry.format(id: from), let output = registry.format(id: to) else {
            throw CalendarError(.usage, file: from, "format \(from) or \(to) is not registered")
        }
        var reader = input.makeReader(
            source: MemoryByteSource(bytes, chunkSize: 1 << 16), options: ReadOptions(sourceName: from), log: DiagnosticLog())
        let sink = MemoryByteSink()
        var writer = output.makeWriter(sink: sink, options: WriteOptions(destinationName: to), log: DiagnosticLog())
        while let element = try reader.next() { try writer.write(element) }
        try writer.finish()
        return sink.bytes
    }

    func checkCorpus(through format: String, lines: Bool) throws {
        let files = Self.corpusFiles()
        XCTAssertGreaterThan(files.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        let outDir = FileManager.default.temporaryDirectory.appendingPathComponent("calport-\(format)-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outDir) }
        var written: [URL] = []
        var checked = 0
        for (index, (name, url)) in files.enumerated() {
            let bytes = [UInt8](try Data(contentsOf: url))
            guard let before = try? RoundTripCheck.trees(of: bytes, name: name) else { continue }
            do {
                let json = try Self.convert(bytes, from: "ics", to: format)
                let jsonFile = outDir.appendingPathComponent("\(index).\(format)")
                try Data(json).write(to: jsonFile)
                written.append(jsonFile)
                let back = try Self.convert(json, from: format, to: "ics")
                let after = try RoundTripCheck.trees(of: back, name: "\(name) after \(format)")
                if let difference = RoundTripCheck.difference(before, after) {
                    XCTFail("\(name) through \(format): \(difference)")
                }
                checked += 1
            } catch {
                XCTFail("\(name) through \(format) failed: \(error)")
            }
        }
        XCTAssertGreaterThan(checked, 700)
        try SchemaValidator.assertFilesValid(written, schema: "calport.schema.json", lines: lines, definition: lines ? "line" : "document")
    }

    func testEveryCorpusFileRoundTripsThroughJSON() throws {
        try checkCorpus(through: "json", lines: false)
    }

    func testEveryCorpusFileRoundTripsThroughJSONLines() throws {
        try checkCorpus(through: "jsonl", lines: true)
    }
}
