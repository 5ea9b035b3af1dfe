import CalendarModel
import CalendarTestSupport
import Conversion
import EWSFormat
import ExchangeData
import Foundation
import ICSFormat
import XCTest

/// The EWS writer's golden pairs: every `Fixtures/writing/<case>.ics` is read as ICS and written
/// as EWS, and must equal `<case>.expected.xml` byte for byte (hand-checked against the EWS
/// schema's element order and Microsoft's GetItem/CreateItem examples). Cases named
/// `create-…` write a CreateItem request (`--ews-request create`). When
/// `<case>.expected-losses.txt` exists, the fields reported lost must be exactly its lines.
final class EWSWriterGoldenTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/writing")

    /// Reads ICS bytes and writes them as EWS with `settings`; the output and the log.
    static func ews(fromICS bytes: [UInt8], settings: EWSWriterSettings = .init(), name: String = "input") throws -> ([UInt8], DiagnosticLog) {
        let log = DiagnosticLog()
        var reader = ICSFormat().makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: log)
        let sink = MemoryByteSink()
        var writer = EWSWriter(
            sink: sink, options: WriteOptions(destinationName: "out.xml", formatSettings: settings.formatSettings), log: log,
            vocabulary: ExchangeVocabulary.ews)
        while let element = try reader.next() { try writer.write(element) }
        try writer.finish()
        return (sink.bytes, log)
    }

    func testEveryWritingFixtureMatchesItsExpectedXML() throws {
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".ics") }.map { String($0.dropLast(4)) }.sorted()
        XCTAssertGreaterThan(cases.count, 5)
        let regenerate = ProcessInfo.processInfo.environment["CALPORT_REGENERATE_GOLDEN"] != nil
        for name in cases {
            let input = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".ics")))
            let settings = EWSWriterSettings(document: name.hasPrefix("create-") ? .createItemRequest : .getItemResponse)
            let (output, log) = try Self.ews(fromICS: input, settings: settings, name: name)
            let expectedURL = Self.fixtures.appendingPathComponent(name + ".expected.xml")
            let lossesURL = Self.fixtures.appendingPathComponent(name + ".expected-losses.txt")
            let lost = log.diagnostics.compactMap(\.lostField)
            if regenerate {
                try Data(output).write(to: expectedURL)
                if lost.isEmpty {
                    try? FileManager.default.removeItem(at: lossesURL)
                } else {
                    try (lost.joined(separator: "\n") + "\n").write(to: lossesURL, atomically: true, encoding: .utf8)
                }
                continue
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(String(decoding: output, as: UTF8.self), expected, "\(name).expected.xml")
            let expectedLosses = (try? String(contentsOf: lossesURL, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            XCTAssertEqual(lost, expectedLosses, "\(name): fields reported lost (\(log.diagnostics.map(\.description)))")
        }
    }
}
