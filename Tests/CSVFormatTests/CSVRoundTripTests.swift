import CSVFormat
import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

/// ICS → csv-outlook → ICS keeps what Outlook's columns can hold; ICS → csv → ICS keeps every
/// event field the model types, losing only what `FlatRowMapper` names.
final class CSVRoundTripTests: XCTestCase {
    static let outlookCases = [
        CSVTestHelpers.fixtures.appendingPathComponent("roundtrip/outlook-fields.ics"),
        RoundTripCheck.repositoryRoot.appendingPathComponent("samples/outlook-team-meetings.ics"),
    ]

    /// Reads ICS, writes it in `format`, reads that back (naive times in `zone`) and returns the
    /// events before and after, the latter written to ICS and read again.
    func roundTrip(_ file: URL, through format: String, zone: String?) throws -> (before: [Event], after: [Event], warnings: [Diagnostic]) {
        let ics = [UInt8](try Data(contentsOf: file))
        let before = try CSVTestHelpers.read(ics, format: "ics")
        let log = DiagnosticLog()
        let csv = try CSVTestHelpers.write(before, format: format, log: log)
        var settings: [String: String] = [:]
        settings[CSVSettings.timeZoneKey] = zone
        let fromCSV = try CSVTestHelpers.read(csv, format: format, settings: settings, log: log)
        let backToICS = try CSVTestHelpers.write(fromCSV, format: "ics")
        let after = try CSVTestHelpers.read(backToICS, format: "ics")
        return (CSVTestHelpers.events(before), CSVTestHelpers.events(after), log.diagnostics)
    }

    /// The Outlook column an attendee goes in: Outlook knows required, optional and resources only.
    func outlookColumn(_ p: Participant) -> String {
        if p.type == .resource || p.type == .room || p.role == .nonParticipant { return "resources" }
        return p.role == .optional ? "optional" : "required"
    }

    /// When an alarm fires, in seconds from the start's wall time.
    func reminderOffset(_ e: Event) -> Int? {
        guard let alarm = e.alarms.first, let start = e.start else { return nil }
        switch alarm.trigger {
        case .relative(let d, false)?: return d.totalSeconds
        case .relative(let d, true)?: return e.effectiveEnd!.wallSecondsSinceEpoch + d.totalSeconds - start.wallSecondsSinceEpoch
        case .absolute(let at)?: return at.wallSecondsSinceEpoch - start.wallSecondsSinceEpoch
        case nil: return nil
        }
    }

    func testOutlookRoundTripKeepsSubjectInstantsAllDayReminderAttendeesCategoriesLocationDescriptionSensitivity() throws {
        for file in Self.outlookCases {
            let zone = try CSVTestHelpers.events(CSVTestHelpers.read([UInt8](try Data(contentsOf: file)), format: "ics"))
                .compactMap { $0.start?.reference.zoneIdentifier }.first
            let (before, after, warnings) = try roundTrip(file, through: "csv-outlook", zone: zone)
            let name = file.lastPathComponent
            XCTAssertEqual(before.count, after.count, name)
            XCTAssertGreaterThanOrEqual(before.count, 3, name)
            for (a, b) in zip(before, after) {
                let what = "\(name): \(a.title ?? "")"
                XCTAssertEqual(a.title, b.title, what)
                XCTAssertEqual(a.start, b.start, what)
                XCTAssertEqual(a.effectiveEnd, b.effectiveEnd, what)
                XCTAssertEqual(a.isAllDay, b.isAllDay, what)
                XCTAssertEqual(reminderOffset(a), reminderOffset(b), what)
                XCTAssertEqual(a.organizer?.url.lowercased(), b.organizer?.url.lowercased(), what)
                XCTAssertEqual(a.organizer?.name, b.organizer?.name, what)
                let people = { (e: Event) in e.attendees.map { [$0.url.lowercased(), $0.name ?? "", self.outlookColumn($0)] }.sorted { $0.joined() < $1.joined() } }
                XCTAssertEqual(people(a), people(b), what)
                XCTAssertEqual(a.item.allCategories, b.item.allCategories, what)
                XCTAssertEqual(a.location, b.location, what)
                XCTAssertEqual(a.notes, b.notes, what)
                let sensitivity = { (e: Event) in e.classification == .public ? nil : e.classification }
                XCTAssertEqual(sensitivity(a), sensitivity(b), what)
            }
            // The recurring sample meeting is written once, and says so.
            if before.contains(where: { $0.item.hasRecurrenceRules }) {
                XCTAssertTrue(warnings.contains { $0.message.contains("only the first occurrence is written") }, name)
            }
        }
    }

    /// The fixture exercises each listed field (so the test above cannot pass vacuously).
    func testOutlookFixtureHasEveryListedField() throws {
        let events = CSVTestHelpers.events(try CSVTestHelpers.read([UInt8](try Data(contentsOf: Self.outlookCases[0])), format: "ics"))
        XCTAssertTrue(events.contains { $0.isAllDay })
        XCTAssertTrue(events.contains { !$0.alarms.isEmpty })
        XCTAssertTrue(events.contains { e in e.attendees.contains { $0.role == .optional } && e.attendees.contains { $0.type == .resource } })
        XCTAssertTrue(events.contains { $0.item.categories.count > 1 })
        XCTAssertTrue(events.contains { $0.classification == .confidential } && events.contains { $0.classification == .private })
        XCTAssertTrue(events.contains { ($0.notes ?? "").contains("\n") })
    }

    /// ICS → csv → ICS on every sample: events equal except for what the flat layout names as lost.
    func testFlatRoundTripOnSamplesLosesOnlyWhatItNames() throws {
        let samples = try FileManager.default.contentsOfDirectory(
            at: RoundTripCheck.repositoryRoot.appendingPathComponent("samples"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ics" }.sorted { $0.path < $1.path }
        XCTAssertFalse(samples.isEmpty)
        for file in samples {
            let (before, after, _) = try roundTrip(file, through: "csv", zone: nil)
            XCTAssertEqual(before.count, after.count, file.lastPathComponent)
            for (a, b) in zip(before, after) {
                XCTAssertEqual(Self.withoutFlatLosses(a), Self.withoutFlatLosses(b), "\(file.lastPathComponent): \(a.title ?? "")")
            }
        }
    }

    /// An event without what the flat layout cannot hold (the list in `FlatRowMapper`'s doc comment).
    static func withoutFlatLosses(_ event: Event) -> Event {
        var e = event
        e.item.properties = []
        e.item.propertyParameters = [:]
        e.item.components = []
        e.item.structuredLocation = nil
        e.item.alarms = e.item.alarms.map { alarm in
            var a = alarm
            a.properties = []
            a.components = []
            a.propertyParameters = [:]
            a.proximity = nil
            a.structuredLocation = nil
            a.attendees = a.attendees.map { Participant(url: $0.url) }
            return a
        }
        e.item.recurrenceDates = e.item.recurrenceDates.map { CalendarItem.DateList(dates: $0.dates, periods: $0.periods) }
        e.item.exceptionDates = e.item.exceptionDates.map { CalendarItem.DateList(dates: $0.dates, periods: $0.periods) }
        return e
    }
}
