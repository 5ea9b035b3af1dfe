import CalendarModel
import ICalendarData
import JCalCoding
import XCTest

/// `ICalendarRemainder.between(original:reconstructed:mapper:)` leaves fields out of the trees
/// it compares: it must give what comparing the two whole trees gives, names and order included.
final class ICalendarRemainderEventTests: XCTestCase {
    let mapper = ICalendarMapper()

    static func at(_ day: Int, _ hour: Int, zone: String = "Europe/Berlin") -> CalendarDateTime {
        CalendarDateTime(
            date: CalendarDate(year: 2024, month: 3, day: day), time: TimeOfDay(hour: hour, minute: 0, second: 0), reference: .zone(zone))
    }

    /// An event with every typed field the mapper writes.
    static func full() -> Event {
        var e = Event()
        e.uid = "u1"
        e.timestamp = CalendarDateTime(
            date: CalendarDate(year: 2024, month: 1, day: 2), time: TimeOfDay(hour: 3, minute: 4, second: 5), reference: .utc)
        e.start = at(4, 9)
        e.end = at(4, 10)
        e.transparency = "OPAQUE"
        e.recurrenceRules = [RecurrenceRule(frequency: .weekly)]
        e.exceptionDates = [CalendarItem.DateList(dates: [at(11, 9)])]
        e.title = "Planning"
        e.location = "Room 1"
        e.geo = GeoCoordinate(latitude: 52.5, longitude: 13.4)
        e.notes = "Notes"
        e.url = "https://example.com/e"
        e.status = .confirmed
        e.classification = .public
        e.priority = 5
        e.categories = [["A", "B"]]
        e.organizer = Participant(name: "Org", url: "mailto:org@example.com")
        e.attendees = [
            Participant(name: "Ann", url: "mailto:ann@example.com", role: .required, status: .accepted, type: .person, expectsReply: true),
            Participant(name: "Room", url: "mailto:room@example.com", role: .nonParticipant, status: .pending, type: .room),
        ]
        e.sequence = 2
        e.created = e.timestamp
        e.lastModified = e.timestamp
        e.properties = [
            Property(name: "X-A", value: .text(["1"])), Property(name: "X-B", value: .text(["2"])),
            Property(name: "X-A", value: .text(["3"])),
        ]
        e.alarms = [Alarm(action: .display, trigger: .relative(CalendarDuration(minutes: -15), relativeToEnd: false), description: "Soon")]
        return e
    }

    func assertSame(_ original: Event, _ reconstructed: Event, nonEmpty: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        let whole = ICalendarRemainder.between(
            original: mapper.component(from: .event(original)), reconstructed: mapper.component(from: .event(reconstructed)))
        let fast = ICalendarRemainder.between(original: original, reconstructed: reconstructed, mapper: mapper)
        XCTAssertEqual(fast, whole, file: file, line: line)
        XCTAssertEqual(fast.isEmpty, !nonEmpty, "remainder \(fast)", file: file, line: line)
        // And the other way round: the reconstructed event's fields in the original's place.
        let back = ICalendarRemainder.between(original: reconstructed, reconstructed: original, mapper: mapper)
        XCTAssertEqual(
            back,
            ICalendarRemainder.between(
                original: mapper.component(from: .event(reconstructed)), reconstructed: mapper.component(from: .event(original))),
            file: file, line: line)
    }

    func testEqualEventsLeaveNothing() {
        assertSame(Self.full(), Self.full(), nonEmpty: false)
    }

    func testMissingAndDifferingFieldsKeepTheOriginalsInOrder() {
        var r = Self.full()
        r.uid = nil
        r.timestamp = nil
        r.title = "Other"
        r.start = Self.at(4, 8)
        r.priority = 1
        r.sequence = nil
        r.categories = [["A"], ["B"]]
        r.recurrenceRules = [RecurrenceRule(frequency: .daily)]
        r.end = nil
        r.duration = CalendarDuration(hours: 1)
        r.transparency = "TRANSPARENT"
        r.notes = nil
        r.url = "https://example.com/other"
        assertSame(Self.full(), r)
    }

    func testParametersAloneMakeADifference() {
        var r = Self.full()
        r.item.propertyParameters = ["DTSTART": [Parameter("X-P", "1")], "SUMMARY": [Parameter("LANGUAGE", "de")]]
        assertSame(Self.full(), r)
        var o = Self.full()
        o.item.propertyParameters = ["SUMMARY": [Parameter("LANGUAGE", "de")]]
        r.item.propertyParameters = ["SUMMARY": [Parameter("LANGUAGE", "de")]]
        assertSame(o, r, nonEmpty: false)
    }

    func testParticipantsAreComparedAsTheirProperties() {
        // No PARTSTAT for Unknown: the same property as no status at all.
        var o = Self.full()
        o.attendees[1].status = nil
        var r = Self.full()
        r.attendees[1].status = .unknown
        assertSame(o, r, nonEmpty: false)
        r.attendees[0].role = .optional
        assertSame(o, r)
        r = Self.full()
        r.attendees.removeLast()
        assertSame(o, r)
        r.attendees = []
        assertSame(o, r)
        r = Self.full()
        r.organizer = Participant(name: "Other", url: "mailto:org@example.com")
        assertSame(o, r)
    }

    func testWordsOfAnotherCaseAreCompared() {
        var r = Self.full()
        r.status = .other("CONFIRMED")
        r.classification = .other("PUBLIC")
        assertSame(Self.full(), r, nonEmpty: false)
        r.status = .tentative
        assertSame(Self.full(), r)
    }

    func testARangeIsPartOfTheRecurrenceID() {
        var o = Self.full()
        o.recurrenceID = Self.at(11, 9)
        var r = o
        r.recurrenceAppliesToFuture = true
        assertSame(o, r)
        o.recurrenceAppliesToFuture = true
        assertSame(o, r, nonEmpty: false)
    }

    func testAGenericPropertyOfATypedName() {
        var o = Self.full()
        o.properties.insert(Property(name: "ATTENDEE", value: .calendarAddress("mailto:extra@example.com")), at: 0)
        o.properties.append(Property(name: "SUMMARY", value: .text(["second"])))
        var r = Self.full()
        r.properties = o.properties
        assertSame(o, r, nonEmpty: false)
        r.attendees.removeLast()
        r.title = "Other"
        assertSame(o, r)
        r = o
        r.properties.removeFirst()
        assertSame(o, r)
    }

    func testGenericPropertiesAndSubcomponents() {
        var r = Self.full()
        r.properties = [Property(name: "X-B", value: .text(["2"])), Property(name: "X-C", value: .text(["4"]))]
        assertSame(Self.full(), r)
        r = Self.full()
        r.alarms = [
            Alarm(action: .display, trigger: .relative(CalendarDuration(minutes: -30), relativeToEnd: false), description: "Reminder")
        ]
        r.item.components = [Component(name: "VLOCATION", properties: [Property(name: "NAME", value: .text(["Room 1"]))])]
        assertSame(Self.full(), r)
        r = Self.full()
        r.alarms = []
        assertSame(Self.full(), r)
    }

    func testABirthdayIsComparedWhole() {
        var o = Self.full()
        o.birthday = Birthday(month: 3, day: 4, year: 1990)
        var r = o
        r.start = Self.at(4, 8)
        assertSame(o, r)
        assertSame(o, o, nonEmpty: false)
    }

    /// `EmittedFields.eventPropertyNames` is the one list of what `emit` makes from each field: leaving a field out
    /// drops exactly its names, and every property an event's fields make has a place in the list.
    func testTheFieldTableIsWhatEmitWritesFieldByField() {
        var withEnd = Self.full()
        withEnd.recurrenceID = Self.at(11, 9)
        withEnd.recurrenceDates = [CalendarItem.DateList(dates: [Self.at(12, 9)])]
        withEnd.structuredLocation = StructuredLocation(title: "Room 1", latitude: 52.5, longitude: 13.4)
        var withDuration = withEnd
        withDuration.end = nil
        withDuration.duration = CalendarDuration(hours: 1)
        let generic = Set(withEnd.properties.map(\.name))
        var named: Set<String> = []
        for event in [withEnd, withDuration] {
            let whole = mapper.component(from: .event(event)).properties.map(\.name)
            for (field, names) in EmittedFields.eventPropertyNames {
                let without = mapper.component(from: .event(event), leavingOut: field).properties.map(\.name)
                let dropped = Set(whole).subtracting(without)
                XCTAssertTrue(dropped.isSubset(of: names), "\(names): left out \(dropped)")
                XCTAssertEqual(whole.count - without.count, whole.filter { names.contains($0) }.count, "\(names)")
                named.formUnion(dropped)
            }
            let fromFields = Set(whole).subtracting(generic)
            XCTAssertEqual(fromFields.subtracting(named), [], "made by emit from a field the table does not list")
        }
        XCTAssertEqual(named, Set(EmittedFields.eventPropertyNames.flatMap(\.names)), "a table name emit never made")
        let fields = EmittedFields.eventPropertyNames.map(\.field.rawValue)
        XCTAssertEqual(Set(fields).count, fields.count, "a field listed twice")
    }
}
