import CalendarModel
import ICalendarData

/// Tells birthday and subscription calendars from ordinary ones in any input, as EventKit
/// would list them, and marks birthday events with what they recall.
///
/// A calendar is a subscription when it names the URL it is fetched from (RFC 7986 SOURCE,
/// CalendarServer's `source` in CalDAV: the `subscriptionURL` every reader fills). A refresh
/// interval alone (REFRESH-INTERVAL, X-PUBLISHED-TTL) does not make one: it is a publisher's
/// hint that Nextcloud, for one, adds to every calendar it exports. A calendar is a birthday calendar when its producer says so (Nextcloud's
/// PRODID) or when its first events all carry a vendor's birthday marks (see
/// `BirthdayMarks`); to see them the stage holds back the calendar's start and at most
/// `lookAhead` events, so memory stays bounded however large the calendar. Local and CalDAV
/// calendars may turn out to be birthday calendars; another kind a reader stated (native JSON,
/// CalDAV's subscribed resource type) is kept; birthday and subscription calendars are always
/// read-only, as in EventKit.
public struct CalendarKindDetection: ConversionStage {
    /// How many events decide whether a calendar is a birthday calendar.
    public let lookAhead: Int
    private var pending: Calendar?
    private var held: [CalendarStreamElement] = []
    private var heldEvents = 0

    /// A detector that decides on birthday calendars after at most `lookAhead` events.
    public init(lookAhead: Int = 16) {
        self.lookAhead = max(1, lookAhead)
    }

    /// Types calendars as they start (or after the look-ahead) and marks birthday events.
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        switch element {
        case .beginCalendar(var calendar):
            try flush(asBirthdays: false, emit)
            if calendar.kind == .local, let url = calendar.subscriptionURL, !url.isEmpty {
                calendar.kind = .subscription
                calendar.allowsContentModifications = false
            } else if calendar.kind == .local, let producer = calendar.productID, BirthdayMarks.birthdayProducers.contains(producer) {
                Self.makeBirthdays(&calendar)
            } else if calendar.kind == .local || calendar.kind == .calDAV {
                // A CalDAV collection of contacts' birthdays (Nextcloud's contact_birthdays) is
                // the server's birthday calendar: typed by its events like a file's.
                pending = calendar
                return
            } else if calendar.kind == .subscription || calendar.kind == .birthday {
                // EventKit never lets either be modified, whatever the source said.
                calendar.allowsContentModifications = false
            }
            try emit(.beginCalendar(calendar))
        case .entry(var entry, let line):
            var isBirthday = false
            if case .event(let event) = entry {
                if event.birthday != nil {
                    isBirthday = true
                } else if let birthday = BirthdayMarks.birthday(of: event) {
                    // Rebuilt only when marked: most events are not birthdays, and rebuilding
                    // the entry copies every field.
                    var marked = event
                    marked.birthday = birthday
                    entry = .event(marked)
                    isBirthday = true
                }
            }
            guard pending != nil else { return try emit(.entry(entry, line: line)) }
            held.append(.entry(entry, line: line))
            guard case .event = entry else { return }
            heldEvents += 1
            if !isBirthday {
                try flush(asBirthdays: false, emit)
            } else if heldEvents >= lookAhead {
                try flush(asBirthdays: true, emit)
            }
        case .endCalendar:
            try flush(asBirthdays: heldEvents > 0, emit)
            try emit(element)
        }
    }

    /// Emits a calendar still held when the input ends without closing it.
    public mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws {
        try flush(asBirthdays: heldEvents > 0, emit)
    }

    /// Emits the held calendar start, as a birthday calendar or as it was, and what followed it.
    private mutating func flush(asBirthdays: Bool, _ emit: (CalendarStreamElement) throws -> Void) throws {
        guard var calendar = pending else { return }
        if asBirthdays { Self.makeBirthdays(&calendar) }
        let elements = held
        pending = nil
        held = []
        heldEvents = 0
        try emit(.beginCalendar(calendar))
        for e in elements { try emit(e) }
    }

    /// EventKit's birthday calendar is read-only: its events come from the contacts.
    static func makeBirthdays(_ calendar: inout Calendar) {
        calendar.kind = .birthday
        calendar.allowsContentModifications = false
    }
}
