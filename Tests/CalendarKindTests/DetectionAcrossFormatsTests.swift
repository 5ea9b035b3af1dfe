import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Detection works on every input, not only ICS: a birthday or subscription calendar written
/// to each format that keeps vendor properties is detected the same when read back.
final class DetectionAcrossFormatsTests: XCTestCase {
    func testEveryLosslessFormatKeepsWhatDetectionReads() throws {
        let harness = try ConversionHarness()
        defer { harness.remove() }
        let inputs = [
            KindFacts.fixtures.appendingPathComponent("birthdays/nextcloud-contact-birthdays.ics"),
            KindFacts.fixtures.appendingPathComponent("birthdays/apple-birthdays.ics"),
            KindFacts.fixtures.appendingPathComponent("birthdays/sabre-vobject-birthdays.ics"),
            RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/samples/google_birthday.ics"),
            KindFacts.fixtures.appendingPathComponent("subscriptions/webcal-feed-with-source.ics"),
        ]
        let formats = ["json", "jsonl", "jcal", "jscalendar", "xcal", "caldav"].filter { StandardFormats.registry.format(id: $0) != nil }
        XCTAssertGreaterThanOrEqual(formats.count, 2)
        for input in inputs {
            let expected = try KindFacts.facts(of: input)
            for id in formats {
                let format = try XCTUnwrap(StandardFormats.registry.format(id: id))
                let name = "\(input.deletingPathExtension().lastPathComponent).\(format.fileExtensions[0])"
                _ = try harness.convert(input, to: format.fileExtensions[0], output: name)
                let facts = try KindFacts.facts(of: harness.directory.appendingPathComponent(name))
                XCTAssertEqual(facts.map(\.type), expected.map(\.type), "\(input.lastPathComponent) → \(id)")
                XCTAssertEqual(facts.map(\.birthdays), expected.map(\.birthdays), "\(input.lastPathComponent) → \(id)")
                XCTAssertEqual(facts.map(\.subscriptionURL), expected.map(\.subscriptionURL), "\(input.lastPathComponent) → \(id)")
            }
        }
    }
}
