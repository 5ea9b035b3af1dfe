import CalendarModel

/// The native JSON format's words: EventKit's own case names, in camelCase
/// (`EKParticipantRole.nonParticipant` is written `nonParticipant`).
public enum NativeJSONVocabulary {
    /// The participant vocabulary both `json` and `jsonl` register.
    public static func participants(formatID: String) -> ParticipantVocabulary {
        ParticipantVocabulary(
            formatID: formatID, roleField: "participantRole", statusField: "participantStatus",
            typeField: "participantType",
            roles: [
                (.unknown, "unknown"), (.required, "required"), (.optional, "optional"), (.chair, "chair"),
                (.nonParticipant, "nonParticipant"),
            ],
            statuses: [
                (.unknown, "unknown"), (.pending, "pending"), (.accepted, "accepted"), (.declined, "declined"),
                (.tentative, "tentative"), (.delegated, "delegated"), (.completed, "completed"),
                (.inProcess, "inProcess"),
            ],
            types: [
                (.unknown, "unknown"), (.person, "person"), (.room, "room"), (.resource, "resource"),
                (.group, "group"),
            ],
            caseInsensitive: false)
    }

    /// Item status words (EventKit's `EKEventStatus` spelling where it has one).
    static let statuses: [(CalendarItem.Status, String)] = [
        (.tentative, "tentative"), (.confirmed, "confirmed"), (.cancelled, "canceled"), (.needsAction, "needsAction"),
        (.completed, "completed"), (.inProcess, "inProcess"), (.draft, "draft"), (.final, "final"),
    ]

    /// Privacy (CLASS) words.
    static let classifications: [(CalendarItem.Classification, String)] = [
        (.public, "public"), (.private, "private"), (.confidential, "confidential"),
    ]

    /// Alarm types (EventKit's `EKAlarmType`, with RFC 5545's procedure).
    static let alarmActions: [(Alarm.Action, String)] = [
        (.display, "display"), (.audio, "audio"), (.email, "email"), (.procedure, "procedure"),
    ]

    /// `EKEventAvailability` words.
    static let availabilities: [(Event.Availability, String)] = [
        (.busy, "busy"), (.free, "free"), (.tentative, "tentative"), (.unavailable, "unavailable"),
    ]

    /// `EKAlarmProximity` words.
    static let proximities: [(Alarm.Proximity, String)] = [(.enter, "enter"), (.leave, "leave")]

    /// `EKRecurrenceFrequency` words, with RFC 5545's shorter frequencies.
    static let frequencies: [(RecurrenceRule.Frequency, String)] = [
        (.secondly, "secondly"), (.minutely, "minutely"), (.hourly, "hourly"), (.daily, "daily"),
        (.weekly, "weekly"), (.monthly, "monthly"), (.yearly, "yearly"),
    ]

    /// Weekday names.
    static let weekdays: [(RecurrenceRule.Weekday, String)] = [
        (.sunday, "sunday"), (.monday, "monday"), (.tuesday, "tuesday"), (.wednesday, "wednesday"),
        (.thursday, "thursday"), (.friday, "friday"), (.saturday, "saturday"),
    ]

    /// `EKCalendarType` words.
    static let calendarKinds: [(CalendarModel.Calendar.Kind, String)] = [
        (.local, "local"), (.calDAV, "calDAV"), (.exchange, "exchange"), (.subscription, "subscription"),
        (.birthday, "birthday"),
    ]

    /// `EKSourceType` words.
    static let sourceKinds: [(CalendarSource.Kind, String)] = [
        (.local, "local"), (.exchange, "exchange"), (.calDAV, "calDAV"), (.mobileMe, "mobileMe"),
        (.subscribed, "subscribed"), (.birthdays, "birthdays"),
    ]

    /// The word for a value in a closed table.
    static func word<T: Equatable>(_ value: T, in table: [(T, String)]) -> String {
        table.first { $0.0 == value }!.1
    }

    /// The value a word names in a closed table.
    static func value<T>(_ word: String, in table: [(T, String)]) -> T? {
        table.first { $0.1 == word }?.0
    }
}
