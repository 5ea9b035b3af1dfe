/// What a conversion does with birthday calendars (`--birthdays`).
public enum BirthdayHandling: String, CaseIterable, Sendable {
    /// Write them as they are: read-only birthday calendars, vendor marks kept.
    case keep
    /// Leave them out.
    case skip
    /// Turn them into writable calendars of plain yearly all-day events, for targets that
    /// have no birthday calendar.
    case materialize
}
