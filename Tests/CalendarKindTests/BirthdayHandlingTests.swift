import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// `--birthdays keep|skip|materialize` on whole files, and the contact identifier carried
/// into native JSON and back.
final class BirthdayHandlingTests: XCTestCase {
    var harness: ConversionHarness!

    override func setUpWithError() throws { harness = try ConversionHarness() }
    override func tearDown() { harness.remove() }

    var google: URL { RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/samples/google_birthday.ics") }
    func fixture(_ name: String) -> URL { KindFacts.fixtures.appendingPathComponent(name) }

    /// The calendars and events of a converted native JSON file.
    func readJSON(_ text: String) throws -> [(calendar: CalendarModel.Calendar, events: [Event])] {
        let url = harness.directory.appendingPathComponent("read-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        var reader = try Converter().makeReader(
            name: url.path, source: try FileByteSource(path: url.path), request: ConversionRequest(inputs: [url.path]), log: DiagnosticLog()
        )
        var out: [(calendar: CalendarModel.Calendar, events: [Event])] = []
        while let e = try reader.next() {
            switch e {
            case .beginCalendar(let c): out.append((c, []))
            case .entry(.event(let ev), _): out[out.count - 1].events.append(ev)
            default: break
            }
        }
        return out
    }

    func testKeptBirthdayCalendarsCarryTheirKindAndContactsIntoJSONAndBack() throws {
        let json = try harness.convert(fixture("birthdays/apple-birthdays.ics"), to: "json").text
        XCTAssertTrue(json.contains("\"birthdayContactIdentifier\":\"9F3C2E1A-7B4D-4C8E-A1F2-3D4E5F6A7B8C\""))
        let calendars = try readJSON(json)
        XCTAssertEqual(calendars.count, 1)
        XCTAssertEqual(calendars[0].calendar.kind, .birthday)
        XCTAssertFalse(calendars[0].calendar.allowsContentModifications)
        XCTAssertEqual(
            calendars[0].events.map(\.birthdayContactIdentifier),
            [
                "9F3C2E1A-7B4D-4C8E-A1F2-3D4E5F6A7B8C", "2B7E9D10-4A3C-4F21-9E8D-7C6B5A4F3E2D", "5D6E7F80-1A2B-4C3D-8E9F-A0B1C2D3E4F5",
                "0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9",
            ])
        XCTAssertEqual(
            calendars[0].events[1].birthday, Birthday(contactIdentifier: "2B7E9D10-4A3C-4F21-9E8D-7C6B5A4F3E2D", month: 2, day: 29))
        // And back to ICS: the vendor's own marks, nothing added, as a direct ICS → ICS has it.
        let jsonFile = harness.directory.appendingPathComponent("apple.json")
        try Data(json.utf8).write(to: jsonFile)
        let back = try harness.convert(jsonFile, to: "ics").text
        XCTAssertFalse(back.contains("X-SABRE-BDAY"))
        XCTAssertEqual(back, try harness.convert(fixture("birthdays/apple-birthdays.ics"), to: "ics").text)
    }

    func testABirthdayWithoutVendorMarksGetsSabresWhenWrittenAsICS() throws {
        // An EventKit-shaped JSON birthday, as an app exporting EKEvents would write it.
        let json = """
            {"format":"calport-json","version":1,"calendars":[
            {"calendar":{"title":"Birthdays","type":"birthday","allowsContentModifications":false},"entries":[
            {"event":{"uid":"bday-1","title":"Ada","startDate":{"date":"1604-03-15"},"isAllDay":true,"birthdayContactIdentifier":"C-1","birthday":{"occasion":"birthday","month":3,"day":15}}}
            ],"trailingProperties":[]}
            ]}
            """
        let input = harness.directory.appendingPathComponent("eventkit.json")
        try Data(json.utf8).write(to: input)
        let ics = try harness.convert(input, to: "ics").text
        let event = try XCTUnwrap(ConversionHarness.events(in: ics)["bday-1"])
        XCTAssertTrue(event.contains("X-SABRE-BDAY;X-SABRE-VCARD-UID=C-1;X-SABRE-OMIT-YEAR=1604:BDAY"), "\(event)")
        // Reading that ICS finds the same birthday again.
        let reread = harness.directory.appendingPathComponent("reread.ics")
        try Data(ics.utf8).write(to: reread)
        let facts = try KindFacts.facts(of: reread)
        XCTAssertEqual(facts.first?.type, "birthday")
        XCTAssertEqual(
            facts.first?.birthdays.first,
            BirthdayFacts(uid: "bday-1", occasion: "birthday", contactIdentifier: "C-1", month: 3, day: 15, year: nil))
    }

    func testSkipLeavesBirthdayCalendarsOutAndKeepsTheRest() throws {
        let both = harness.directory.appendingPathComponent("both.ics")
        let text =
            try String(contentsOf: fixture("birthdays/nextcloud-contact-birthdays.ics"), encoding: .utf8)
            + String(contentsOf: fixture("birthdays/ordinary-calendar-with-a-copied-birthday.ics"), encoding: .utf8)
        try Data(text.utf8).write(to: both)
        let out = try harness.convert(both, to: "ics", birthdays: .skip).text
        XCTAssertEqual(out.components(separatedBy: "BEGIN:VCALENDAR").count - 1, 1)
        XCTAssertTrue(out.contains("X-WR-CALNAME:Family"))
        XCTAssertFalse(out.contains("Contact birthdays"))
        // A birthday someone copied into an ordinary calendar is theirs: it stays.
        XCTAssertTrue(out.contains("UID:copied-birthday@example.com"))
    }

    func testMaterializingGooglesOneEventPerYearGivesOneYearlyEventPerContact() throws {
        let out = try harness.convert(google, to: "ics", birthdays: .materialize).text
        let events = ConversionHarness.events(in: out)
        XCTAssertEqual(events.count, 1, "\(events.keys)")
        let event = try XCTUnwrap(events["79d389868f96182e-birthday@google.com"])
        // Google states no birth year: the placeholder start, then every December 10.
        XCTAssertEqual(ConversionHarness.value("DTSTART", in: event), "19701210")
        XCTAssertEqual(ConversionHarness.value("DTEND", in: event), "19701211")
        XCTAssertEqual(ConversionHarness.value("RRULE", in: event), "FREQ=YEARLY")
        XCTAssertNil(ConversionHarness.value("RDATE", in: event))
        XCTAssertNil(ConversionHarness.value("RECURRENCE-ID", in: event))
        XCTAssertNil(ConversionHarness.value("X-GOOGLE-CALENDAR-CONTENT-ICON", in: event))
        XCTAssertEqual(ConversionHarness.value("SUMMARY", in: event), "PErson #2's birthday")
        // The calendar is an ordinary, writable one now.
        let input = harness.directory.appendingPathComponent("materialized.ics")
        try Data(out.utf8).write(to: input)
        let facts = try KindFacts.facts(of: input)
        XCTAssertEqual(facts.map(\.type), ["local"])
        XCTAssertEqual(facts.map(\.allowsContentModifications), [true])
        XCTAssertEqual(facts.first?.birthdays, [])
    }

    func testMaterializedJSONSaysWritableLocal() throws {
        let json = try harness.convert(fixture("birthdays/nextcloud-contact-birthdays.ics"), to: "json", birthdays: .materialize).text
        let calendars = try readJSON(json)
        XCTAssertEqual(calendars.first?.calendar.kind, .local)
        XCTAssertEqual(calendars.first?.calendar.allowsContentModifications, true)
        XCTAssertEqual(calendars.first?.events.count, 4)
        XCTAssertTrue(calendars.first?.events.allSatisfy { $0.birthday == nil && $0.isAllDay } ?? false)
        // The anniversary and the birthday of the same contact are two events.
        XCTAssertEqual(
            calendars.first?.events.map { $0.item.start?.date },
            [
                CalendarDate(year: 1984, month: 5, day: 17), CalendarDate(year: 1970, month: 9, day: 3),
                CalendarDate(year: 1972, month: 2, day: 29), CalendarDate(year: 2010, month: 6, day: 19),
            ])
    }
}
