import CalendarModel
import Foundation
import XCTest

/// Every `<case>.expected.json` under Fixtures/birthdays and Fixtures/subscriptions: the
/// calendars of its input, as detection types them, with every birthday event's facts.
/// Adding a vendor's export is adding a file pair. `CALPORT_PRINT_FACTS=1` prints what
/// detection found, for writing a new expectation by hand after checking it.
final class KindFixtureTests: XCTestCase {
    func check(folder: String, atLeast: Int) throws {
        let dir = KindFacts.fixtures.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".expected.json") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, atLeast, "fixtures missing in \(folder)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        for name in names {
            let url = dir.appendingPathComponent(name)
            let expected = try JSONDecoder().decode(KindExpectation.self, from: Data(contentsOf: url))
            let input = try KindFacts.input(for: url, expected)
            let actual = try KindFacts.facts(of: input)
            if ProcessInfo.processInfo.environment["CALPORT_PRINT_FACTS"] != nil {
                print(name, String(decoding: try encoder.encode(KindExpectation(input: expected.input, calendars: actual)), as: UTF8.self))
            }
            XCTAssertEqual(actual, expected.calendars, name)
        }
    }

    func testBirthdayCalendarsOfEveryVendorAreDetected() throws {
        try check(folder: "birthdays", atLeast: 5)
    }

    func testSubscribedCalendarsAreDetected() throws {
        try check(folder: "subscriptions", atLeast: 2)
    }
}
