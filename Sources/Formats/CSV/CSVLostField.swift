import CalendarModel

/// What each CSV layout has no column for: one row per model field (or part of one), saying
/// when an event written in a layout loses it. The writer reports every field an event loses,
/// counted over the output (`--report`'s losses); giving a layout a column is changing its row.
///
/// The flat layout holds nearly everything; Outlook's columns hold the reminder, attendees by
/// role, categories, a three-step priority and the sensitivity; Google's hold the times, the
/// subject, the description, the location and a private flag.
struct CSVLostField {
    /// The model's name for the field, as reports list it.
    let field: String
    /// What the layout cannot hold, completing "<layout> …".
    let reason: String
    /// Whether an event written in the layout loses the field.
    let isLost: (Event, CSVDialect) -> Bool

    /// Every field some layout cannot hold, in the order reports list them. Recurrence rules and
    /// time zones are reported by the writer itself, which knows what `--expand` and `--csv-tz`
    /// did to them.
    static let all: [CSVLostField] = [
        CSVLostField(field: "uid", reason: "has no column for the UID; reading it back makes one from the row") { e, d in
            d != .flat && e.uid != nil
        },
        CSVLostField(field: "recurrenceDates", reason: "has no column for RDATE") { e, d in d != .flat && !e.recurrenceDates.isEmpty },
        CSVLostField(field: "exceptionDates", reason: "has no column for EXDATE") { e, d in d != .flat && !e.exceptionDates.isEmpty },
        CSVLostField(field: "recurrenceID", reason: "has no column for the RECURRENCE-ID of a moved occurrence") { e, d in
            d != .flat && e.recurrenceID != nil
        },
        CSVLostField(field: "recurrenceRange", reason: "has no column for RANGE=THISANDFUTURE") { e, d in
            d != .flat && e.recurrenceAppliesToFuture
        },
        CSVLostField(field: "structuredLocation", reason: "has no column for a structured location (coordinates, radius)") { e, _ in
            e.structuredLocation != nil
        },
        CSVLostField(field: "geo", reason: "has no column for GEO") { e, d in d != .flat && e.geo != nil },
        CSVLostField(field: "url", reason: "has no column for the URL") { e, d in d != .flat && e.url != nil },
        CSVLostField(field: "status", reason: "has no column for the status") { e, d in d != .flat && e.status != nil },
        CSVLostField(field: "classification", reason: "cannot say this classification (Google: private or not; Outlook: its three sensitivities)") {
            e, d in
            switch (d, e.classification) {
            case (.flat, _), (_, nil), (_, .public?), (_, .private?): false
            case (.outlook, .confidential?): false
            default: true
            }
        },
        CSVLostField(field: "priority", reason: "cannot say this priority (Outlook: high 1, normal, low 9; Google: none)") { e, d in
            guard d != .flat, let p = e.priority, p != 0 else { return false }
            return d == .google || (p != 1 && p != 9)
        },
        CSVLostField(field: "categories", reason: "has no column for categories") { e, d in d == .google && !e.categories.isEmpty },
        CSVLostField(field: "availability", reason: "has no column for free/busy (Show Time As)") { e, d in
            d == .google && e.availability != .busy
        },
        CSVLostField(field: "organizer", reason: "cannot hold the organizer (Google: no column; Outlook: name and address only)") { e, d in
            guard d != .flat, let organizer = e.organizer else { return false }
            return d == .google || hasDetails(organizer) || organizer.role != nil || organizer.status != nil
        },
        CSVLostField(field: "attendees", reason: "has no column for attendees") { e, d in d == .google && !e.attendees.isEmpty },
        CSVLostField(field: "attendees.role", reason: "has attendee columns for required, optional and resources only") { e, d in
            d == .outlook && e.attendees.contains { ![nil, .required, .optional, .unknown].contains($0.role) }
        },
        CSVLostField(field: "attendees.type", reason: "has attendee columns for people and resources only") { e, d in
            d == .outlook && e.attendees.contains { ![nil, .person, .unknown, .resource].contains($0.type) }
        },
        CSVLostField(field: "attendees.status", reason: "has no column for attendees' replies (PARTSTAT)") { e, d in
            d == .outlook && e.attendees.contains { $0.status != nil }
        },
        CSVLostField(field: "attendees.rsvp", reason: "has no column for RSVP") { e, d in
            d == .outlook && e.attendees.contains { $0.expectsReply != nil }
        },
        CSVLostField(field: "attendees.details", reason: "keeps attendees' names and addresses only (no delegation, SENT-BY, members, directory, language)") {
            e, d in d == .outlook && e.attendees.contains(where: hasDetails)
        },
        CSVLostField(field: "alarms", reason: "cannot hold these alarms (Google: none; Outlook: one display reminder; flat: no locations or extra properties)") {
            e, d in
            switch d {
            case .google: !e.alarms.isEmpty
            case .outlook: e.alarms.count > 1 || e.alarms.first.map { !isPlainReminder($0) } ?? false
            case .flat:
                e.alarms.contains {
                    $0.proximity != nil || $0.structuredLocation != nil || !$0.properties.isEmpty || !$0.components.isEmpty
                        || !$0.propertyParameters.isEmpty
                }
            }
        },
        CSVLostField(field: "sequence", reason: "has no column for SEQUENCE") { e, d in d != .flat && e.sequence != nil },
        CSVLostField(field: "created", reason: "has no column for CREATED") { e, d in d != .flat && e.created != nil },
        CSVLostField(field: "lastModified", reason: "has no column for LAST-MODIFIED") { e, d in d != .flat && e.lastModified != nil },
        CSVLostField(field: "timestamp", reason: "has no column for DTSTAMP") { e, d in d != .flat && e.timestamp != nil },
        CSVLostField(field: "birthday", reason: "cannot mark a birthday (its contact and year)") { e, _ in e.birthday != nil },
        CSVLostField(field: "properties", reason: "has no column for other properties (X- and IANA properties)") { e, d in
            d == .outlook ? e.item.properties.contains { $0.name != CSVVocabulary.billingProperty && $0.name != CSVVocabulary.mileageProperty } : !e.item.properties.isEmpty
        },
        CSVLostField(field: "components", reason: "has no column for components inside an event (other than alarms)") { e, _ in
            !e.item.components.isEmpty
        },
        CSVLostField(field: "propertyParameters", reason: "has no column for property parameters (LANGUAGE, ALTREP, X- parameters)") { e, _ in
            !e.item.propertyParameters.isEmpty
        },
    ]

    /// Whether a participant has more than a name, an address, a role and a type.
    private static func hasDetails(_ p: Participant) -> Bool {
        !p.delegatedTo.isEmpty || !p.delegatedFrom.isEmpty || p.sentBy != nil || !p.members.isEmpty || p.directory != nil
            || p.language != nil || !p.extraParameters.isEmpty
    }

    /// What Outlook's reminder columns hold: a display alarm at a time, nothing more.
    private static func isPlainReminder(_ a: Alarm) -> Bool {
        a.action == .display && TableRowMapper.reminderOffsetFits(a) && a.summary == nil && a.attendees.isEmpty && a.repeatCount == nil
            && a.proximity == nil && a.structuredLocation == nil && a.properties.isEmpty && a.components.isEmpty
    }
}
