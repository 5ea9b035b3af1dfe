import CalendarModel
import XCTest

@testable import CSVFormat

/// `Name <mail>` and bare addresses, `;`-separated, both ways, and their roles and types.
final class CSVAttendeeListTests: XCTestCase {
    func testParsesNamesAddressesAndQuotedNames() {
        let entries = CSVAttendeeList.parse("Jane Doe <jane@example.com>; bob@example.com;\"Lopez; Ana\" <ana@example.com>;Ingrid de Vries; ;<x@example.com>")
        XCTAssertEqual(entries, [
            .init(name: "Jane Doe", address: "jane@example.com"), .init(name: nil, address: "bob@example.com"),
            .init(name: "Lopez; Ana", address: "ana@example.com"), .init(name: "Ingrid de Vries", address: nil),
            .init(name: nil, address: "x@example.com"),
        ])
    }

    func testFormatsAndReadsBack() {
        let people = [
            Participant(name: "Jane Doe", url: "mailto:jane@example.com"), Participant(url: "mailto:bob@example.com"),
            Participant(name: "Lopez, \"Ana\"", url: "mailto:ana@example.com"),
        ]
        let text = CSVAttendeeList.format(people)
        XCTAssertEqual(text, "Jane Doe <jane@example.com>; bob@example.com; \"Lopez, \\\"Ana\\\"\" <ana@example.com>")
        XCTAssertEqual(CSVAttendeeList.parse(text).map { $0.name }, ["Jane Doe", nil, "Lopez, \"Ana\""])
        XCTAssertEqual(CSVAttendeeList.parse(text).map { CSVAttendeeList.url(for: $0.address!) }, people.map(\.url))
    }

    /// Required/optional/resource columns go through the registered vocabulary both ways.
    func testColumnsMapToRolesAndTypesBothWays() throws {
        let vocabulary = try XCTUnwrap(CSVTestHelpers.registry.format(id: "csv-outlook")?.vocabulary)
        XCTAssertEqual(vocabulary.role(for: "Required Attendees"), .required)
        XCTAssertEqual(vocabulary.role(for: "Optional Attendees"), .optional)
        XCTAssertEqual(vocabulary.type(for: "Meeting Resources"), .resource)
        XCTAssertEqual(vocabulary.word(for: ParticipantRole.chair), "Required Attendees")
        XCTAssertEqual(vocabulary.word(for: ParticipantType.room), "Meeting Resources")

        var event = Event(item: CalendarItem(uid: "u", title: "Meeting", start: CalendarDateTime(date: CalendarDate(year: 2024, month: 5, day: 1), time: TimeOfDay(hour: 9, minute: 0, second: 0))))
        event.attendees = [
            Participant(name: "Chair", url: "mailto:chair@example.com", role: .chair),
            Participant(name: "Opt", url: "mailto:opt@example.com", role: .optional),
            Participant(name: "Room", url: "mailto:room@example.com", role: .required, type: .room),
            Participant(url: "mailto:plain@example.com"),
        ]
        let csv = String(decoding: try CSVTestHelpers.write([.beginCalendar(Calendar()), .entry(.event(event), line: 1), .endCalendar(trailingProperties: [])], format: "csv-outlook"), as: UTF8.self)
        let row = csv.split(separator: "\r\n")[1]
        XCTAssertTrue(row.contains("Chair <chair@example.com>; plain@example.com,Opt <opt@example.com>,Room <room@example.com>"), String(row))
        let back = CSVTestHelpers.events(try CSVTestHelpers.read(Array(csv.utf8), format: "csv-outlook"))[0].attendees
        XCTAssertEqual(back.map(\.role), [.required, .required, .optional, .nonParticipant])
        XCTAssertEqual(back.map(\.type), [nil, nil, nil, .resource])
    }
}
