import CalendarModel
import XCTest

/// The walk over every date-time of an item, which the time-zone stage and others rely on.
final class CalendarItemDateTimesTests: XCTestCase {
    func time(_ day: Int, _ reference: TimeReference = .zone("Europe/Berlin")) -> CalendarDateTime {
        CalendarDateTime(
            date: CalendarDate(year: 2024, month: 7, day: day), time: TimeOfDay(hour: 10, minute: 0, second: 0), reference: reference)
    }

    func richEvent() -> Event {
        var event = Event(item: CalendarItem(uid: "u", start: time(1)))
        event.end = time(2)
        event.item.recurrenceID = time(3)
        event.item.created = time(4, .utc)
        event.item.lastModified = time(5, .utc)
        event.item.timestamp = time(6, .utc)
        event.item.recurrenceDates = [
            CalendarItem.DateList(dates: [time(7)], periods: [CalendarPeriod(start: time(8), extent: .end(time(9)))])
        ]
        event.item.exceptionDates = [CalendarItem.DateList(dates: [time(10), time(11)])]
        event.item.recurrenceRules = [RecurrenceRule(frequency: .daily, end: .until(time(12, .utc)))]
        event.item.alarms = [Alarm(action: .display, trigger: .absolute(time(13, .utc)))]
        event.item.properties = [
            Property(name: "X-WHEN", value: .dateTimes([time(14)])), Property(name: "X-TEXT", value: .text(["not a date"])),
        ]
        event.item.components = [Component(name: "X-SUB", properties: [Property(name: "X-AT", value: .dateTimes([time(15)]))])]
        return event
    }

    func testVisitsEveryDateTimeOnceInTheSameOrderBothWays() {
        var visited: [Int] = []
        CalendarEntry.event(richEvent()).forEachDateTime { _, value in visited.append(value.date.day) }
        XCTAssertEqual(visited.sorted(), Array(1...15))
        var mapped: [Int] = []
        var entry = CalendarEntry.event(richEvent())
        entry.mapDateTimes { _, value in mapped.append(value.date.day) }
        XCTAssertEqual(mapped, visited)
    }

    func testMapWritesBackAndNamesFields() throws {
        var entry = CalendarEntry.event(richEvent())
        var fields: [DateTimeField] = []
        entry.mapDateTimes { field, value in
            fields.append(field)
            value.reference = .utc
        }
        var references: Set<TimeReference> = []
        entry.forEachDateTime { _, value in references.insert(value.reference) }
        XCTAssertEqual(references, [.utc])
        XCTAssertTrue(fields.contains(.end) && fields.contains(.recurrenceUntil) && fields.contains(.alarmTrigger))
        XCTAssertTrue(fields.contains(.property("X-WHEN")) && fields.contains(.property("X-AT")))
        XCTAssertEqual(fields.filter(\.requiresUTC).count, 4)  // created, last-modified, stamp, trigger
        guard case .event(let event) = entry else { return XCTFail() }
        XCTAssertEqual(event.item.properties[1].value, .text(["not a date"]))
    }
}
