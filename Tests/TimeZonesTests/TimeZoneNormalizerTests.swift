import CalendarModel
import Foundation
import TimeZones
import XCTest

/// The stage on model values: floating times, dates, fields that must stay UTC.
final class TimeZoneNormalizerTests: XCTestCase {
    func event(start: CalendarDateTime, end: CalendarDateTime?) -> CalendarStreamElement {
        var event = Event(item: CalendarItem(uid: "x", start: start))
        event.end = end
        event.item.timestamp = CalendarDateTime(
            date: CalendarDate(year: 2024, month: 1, day: 1), time: TimeOfDay(hour: 0, minute: 0, second: 0), reference: .utc)
        event.item.alarms = [
            Alarm(
                action: .display,
                trigger: .absolute(
                    CalendarDateTime(
                        date: CalendarDate(year: 2024, month: 7, day: 15), time: TimeOfDay(hour: 9, minute: 0, second: 0),
                        reference: .zone("Europe/Berlin"))))
        ]
        return .entry(.event(event), line: 7)
    }

    func run(_ options: TimeZoneOptions, _ element: CalendarStreamElement) throws -> Event {
        let normalizer = try TimeZoneNormalizer(options: options, file: "t.ics", log: DiagnosticLog())
        _ = normalizer.process(.beginCalendar(Calendar()))
        for case .entry(.event(let event), _) in normalizer.process(element) { return event }
        throw XCTSkip("no event")
    }

    func testFloatingTimesStayFloatingUnlessAZoneIsGiven() throws {
        let floating = CalendarDateTime(date: CalendarDate(year: 2024, month: 7, day: 15), time: TimeOfDay(hour: 10, minute: 0, second: 0))
        let kept = try run(TimeZoneOptions(output: .utc), event(start: floating, end: .day(2024, 7, 16)))
        XCTAssertEqual(kept.start, floating)
        XCTAssertEqual(kept.end, .day(2024, 7, 16))
        let read = try run(TimeZoneOptions(output: .utc, floatingZone: "America/New_York"), event(start: floating, end: .day(2024, 7, 16)))
        // 10:00 EDT is 14:00 UTC; the all-day end stays a date.
        XCTAssertEqual(read.start, CalendarDateTime(date: floating.date, time: TimeOfDay(hour: 14, minute: 0, second: 0), reference: .utc))
        XCTAssertEqual(read.end, .day(2024, 7, 16))
    }

    func testAbsoluteTriggersAndStampsStayUTC() throws {
        let start = CalendarDateTime(
            date: CalendarDate(year: 2024, month: 7, day: 15), time: TimeOfDay(hour: 10, minute: 0, second: 0),
            reference: .zone("Europe/Berlin"))
        let event = try run(TimeZoneOptions(output: .zone("Asia/Tokyo")), event(start: start, end: nil))
        XCTAssertEqual(
            event.start, CalendarDateTime(date: start.date, time: TimeOfDay(hour: 17, minute: 0, second: 0), reference: .zone("Asia/Tokyo"))
        )
        // An absolute TRIGGER must be UTC (RFC 5545 §3.8.6.3): 09:00 CEST is 07:00Z.
        XCTAssertEqual(
            event.alarms.first?.trigger,
            .absolute(CalendarDateTime(date: start.date, time: TimeOfDay(hour: 7, minute: 0, second: 0), reference: .utc)))
        XCTAssertEqual(event.timestamp?.reference, .utc)
        XCTAssertEqual(event.timestamp?.time, TimeOfDay(hour: 0, minute: 0, second: 0))
    }

    /// Keeping a zone under its own name leaves a regular wall time as it is (no round trip
    /// through the instant), but a time in a gap still moves forward (RFC 5545 §3.3.5), a leap
    /// second still carries into the next minute, and a time near a transition is still exact.
    func testKeptZonesChangeOnlyTheWallTimesTheInstantRewrites() throws {
        func newYork(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> CalendarDateTime {
            CalendarDateTime(
                date: CalendarDate(year: 2024, month: month, day: day), time: TimeOfDay(hour: hour, minute: minute, second: second),
                reference: .zone("America/New_York"))
        }
        let cases: [(CalendarDateTime, CalendarDateTime)] = [
            (newYork(7, 15, 10, 0), newYork(7, 15, 10, 0)),  // regular: as it was
            (newYork(3, 10, 2, 30), newYork(3, 10, 3, 30)),  // in the spring gap: an hour later
            (newYork(3, 10, 3, 30), newYork(3, 10, 3, 30)),  // just after the gap: as it was
            (newYork(11, 3, 1, 30), newYork(11, 3, 1, 30)),  // repeated hour: its first occurrence
            (newYork(7, 15, 10, 59, 60), newYork(7, 15, 11, 0)),  // leap second: the next minute
        ]
        for (start, expected) in cases {
            let event = try run(TimeZoneOptions(output: .keep), event(start: start, end: nil))
            XCTAssertEqual(event.start, expected, "\(start)")
        }
    }

    func testCalendarDefaultZoneIsRespelled() throws {
        let normalizer = try TimeZoneNormalizer(options: TimeZoneOptions(), file: "t.ics", log: DiagnosticLog())
        var calendar = Calendar()
        calendar.defaultTimeZone = "Asia/Calcutta"
        guard case .beginCalendar(let out)? = normalizer.process(.beginCalendar(calendar)).first else { return XCTFail() }
        XCTAssertEqual(out.defaultTimeZone, "Asia/Kolkata")
    }

    func testBadFloatingZoneIsAUsageError() {
        XCTAssertThrowsError(try TimeZoneNormalizer(options: TimeZoneOptions(floatingZone: "Nowhere"), file: "t.ics", log: DiagnosticLog()))
    }
}

/// Windows ids name several zones at once; the wall time written must agree with the one
/// VTIMEZONE written for the id.
final class WindowsStyleConsistencyTests: XCTestCase {
    func testWallTimeFollowsTheDefinitionWrittenForTheWindowsId() throws {
        // Prague had daylight time in 1979, Budapest (CLDR's zone for Central Europe Standard
        // Time) not until 1980. 12:00 CEST in Prague is 10:00 UTC.
        let start = CalendarDateTime(
            date: CalendarDate(year: 1979, month: 7, day: 1), time: TimeOfDay(hour: 12, minute: 0, second: 0),
            reference: .zone("Europe/Prague"))
        let normalizer = try TimeZoneNormalizer(
            options: TimeZoneOptions(tzidStyle: .windows, emitTimeZoneDefinitions: true), file: "t.ics", log: DiagnosticLog())
        _ = normalizer.process(.beginCalendar(Calendar()))
        let out = normalizer.process(.entry(.event(Event(item: CalendarItem(uid: "p", start: start))), line: 3))
        guard case .entry(.timeZone(let definition), _) = out.first, case .entry(.event(let event), _) = out.last else {
            return XCTFail("\(out)")
        }
        XCTAssertEqual(event.start?.reference, .zone("Central Europe Standard Time"))
        let rules = try XCTUnwrap(VTimeZoneRules(definition))
        XCTAssertEqual(rules.identifier, "Central Europe Standard Time")
        XCTAssertEqual(rules.utcSeconds(wallSeconds: event.start!.wallSecondsSinceEpoch), FixtureSupport.seconds("19790701T100000Z"))
    }
}

/// A VTIMEZONE may follow the items that use it; those items wait for it.
final class ForwardReferenceTests: XCTestCase {
    func testItemsBeforeTheirDefinitionAreConvertedWithIt() throws {
        let output = try FixtureSupport.convert("files/forward-reference.ics", timeZones: TimeZoneOptions(output: .keep))
        XCTAssertFalse(output.log.diagnostics.contains { $0.message.contains("names no known zone") }, "\(output.log.diagnostics)")
        let uids = output.elements.compactMap { element -> String? in
            if case .entry(.event(let event), _) = element { return event.uid }
            return nil
        }
        // Only the item that needed the later definition moved, to the end of its calendar.
        XCTAssertEqual(uids, ["f-known-zone", "f-after-definition", "f-before-definition"])
    }

    func testHeldItemsComeOutWhenTheInputEndsWithoutClosingItsCalendar() throws {
        let log = DiagnosticLog()
        let normalizer = try TimeZoneNormalizer(options: TimeZoneOptions(), file: "t.ics", log: log)
        _ = normalizer.process(.beginCalendar(Calendar()))
        let start = CalendarDateTime(
            date: CalendarDate(year: 2024, month: 1, day: 2), time: TimeOfDay(hour: 9, minute: 0, second: 0),
            reference: .zone("Nowhere Time"))
        XCTAssertEqual(normalizer.process(.entry(.event(Event(item: CalendarItem(uid: "n", start: start))), line: 4)), [])
        var rest: [CalendarStreamElement] = []
        normalizer.finish { rest.append($0) }
        guard case .entry(.event(let event), 4)? = rest.first else { return XCTFail("\(rest)") }
        XCTAssertEqual(event.start, start)
        XCTAssertEqual(log.diagnostics.map(\.line), [4])
        XCTAssertTrue(log.diagnostics[0].message.contains("names no known zone and has no VTIMEZONE"))
    }
}
