import CalendarModel
import ICalendarData

/// Applies `--birthdays` and `--leap-day` to what `CalendarKindDetection` found: leaves
/// birthday calendars out, keeps them, or turns them into plain yearly all-day events in a
/// writable calendar; and gives February 29 birthdays the chosen rule for common years.
public struct BirthdayStage: ConversionStage {
    /// What to do with birthday calendars.
    public let handling: BirthdayHandling
    /// The rule for February 29 birthdays; nil keeps the source's rule (and, when
    /// materializing, means `feb28`, the choice birthday calendars make).
    public let leapDay: LeapDayRule?
    /// `--birthday-calendar`: the calendar (RFC 7529 RSCALE name) materialized birthdays keep.
    public var calendarScale: String?
    private var skipping = false
    private var materializing = false
    /// Contacts already written in the current calendar: Google exports one event per year
    /// and contact, which materializing folds into one yearly event.
    private var written: Set<String> = []

    /// The start year of a materialized birthday whose year is unknown: 1970, or 1972 for
    /// February 29 so that the date exists (Nextcloud's convention, and after the epoch, which
    /// some targets need).
    public static func placeholderYear(for birthday: Birthday) -> Int { birthday.isLeapDay ? 1972 : 1970 }

    /// A stage for `--birthdays` and `--leap-day`.
    public init(handling: BirthdayHandling, leapDay: LeapDayRule?) {
        self.handling = handling
        self.leapDay = leapDay
    }

    /// Drops, keeps or materializes each birthday calendar and its events.
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        switch element {
        case .beginCalendar(var calendar):
            written = []
            skipping = calendar.kind == .birthday && handling == .skip
            materializing = handling == .materialize
            if skipping { return }
            if materializing && calendar.kind == .birthday {
                calendar = BirthdayMarks.removingMarks(from: calendar)
                calendar.kind = .local
                calendar.allowsContentModifications = true
                if calendar.source?.kind == .birthdays { calendar.source = nil }
            }
            try emit(.beginCalendar(calendar))
        case .entry(.event(let event), let line) where event.birthday != nil && !skipping:
            if materializing {
                guard let plain = materialize(event) else { return }
                try emit(.entry(.event(plain), line: line))
            } else {
                try emit(.entry(.event(applyLeapDay(event)), line: line))
            }
        case .entry:
            if !skipping { try emit(element) }
        case .endCalendar:
            if skipping {
                skipping = false
                return
            }
            try emit(element)
        }
    }

    /// A Feb 29 birthday's single yearly rule replaced by the chosen one; others unchanged.
    func applyLeapDay(_ event: Event) -> Event {
        guard let leapDay, let birthday = event.birthday, birthday.isLeapDay, event.item.recurrenceRules.count == 1,
            let rule = event.item.recurrenceRules.first, rule.frequency == .yearly, rule.interval == 1, rule.end == nil
        else { return event }
        var event = event
        event.item.recurrenceRules = [leapDay.rule]
        return event
    }

    /// The plain yearly all-day event for a birthday; nil when its contact was written already.
    mutating func materialize(_ event: Event) -> Event? {
        guard let birthday = event.birthday else { return event }
        let key = birthday.contactIdentifier.map { "contact:\(birthday.occasion.rawValue):\($0)" } ?? event.item.uid.map { "uid:\($0)" }
        if let key, !written.insert(key).inserted { return nil }
        var item = BirthdayMarks.removingMarks(from: event.item)
        let start = CalendarDateTime.day(birthday.year ?? Self.placeholderYear(for: birthday), birthday.month, birthday.day)
        // A vCard `--MMDD` start the reader kept as an unknown value gives way to the date, and
        // recurrence the reader could not type (Google's `RDATE:20131210Z`) to the yearly rule.
        let replaced: Set<String> = ["DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"]
        item.properties.removeAll { replaced.contains($0.name) }
        item.start = start
        item.propertyParameters["DTSTART"] = nil
        item.propertyParameters["DTEND"] = nil
        item.propertyParameters["RRULE"] = nil
        item.recurrenceID = nil
        item.recurrenceAppliesToFuture = false
        item.propertyParameters["RECURRENCE-ID"] = nil
        item.recurrenceDates = []
        item.exceptionDates = []
        item.recurrenceRules = [
            birthday.isLeapDay ? (leapDay ?? .feb28).rule : RecurrenceRule(frequency: .yearly)
        ]
        if let calendarScale, let rule = Self.scaledRule(for: birthday, calendar: calendarScale) { item.recurrenceRules = [rule] }
        var plain = Event(item: item)
        plain.end = CalendarDateTime(date: start.date.adding(days: 1))
        plain.transparency = event.transparency
        plain.busyStatus = event.busyStatus
        return plain
    }
}
