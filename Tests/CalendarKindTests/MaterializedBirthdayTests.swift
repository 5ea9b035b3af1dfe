import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// `--birthdays materialize` leaves nothing that makes its output a birthday calendar again:
/// `calport inspect` of the output, in every format that can carry a calendar, lists writable
/// ordinary calendars with no birthday in them.
final class MaterializedBirthdayTests: XCTestCase {
    var harness: ConversionHarness!

    override func setUpWithError() throws { harness = try ConversionHarness() }
    override func tearDown() { harness.remove() }

    /// Every vendor's birthday calendar the suite has: the detection fixtures, the objects
    /// Nextcloud's birthday service writes (typed by their PRODID), and Google's export.
    func birthdayInputs() throws -> [URL] {
        var inputs: [URL] = []
        for folder in ["birthdays", "materialize"] {
            let dir = KindFacts.fixtures.appendingPathComponent(folder)
            inputs += try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".ics") }.sorted()
                .map { dir.appendingPathComponent($0) }
        }
        inputs.append(RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/samples/google_birthday.ics"))
        return inputs
    }

    func overviews(of text: String, ext: String) throws -> [CalendarOverview] {
        let url = harness.directory.appendingPathComponent("inspect-\(UUID().uuidString).\(ext)")
        try Data(text.utf8).write(to: url)
        return try CalendarInspector().inspect(path: url.path, format: nil, strict: false, log: DiagnosticLog())
    }

    func testInspectOfAMaterializedBirthdayCalendarShowsAWritableOrdinaryCalendar() throws {
        for input in try birthdayInputs() {
            let before = try CalendarInspector().inspect(path: input.path, format: nil, strict: false, log: DiagnosticLog())
            XCTAssertTrue(before.contains { $0.birthdays > 0 }, "\(input.lastPathComponent) is no birthday input")
            for ext in ["ics", "jcal", "xcs", "jscal", "json", "jsonl"] {
                let out = try harness.convert(input, to: ext, birthdays: .materialize).text
                let calendars = try overviews(of: out, ext: ext)
                let name = "\(input.lastPathComponent) → \(ext)"
                XCTAssertFalse(calendars.isEmpty, name)
                for c in calendars {
                    XCTAssertEqual(c.kind, .local, name)
                    XCTAssertTrue(c.allowsContentModifications, name)
                    XCTAssertEqual(c.birthdays, 0, name)
                    XCTAssertGreaterThan(c.events, 0, name)
                }
                // No vendor mark is left for another program to find either.
                for mark in ["nextcloud.com//Birthday", "X-NEXTCLOUD-BC", "X-SABRE-BDAY", "X-APPLE-OMIT-YEAR", "addressbook://", "BIRTHDAY_"] {
                    XCTAssertFalse(out.contains(mark), "\(name) keeps \(mark)")
                }
            }
        }
    }

    func testNextcloudsBirthdayServiceObjectIsABirthdayCalendarUntilMaterialized() throws {
        let input = KindFacts.fixtures.appendingPathComponent("materialize/nextcloud-birthday-service-object.ics")
        let kept = try harness.convert(input, to: "ics").text
        XCTAssertTrue(kept.contains("PRODID:-//IDN nextcloud.com//Birthday calendar//EN"))
        XCTAssertEqual(try overviews(of: kept, ext: "ics").map(\.kind), [.birthday])
        let plain = try harness.convert(input, to: "ics", birthdays: .materialize).text
        // The producer's name goes with the marks: calport made this calendar.
        XCTAssertEqual(ConversionHarness.value("PRODID", in: plain.components(separatedBy: "\r\n")), "-//calport//calport 1.0//EN")
    }
}
