/// A column of the flat `csv` layout; the raw value is the header name (EventKit's field names).
enum FlatColumn: String, CaseIterable, Sendable {
    case calendar, uid, title, start, end, timeZone, endTimeZone, duration, allDay
    case location, notes, url, status, classification, priority, categories, availability, transparency
    case organizer, attendees, alarms, recurrenceRules, recurrenceDates, exceptionDates
    case recurrenceID, recurrenceRange, sequence, created, lastModified, timestamp, geo
}
