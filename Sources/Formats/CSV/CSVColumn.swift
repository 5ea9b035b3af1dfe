/// A column of the Outlook and Google layouts, independent of the header's language.
enum CSVColumn: String, CaseIterable, Sendable {
    case subject, startDate, startTime, endDate, endTime, allDay
    case reminderOn, reminderDate, reminderTime
    case organizer, requiredAttendees, optionalAttendees, resources
    case billing, categories, description, location, mileage, priority, privateFlag, sensitivity, showTimeAs

    /// Outlook's export order (the English export; other languages order some columns differently,
    /// which reading does not care about).
    static let outlookOrder: [CSVColumn] = [
        .subject, .startDate, .startTime, .endDate, .endTime, .allDay, .reminderOn, .reminderDate, .reminderTime,
        .organizer, .requiredAttendees, .optionalAttendees, .resources, .billing, .categories, .description,
        .location, .mileage, .priority, .privateFlag, .sensitivity, .showTimeAs,
    ]

    /// The columns of Google Calendar's import format, in its documented order.
    static let googleOrder: [CSVColumn] = [
        .subject, .startDate, .startTime, .endDate, .endTime, .allDay, .description, .location, .privateFlag,
    ]

    /// Columns only Outlook has: one of them in a header settles the dialect.
    static let outlookOnly: Set<CSVColumn> = Set(outlookOrder).subtracting(googleOrder)
}
