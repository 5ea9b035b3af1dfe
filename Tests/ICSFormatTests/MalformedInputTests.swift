import CalendarModel
import Conversion
import Foundation
import ICSFormat
import XCTest

/// Malformed input gives a diagnostic with its line, never a crash: lenient mode repairs and
/// warns, strict mode stops. Cases are files in Fixtures/invalid with their expectations in
/// expectations.tsv, so adding a case is adding a file and a line.
final class MalformedInputTests: XCTestCase {
    struct Expectation {
        var file: String
        var strict: Bool
        var isError: Bool
        var line: Int
        var fragment: String
    }

    func expectations() throws -> [Expectation] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/invalid/expectations", withExtension: "tsv"))
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let f = row.split(separator: "\t").map(String.init)
            return Expectation(file: f[0], strict: f[1] == "strict", isError: f[2] == "error", line: Int(f[3])!, fragment: f[4])
        }
    }

    /// Reads a whole input, returning the diagnostics and the error, if any.
    func read(_ bytes: [UInt8], name: String, strict: Bool) -> (warnings: [Diagnostic], error: CalendarError?, elements: [CalendarStreamElement]) {
        let log = DiagnosticLog()
        var reader = ICSReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name, strict: strict), log: log)
        var elements: [CalendarStreamElement] = []
        do {
            while let e = try reader.next() { elements.append(e) }
            return (log.diagnostics, nil, elements)
        } catch let error as CalendarError {
            return (log.diagnostics, error, elements)
        } catch {
            XCTFail("unexpected error type: \(error)")
            return (log.diagnostics, nil, elements)
        }
    }

    func testEveryMalformedFixtureGivesItsDiagnosticWithTheLine() throws {
        let cases = try expectations()
        XCTAssertGreaterThanOrEqual(cases.count, 10)
        for c in cases {
            let url = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/invalid/\(c.file)", withExtension: "ics"), c.file)
            let name = "\(c.file).ics"
            let result = read([UInt8](try Data(contentsOf: url)), name: name, strict: c.strict)
            let context = "\(c.file) (\(c.strict ? "strict" : "lenient"))"
            if c.isError {
                let error = try XCTUnwrap(result.error, "\(context): expected an error")
                XCTAssertEqual(error.diagnostic.line, c.line, context)
                XCTAssertEqual(error.diagnostic.file, name, context)
                XCTAssertTrue(error.description.contains(c.fragment), "\(context): \(error.description)")
            } else {
                XCTAssertNil(result.error, "\(context): \(String(describing: result.error))")
                XCTAssertTrue(result.warnings.contains { $0.line == c.line && $0.message.contains(c.fragment) },
                              "\(context): \(result.warnings.map(\.description))")
            }
        }
    }

    func testLenientRepairsKeepTheData() throws {
        let folding = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/invalid/bad-folding", withExtension: "ics"))
        let result = read([UInt8](try Data(contentsOf: folding)), name: "bad-folding.ics", strict: false)
        guard case .entry(.event(let event), _) = result.elements[1] else { return XCTFail("no event") }
        XCTAssertEqual(event.notes, "This line was folded by a tool that forgotthe leading space on the next line")

        let truncated = try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/invalid/truncated", withExtension: "ics"))
        let cut = read([UInt8](try Data(contentsOf: truncated)), name: "truncated.ics", strict: false)
        guard case .entry(.event(let partial), _) = cut.elements[1] else { return XCTFail("no event") }
        XCTAssertEqual(partial.title, "Cut off in the mid")
    }

    func testAOneMegabyteLineIsReadWhole() throws {
        let long = String(repeating: "0123456789abcdef", count: 65_536)  // 1 MiB
        let input = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:long\r\nDESCRIPTION:\(long)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let result = read(Array(input.utf8), name: "long.ics", strict: true)
        XCTAssertNil(result.error)
        guard case .entry(.event(let event), _) = result.elements[1] else { return XCTFail("no event") }
        XCTAssertEqual(event.notes?.utf8.count, 1 << 20)
    }

    func testAOneMegabyteLineWithoutAColonIsReportedWithItsLine() throws {
        let junk = String(repeating: "x", count: 1 << 20)
        let input = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:junk\r\nEND:VEVENT\r\n\(junk)\r\nEND:VCALENDAR\r\n"
        let strict = read(Array(input.utf8), name: "junk.ics", strict: true)
        XCTAssertEqual(strict.error?.diagnostic.line, 5)
        XCTAssertTrue(strict.error?.diagnostic.message.contains("no ':'") ?? false)
        let lenient = read(Array(input.utf8), name: "junk.ics", strict: false)
        XCTAssertNil(lenient.error)
        XCTAssertTrue(lenient.warnings.contains { $0.line == 5 })
    }

    func testInputThatIsNotICalendarIsAnError() {
        let result = read(Array("hello, world\n".utf8), name: "hello.txt", strict: false)
        XCTAssertNotNil(result.error)
        XCTAssertEqual(read([], name: "empty.ics", strict: false).error?.diagnostic.message, "no VCALENDAR found (empty input or not iCalendar)")
    }
}
