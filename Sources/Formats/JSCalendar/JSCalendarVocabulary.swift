import CalendarModel

/// JSCalendar's words (RFC 8984): participant roles, participation status and kind, and the
/// enumerations of events and tasks.
public enum JSCalendarVocabulary {
    /// The participant vocabulary registered for `jscalendar` (RFC 8984 §4.4.6). A role of
    /// "required" is the plain `attendee` role; `owner` is the organizer and has no EventKit role.
    public static let participants = ParticipantVocabulary(
        formatID: "jscalendar", roleField: "roles", statusField: "participationStatus", typeField: "kind",
        roles: [(.required, "attendee"), (.optional, "optional"), (.chair, "chair"), (.nonParticipant, "informational")],
        statuses: [
            (.pending, "needs-action"), (.accepted, "accepted"), (.declined, "declined"), (.tentative, "tentative"),
            (.delegated, "delegated"),
        ],
        types: [(.person, "individual"), (.group, "group"), (.room, "location"), (.resource, "resource")],
        caseInsensitive: false)

    /// Event `status` (RFC 8984 §5.1.3).
    static let eventStatuses: [(CalendarItem.Status, String)] = [
        (.confirmed, "confirmed"), (.cancelled, "cancelled"), (.tentative, "tentative"),
    ]

    /// Task `progress` (RFC 8984 §5.2.5).
    static let taskProgress: [(CalendarItem.Status, String)] = [
        (.needsAction, "needs-action"), (.inProcess, "in-process"), (.completed, "completed"), (.cancelled, "cancelled"),
    ]

    /// `privacy` (RFC 8984 §4.4.3); iCalendar's CONFIDENTIAL is JSCalendar's secret.
    static let privacy: [(CalendarItem.Classification, String)] = [
        (.public, "public"), (.private, "private"), (.confidential, "secret"),
    ]

    static func word<T: Equatable>(_ value: T, in table: [(T, String)]) -> String? {
        table.first { $0.0 == value }?.1
    }

    static func value<T>(_ word: String, in table: [(T, String)]) -> T? {
        table.first { $0.1 == word }?.0
    }
}
