import CalendarModel

/// Streams that set every field of the model, including the pass-through parts (generic
/// properties, components, parameters, `.other` words), so a round trip that drops or
/// changes anything fails.
enum ModelSamples {
    static let berlin = TimeReference.zone("Europe/Berlin")

    static func dt(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0, _ ref: TimeReference = .utc) -> CalendarDateTime {
        CalendarDateTime(date: CalendarDate(year: y, month: m, day: d), time: TimeOfDay(hour: h, minute: mi, second: s), reference: ref)
    }

    static var everyPropertyValue: [Property] {
        [
            Property(
                name: "X-TEXT", parameters: [Parameter("X-P", "a"), Parameter(name: "MEMBER", values: ["m1", "m2,\"q\""])],
                value: .text(["one", "two;\n\"three\"\\"])),
            Property(
                name: "X-DATES",
                value: .dateTimes([
                    .day(2024, 2, 29), dt(2024, 5, 1, 9, 0, 0, berlin), dt(2024, 5, 1, 7, 0), dt(2024, 5, 1, 9, 0, 0, .floating),
                ])),
            Property(
                name: "X-PERIODS",
                value: .periods([
                    CalendarPeriod(start: dt(2024, 5, 1, 7, 0), extent: .end(dt(2024, 5, 1, 8, 0))),
                    CalendarPeriod(start: dt(2024, 5, 1, 7, 0), extent: .duration(CalendarDuration(weeks: 1, days: 2, hours: 25))),
                ])),
            Property(name: "X-DUR", value: .duration(CalendarDuration(isNegative: true))),
            Property(name: "TZOFFSETFROM", value: .utcOffset(-(3 * 3600 + 30 * 60 + 15))),
            Property(name: "X-RULE", value: .recurrence(RecurrenceRule(frequency: .secondly, bySecond: [0, 30]))),
            Property(name: "X-INT", value: .integer([0, -7, Int(Int32.max)])),
            Property(name: "X-FLOAT", value: .float([0.1, -2.5e-8, 1e300, 3])),
            Property(name: "X-BOOL", value: .boolean(false)),
            Property(name: "GEO", value: .geo(latitude: 52.520008, longitude: -13.404954)),
            Property(name: "ATTACH", parameters: [Parameter("FMTTYPE", "image/png")], value: .binary([0, 1, 2, 254, 255])),
            Property(name: "X-URI", value: .uri("https://example.com/a?b=c&d")),
            Property(name: "X-ADDR", value: .calendarAddress("mailto:a@example.com")),
            Property(name: "X-TIMES", value: .times([TimeOfDay(hour: 23, minute: 59, second: 60)], utc: true)),
            Property(
                name: "X-LOCALTIMES",
                value: .times([TimeOfDay(hour: 8, minute: 0, second: 0), TimeOfDay(hour: 9, minute: 0, second: 0)], utc: false)),
            Property(name: "X-UNTYPED", value: .unknown(type: nil, literal: "raw;text\\,kept")),
            Property(name: "X-TYPED", value: .unknown(type: "X-MYTYPE", literal: "")),
        ]
    }

    static var fullRule: RecurrenceRule {
        RecurrenceRule(
            frequency: .yearly, interval: 2, end: .until(.day(2030, 12, 31)), bySecond: [1], byMinute: [2, 3], byHour: [4],
            daysOfTheWeek: [.init(.monday), .init(.friday, weekNumber: -1), .init(.sunday, weekNumber: 53)],
            daysOfTheMonth: [-31, 1], daysOfTheYear: [-366, 100], weeksOfTheYear: [-53, 20], months: [.init(5, isLeap: true), .init(6)],
            setPositions: [-1], firstDayOfTheWeek: .sunday, scale: "HEBREW", skip: "FORWARD", intervalWasExplicit: true,
            extensionParts: [(name: "X-NAME", value: "v1"), (name: "X-OTHER", value: "a,b")])
    }

    static var fullParticipant: Participant {
        Participant(
            name: "Zoë \"Z\" Example", url: "mailto:zoe@example.com", role: .chair, status: .inProcess, type: .room,
            expectsReply: true, delegatedTo: ["mailto:a@example.com", "mailto:b@example.com"], delegatedFrom: ["mailto:c@example.com"],
            sentBy: "mailto:boss@example.com", members: ["mailto:list@example.com"], directory: "ldap://example.com/cn=Z",
            language: "de", email: "zoe@work.example.com",
            extraParameters: [Parameter("X-NUM-GUESTS", "2"), Parameter("SCHEDULE-STATUS", "2.0")])
    }

    static var collidingWords: Participant {
        // `.other` words that equal a known word must not come back as the known value.
        Participant(url: "urn:uuid:1", role: .other("required"), status: .other("X-WAITING"), type: .other("person"))
    }

    static var fullLocation: StructuredLocation {
        StructuredLocation(
            title: "Alexanderplatz 1\nBerlin", latitude: 52.521918, longitude: 13.413215, radius: 70.5,
            extraParameters: [Parameter("X-APPLE-MAPKIT-HANDLE", "CAES…"), Parameter("X-TITLE", "Alex")])
    }

    static var fullAlarm: Alarm {
        Alarm(
            action: .email, trigger: .relative(CalendarDuration(isNegative: true, weeks: 1), relativeToEnd: true),
            description: "Body", summary: "Subject", repeatInterval: CalendarDuration(minutes: 5), repeatCount: 3,
            attendees: [fullParticipant], proximity: .leave, structuredLocation: fullLocation, uid: "alarm-1",
            properties: [Property(name: "ACKNOWLEDGED", value: .dateTimes([dt(2024, 1, 1, 0, 0)]))],
            components: [Component(name: "X-SUB", properties: [Property(name: "X-A", value: .text(["b"]))])],
            propertyParameters: ["TRIGGER": [Parameter("X-T", "1")]])
    }

    static var fullItem: CalendarItem {
        var i = CalendarItem(uid: "uid-1@example.com", title: "Planning\t\"Q3\" ✓", start: dt(2024, 5, 1, 9, 30, 15, berlin))
        i.location = "Room 1"
        i.structuredLocation = fullLocation
        i.geo = GeoCoordinate(latitude: -33.8688, longitude: 151.2093)
        i.notes = "Line 1\nLine 2\r\n\u{1}"
        i.url = "https://example.com/e/1"
        i.status = .other("confirmed")
        i.classification = .other("X-SECRET")
        i.priority = 5
        i.categories = [["A", "B,C"], ["D"]]
        i.organizer = Participant(name: "Org", url: "mailto:org@example.com")
        i.attendees = [fullParticipant, collidingWords, Participant(url: "mailto:plain@example.com")]
        i.alarms = [
            fullAlarm, Alarm(action: .display, trigger: .absolute(dt(2024, 4, 30, 8, 0))), Alarm(action: .other("X-SPEAK")),
            Alarm(action: .audio, trigger: .relative(CalendarDuration(minutes: 15), relativeToEnd: false)),
        ]
        i.recurrenceRules = [fullRule, RecurrenceRule(frequency: .daily, end: .count(10))]
        i.recurrenceDates = [
            CalendarItem.DateList(dates: [dt(2024, 6, 1, 9, 30, 0, berlin)], extraParameters: [Parameter("TZID", "Europe/Berlin")]),
            CalendarItem.DateList(periods: [CalendarPeriod(start: dt(2024, 7, 1, 7, 0), extent: .duration(CalendarDuration(hours: 1)))]),
        ]
        i.exceptionDates = [CalendarItem.DateList(dates: [dt(2024, 5, 8, 9, 30, 0, berlin), dt(2024, 5, 15, 9, 30, 0, berlin)])]
        i.recurrenceID = dt(2024, 5, 1, 9, 30, 0, berlin)
        i.recurrenceAppliesToFuture = true
        i.sequence = 2
        i.created = dt(2024, 1, 1, 0, 0)
        i.lastModified = dt(2024, 1, 2, 0, 0)
        i.timestamp = dt(2024, 1, 3, 0, 0)
        i.properties = everyPropertyValue
        i.components = [Component(name: "X-NESTED", components: [Component(name: "X-DEEPER")])]
        i.propertyParameters = ["DTSTART": [Parameter("X-A", "1")], "SUMMARY": [Parameter("LANGUAGE", "en")]]
        return i
    }

    static var fullCalendar: CalendarModel.Calendar {
        var c = CalendarModel.Calendar(title: "Work ✓", kind: .subscription, allowsContentModifications: false)
        c.description = "Team calendar"
        c.color = "#FF2968FF"
        c.source = CalendarSource(title: "iCloud", kind: .calDAV)
        c.subscriptionURL = "webcal://example.com/work.ics"
        c.refreshInterval = CalendarDuration(hours: 4)
        c.defaultTimeZone = "Europe/Berlin"
        c.productID = "-//Example//EN"
        c.version = "2.0"
        c.scale = "GREGORIAN"
        c.method = "PUBLISH"
        c.properties = [Property(name: "X-WR-RELCALID", parameters: [Parameter("X-Q", "1")], value: .unknown(type: nil, literal: "abc"))]
        c.propertyParameters = ["COLOR": [Parameter("X-APPLE", "yes")]]
        c.spellings = ["title": "NAME", "color": "COLOR"]
        return c
    }

    static var vtimezone: Component {
        Component(
            name: "VTIMEZONE", properties: [Property(name: "TZID", value: .text(["Europe/Berlin"]))],
            components: [
                Component(
                    name: "STANDARD",
                    properties: [
                        Property(name: "DTSTART", value: .dateTimes([dt(1970, 10, 25, 3, 0, 0, .floating)])),
                        Property(name: "TZOFFSETFROM", value: .utcOffset(7200)), Property(name: "TZOFFSETTO", value: .utcOffset(3600)),
                        Property(
                            name: "RRULE",
                            value: .recurrence(
                                RecurrenceRule(frequency: .yearly, daysOfTheWeek: [.init(.sunday, weekNumber: -1)], months: [.init(10)]))),
                    ])
            ])
    }

    /// Two calendars with every kind of entry; the second calendar is bare and has trailing properties.
    static var fullStream: [CalendarStreamElement] {
        var event = Event(item: fullItem)
        event.end = dt(2024, 5, 1, 10, 0, 0, berlin)
        event.duration = CalendarDuration(hours: 1)
        event.transparency = "TRANSPARENT"
        event.busyStatus = .unavailable
        var allDay = Event(item: CalendarItem(uid: "allday", title: "Holiday", start: .day(2024, 12, 25)))
        allDay.end = .day(2024, 12, 26)
        var reminder = Reminder(item: fullItem)
        reminder.item.status = .needsAction
        reminder.item.classification = .private
        reminder.due = .day(2024, 6, 1)
        reminder.duration = CalendarDuration(days: 1)
        reminder.completionDate = dt(2024, 5, 30, 12, 0)
        reminder.percentComplete = 100
        let journal = Component(name: "VJOURNAL", properties: [Property(name: "SUMMARY", value: .text(["Notes"]))])
        return [
            .beginCalendar(fullCalendar),
            .entry(.timeZone(vtimezone), line: 0),
            .entry(.event(event), line: 0),
            .entry(.event(allDay), line: 0),
            .entry(.reminder(reminder), line: 0),
            .entry(.reminder(Reminder()), line: 0),
            .entry(.event(Event()), line: 0),
            .entry(.other(journal), line: 0),
            .endCalendar(trailingProperties: []),
            .beginCalendar(CalendarModel.Calendar()),
            .entry(.event(Event(item: CalendarItem(uid: "second"))), line: 0),
            .endCalendar(trailingProperties: [Property(name: "X-AFTER", value: .text(["tail"]))]),
        ]
    }
}

extension CalendarStreamElement {
    /// The element with its source line cleared: lines say where an element was read, which
    /// is not part of the model a round trip must keep.
    var withoutLine: CalendarStreamElement {
        if case .entry(let e, _) = self { return .entry(e, line: 0) }
        return self
    }
}
