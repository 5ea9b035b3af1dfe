import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import ICSFormat
import JSCalendarFormat
import JSONCoding
import XCTest

/// RFC 8984 §6's examples (Fixtures/jscalendar/rfc8984/README.md): each converts to exactly
/// its `.expected.ics`, reporting exactly what `.expected-warnings.txt` lists as not converted;
/// and the iCalendar converts back to JSCalendar that says what the example says.
final class JSCalendarRFCExampleTests: XCTestCase {
    static let folder = JSCalendarTestSupport.fixtures.appendingPathComponent("jscalendar/rfc8984")

    func examples() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }

    /// Whether `ours` has every member `theirs` has, with the same value (RFC 8984's "..."
    /// aside); maps keyed by ids calport chooses itself are compared by their values.
    static func covers(_ ours: JSONValue, _ theirs: JSONValue, key: String = "") -> Bool {
        switch (ours, theirs) {
        case (.object(let a), .object(let b)):
            if ["participants", "locations", "alerts"].contains(key) {
                let x = a.members.map(\.value)
                return b.members.allSatisfy { m in x.contains { covers($0, m.value) } } && a.members.count == b.members.count
            }
            return b.members.allSatisfy { m in m.key == "..." || (a[m.key].map { covers($0, m.value, key: m.key) } ?? false) }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { covers($0, $1) }
        default:
            return ours.isSemanticallyEqual(to: theirs)
        }
    }

    func testEveryExampleConvertsExactly() throws {
        let files = try examples()
        XCTAssertEqual(files.count, 10)
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let log = DiagnosticLog()
            var reader = JSCalendarFormat().makeReader(
                source: MemoryByteSource([UInt8](try Data(contentsOf: file))), options: ReadOptions(sourceName: file.lastPathComponent),
                log: log)
            let sink = MemoryByteSink()
            var writer = ICSFormat().makeWriter(sink: sink, options: WriteOptions(destinationName: "-"), log: log)
            while let e = try reader.next() { try writer.write(e) }
            try writer.finish()
            let expected = try String(contentsOf: Self.folder.appendingPathComponent("\(name).expected.ics"), encoding: .utf8)
            XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), expected, name)
            let warnings = try String(contentsOf: Self.folder.appendingPathComponent("\(name).expected-warnings.txt"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            XCTAssertEqual(log.diagnostics.map(\.description), warnings, name)
        }
    }

    func testFullyMappedExamplesComeBackFromICalendar() throws {
        for file in try examples() {
            let name = file.deletingPathExtension().lastPathComponent
            let warnings = try String(contentsOf: Self.folder.appendingPathComponent("\(name).expected-warnings.txt"), encoding: .utf8)
            // Examples with members calport does not convert cannot come back whole.
            guard warnings.isEmpty else { continue }
            let ics = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).expected.ics")))
            let back = try JSCalendarTestSupport.jsonValues(try JSCalendarTestSupport.convert(ics, from: "ics", to: "jscalendar"))
            let example = try JSCalendarTestSupport.jsonValues([UInt8](try Data(contentsOf: file)))[0]
            XCTAssertEqual(back.count, 1)
            var ours = JSCalendarTestSupport.withoutVendorMembers(back[0])
            // A single Event or Task comes back as a Group of one.
            if example.objectValue?["@type"]?.stringValue != "Group" {
                ours = ours.objectValue?["entries"]?.arrayValue?.first ?? .null
            }
            XCTAssertTrue(Self.covers(ours, example), "\(name): calport wrote\n\(ours)\nthe RFC has\n\(example)")
        }
    }
}
