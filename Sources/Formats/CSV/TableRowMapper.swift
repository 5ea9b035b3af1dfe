import CalendarModel

/// Maps rows of the Outlook and Google layouts to events and back. The two share their columns;
/// Google has fewer and reads an all-day end date as the last day (inclusive), where Outlook
/// writes the day after (exclusive, like iCalendar's DTEND).
struct TableRowMapper {
    let dialect: CSVDialect
    let language: CSVLanguage
    let codec: CSVDateCodec
    /// The zone naive times are read in (`--csv-tz`); nil keeps them floating.
    let zone: String?
    let vocabulary: ParticipantVocabulary
    /// The columns written, in header order (the Outlook language's export order, or Google's).
    let writtenColumns: [CSVColumn]
    /// The English names of the attendee columns, as the participant vocabulary spells them.
    private let requiredWord: String, optionalWord: String, resourcesWord: String

    init(dialect: CSVDialect, language: CSVLanguage, codec: CSVDateCodec, zone: String?, vocabulary: ParticipantVocabulary) {
        self.dialect = dialect
        self.language = language
        self.codec = codec
        self.zone = zone
        self.vocabulary = vocabulary
        writtenColumns = dialect == .google ? CSVVocabulary.googleHeaders.map(\.0) : CSVVocabulary.outlookHeaders[language]!.map(\.0)
        let english = CSVVocabulary.outlookHeaders[.english]!
        func englishName(_ column: CSVColumn) -> String { english.first { $0.0 == column }!.1[0] }
        requiredWord = englishName(.requiredAttendees)
        optionalWord = englishName(.optionalAttendees)
        resourcesWord = englishName(.resources)
    }

    /// The English column name, as the participant vocabulary spells it (the attendee columns'
    /// looked up once: they are asked for on every row).
    private func word(_ column: CSVColumn) -> String {
        switch column {
        case .requiredAttendees: requiredWord
        case .optionalAttendees: optionalWord
        case .resources: resourcesWord
        default: CSVVocabulary.outlookHeaders[.english]!.first { $0.0 == column }!.1[0]
        }
    }

    // MARK: Reading

    /// Builds an event from a row. `cell` gives a column's trimmed text (nil when absent or
    /// empty) and its index; `warn` reports a value that was left out.
    func event(cell: (CSVColumn) -> (text: String, index: Int)?, warn: (Int?, String) -> Void) throws -> Event {
        func fail(_ column: CSVColumn, _ message: String) -> CSVCellError {
            CSVCellError(index: cell(column)?.index, message: message)
        }
        func date(_ column: CSVColumn) throws -> CalendarDate? {
            guard let c = cell(column) else { return nil }
            guard let d = codec.date(c.text) else {
                throw CSVCellError(index: c.index, message: "'\(c.text)' is not a date (\(codec.datePatternsDescription), locale \(codec.locale); set --locale or --date-format)")
            }
            return d
        }
        func time(_ column: CSVColumn) throws -> TimeOfDay? {
            guard let c = cell(column) else { return nil }
            guard let t = codec.time(c.text) else {
                throw CSVCellError(index: c.index, message: "'\(c.text)' is not a time (\(codec.timePatternsDescription), locale \(codec.locale); set --locale or --time-format)")
            }
            return t
        }
        func flag(_ column: CSVColumn, required: Bool) throws -> Bool? {
            guard let c = cell(column) else { return nil }
            if let b = Self.boolean(c.text) { return b }
            if required { throw CSVCellError(index: c.index, message: "'\(c.text)' is neither true nor false") }
            warn(c.index, "'\(c.text)' is neither true nor false; the cell is ignored")
            return nil
        }

        guard let startDate = try date(.startDate) else {
            throw fail(.startDate, "the start date is empty; every row needs one")
        }
        let startTime = try time(.startTime)
        var allDay = try flag(.allDay, required: true) ?? (startTime == nil)
        if !allDay && startTime == nil {
            warn(cell(.allDay)?.index, "the row is not marked all-day but has no start time; it is read as all-day")
            allDay = true
        }
        let reference: TimeReference = zone.map { .zone($0) } ?? .floating
        var event = Event()
        if let subject = cell(.subject)?.text { event.item.title = subject }
        if allDay {
            event.item.start = CalendarDateTime(date: startDate)
            var endDay = startDate.adding(days: 1)
            if let endDate = try date(.endDate) {
                let candidate = dialect == .google ? endDate.adding(days: 1) : endDate
                if candidate > startDate { endDay = candidate }
            }
            event.end = CalendarDateTime(date: endDay)
        } else {
            let start = CalendarDateTime(date: startDate, time: startTime, reference: reference)
            event.item.start = start
            let endDate = try date(.endDate)
            let endTime = try time(.endTime)
            if endDate != nil || endTime != nil {
                let end = CalendarDateTime(date: endDate ?? startDate, time: endTime ?? TimeOfDay(hour: 0, minute: 0, second: 0), reference: reference)
                if end.wallSecondsSinceEpoch < start.wallSecondsSinceEpoch {
                    warn(cell(.endDate)?.index ?? cell(.endTime)?.index, "the event ends before it starts; the end is left out")
                } else {
                    event.end = end
                }
            }
        }

        if try flag(.reminderOn, required: false) == true {
            do {
                let day = try date(.reminderDate) ?? startDate
                if let t = try time(.reminderTime) ?? (allDay ? nil : startTime) {
                    let at = CalendarDateTime(date: day, time: t)
                    let startWall = event.item.start!.wallSecondsSinceEpoch
                    let trigger = CalendarDuration(seconds: at.wallSecondsSinceEpoch - startWall)
                    let reminder = Alarm(action: .display, trigger: .relative(trigger, relativeToEnd: false), description: "Reminder")
                    event.item.alarms = [reminder]
                } else {
                    warn(cell(.reminderOn)?.index, "the reminder is on but has no time; it is left out")
                }
            } catch let error as CSVCellError {
                warn(error.index, error.message + "; the reminder is left out")
            }
        }

        if let c = cell(.organizer), let entry = CSVAttendeeList.parse(c.text).first {
            if let address = entry.address {
                event.item.organizer = Participant(name: entry.name, url: CSVAttendeeList.url(for: address))
            } else {
                warn(c.index, "organizer '\(entry.name ?? "")' has no address; iCalendar needs one, so it is left out")
            }
        }
        for column in [CSVColumn.requiredAttendees, .optionalAttendees, .resources] {
            guard let c = cell(column) else { continue }
            let columnWord = word(column)
            var nameless: [String] = []
            for entry in CSVAttendeeList.parse(c.text) {
                guard let address = entry.address else {
                    nameless.append(entry.name ?? "")
                    continue
                }
                var participant = Participant(name: entry.name, url: CSVAttendeeList.url(for: address))
                participant.role = vocabulary.role(for: columnWord)
                if column == .resources { participant.type = vocabulary.type(for: columnWord) }
                event.item.attendees.append(participant)
            }
            if !nameless.isEmpty {
                warn(c.index, "\(nameless.map { "'\($0)'" }.joined(separator: ", ")) \(nameless.count == 1 ? "has" : "have") no address; iCalendar needs one, so \(nameless.count == 1 ? "it is" : "they are") left out")
            }
        }

        if let c = cell(.billing) {
            event.item.properties.append(Property(name: CSVVocabulary.billingProperty, value: .text([c.text])))
        }
        if let c = cell(.mileage) {
            event.item.properties.append(Property(name: CSVVocabulary.mileageProperty, value: .text([c.text])))
        }
        if let c = cell(.categories) {
            let names = c.text.splitting(at: UInt8(ascii: ";")).map { String($0).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            if !names.isEmpty { event.item.categories = [names] }
        }
        if let c = cell(.description) { event.item.notes = c.text }
        if let c = cell(.location) { event.item.location = c.text }
        if let c = cell(.priority) {
            if let p = Self.priority(c.text) {
                event.item.priority = p == 0 ? nil : p
            } else {
                warn(c.index, "'\(c.text)' is not a priority; the cell is ignored")
            }
        }
        if try flag(.privateFlag, required: false) == true { event.item.classification = .private }
        if let c = cell(.sensitivity) {
            if let s = Self.sensitivity(c.text) {
                if let s { event.item.classification = s }
            } else {
                warn(c.index, "'\(c.text)' is not a sensitivity; the cell is ignored")
            }
        }
        if let c = cell(.showTimeAs) {
            if let a = CSVVocabulary.showTimeAs.first(where: { $0.0 == c.text.lowercased() })?.1 {
                switch a {
                case .free:
                    event.transparency = "TRANSPARENT"
                    event.busyStatus = .free
                case .busy: break
                case .tentative, .unavailable: event.busyStatus = a
                }
            } else {
                warn(c.index, "'\(c.text)' is not a free/busy value (1–5); the cell is ignored")
            }
        }
        event.item.uid = Self.uid(for: event)
        return event
    }

    /// A UID made from what identifies the row (subject, start, end, location), so that iCalendar
    /// output has the UID RFC 5545 requires and importing the same file twice gives the same UIDs.
    static func uid(for event: Event) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bit
        let key = [event.title ?? "", event.start.map(FlatText.zonedText) ?? "", event.end.map(FlatText.zonedText) ?? "", event.location ?? ""]
            .joined(separator: "\u{1F}")
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "@csv.calport"
    }

    /// True or false in any language the vocabulary knows; nil for other text.
    static func boolean(_ text: String) -> Bool? {
        let lower = text.lowercased()
        for (yes, no) in CSVVocabulary.booleans.values {
            if lower == yes.lowercased() { return true }
            if lower == no.lowercased() { return false }
        }
        if CSVVocabulary.extraTrue.contains(lower) { return true }
        if CSVVocabulary.extraFalse.contains(lower) { return false }
        return nil
    }

    /// The iCalendar priority a word means (high 1, normal 0 = undefined, low 9), or a number 0–9.
    static func priority(_ text: String) -> Int? {
        let lower = text.lowercased()
        for words in CSVVocabulary.priorities.values {
            if lower == words.high.lowercased() { return 1 }
            if lower == words.normal.lowercased() { return 0 }
            if lower == words.low.lowercased() { return 9 }
        }
        if ["普通", "normale"].contains(lower) { return 0 }
        if let n = Int(text), (0...9).contains(n) { return n }
        return nil
    }

    /// The classification a sensitivity word means: `.some(nil)` for normal, nil for unknown text.
    static func sensitivity(_ text: String) -> CalendarItem.Classification?? {
        let lower = text.lowercased()
        for words in CSVVocabulary.sensitivities.values {
            if lower == words.normal.lowercased() || lower == "normale" { return .some(nil) }
            if lower == words.personal.lowercased() || lower == words.private.lowercased() { return .some(.private) }
            if lower == words.confidential.lowercased() { return .some(.confidential) }
        }
        return nil
    }

    // MARK: Writing

    /// The header names written, in the language's export order (Google: its import order).
    var headerNames: [String] {
        dialect == .google ? CSVVocabulary.googleHeaders.map(\.1) : CSVVocabulary.outlookHeaders[language]!.map { $0.1[0] }
    }

    /// The cells of one event, in `writtenColumns` order; what the layout cannot hold is
    /// reported by the writer (`CSVLostField`).
    func cells(for event: Event) -> [String] {
        var values: [CSVColumn: String] = [:]
        values.reserveCapacity(writtenColumns.count)
        let booleans = CSVVocabulary.booleans[language]!
        func yesNo(_ b: Bool) -> String { b ? booleans.yes : booleans.no }
        guard let start = event.start else { return [] }
        let allDay = event.isAllDay
        values[.subject] = event.title ?? ""
        values[.startDate] = codec.text(start.date)
        values[.allDay] = yesNo(allDay)
        let midnight = TimeOfDay(hour: 0, minute: 0, second: 0)
        let end = event.effectiveEnd ?? start
        if allDay {
            var endDay = end.date
            if dialect == .google { endDay = max(start.date, endDay.adding(days: -1)) }
            values[.endDate] = codec.text(endDay)
            // Outlook's own export writes midnight into the time cells of all-day events.
            if dialect == .outlook {
                values[.startTime] = codec.text(midnight)
                values[.endTime] = codec.text(midnight)
            }
        } else {
            values[.startTime] = codec.text(start.time ?? midnight)
            values[.endDate] = codec.text(end.date)
            values[.endTime] = codec.text(end.time ?? midnight)
        }
        values[.description] = event.notes ?? ""
        values[.location] = event.location ?? ""
        let isPrivate = event.classification == .private || event.classification == .confidential
        values[.privateFlag] = yesNo(isPrivate)
        guard dialect == .outlook else { return writtenColumns.map { values[$0] ?? "" } }

        if let alarm = event.alarms.first, let at = reminderWallTime(alarm, event: event) {
            values[.reminderOn] = yesNo(true)
            values[.reminderDate] = codec.text(at.date)
            values[.reminderTime] = codec.text(at.time ?? midnight)
        } else {
            values[.reminderOn] = yesNo(false)
        }
        if let organizer = event.organizer { values[.organizer] = CSVAttendeeList.format(organizer) }
        var byColumn: [String: [Participant]] = [:]
        let placed = [word(.requiredAttendees), word(.optionalAttendees), word(.resources)]
        for attendee in event.attendees {
            var column = placed[0]
            if let type = attendee.type, let w = vocabulary.word(for: type), w == placed[2] {
                column = w
            } else if let w = vocabulary.word(for: attendee.role ?? .required), placed.contains(w) {
                column = w
            }
            byColumn[column, default: []].append(attendee)
        }
        values[.requiredAttendees] = CSVAttendeeList.format(byColumn[word(.requiredAttendees)] ?? [])
        values[.optionalAttendees] = CSVAttendeeList.format(byColumn[word(.optionalAttendees)] ?? [])
        values[.resources] = CSVAttendeeList.format(byColumn[word(.resources)] ?? [])
        values[.billing] = Self.text(of: CSVVocabulary.billingProperty, in: event) ?? ""
        values[.mileage] = Self.text(of: CSVVocabulary.mileageProperty, in: event) ?? ""
        values[.categories] = event.item.allCategories.joined(separator: ";")
        let priorities = CSVVocabulary.priorities[language]!
        switch event.priority ?? 0 {
        case 1...4: values[.priority] = priorities.high
        case 6...9: values[.priority] = priorities.low
        default: values[.priority] = priorities.normal
        }
        let sensitivities = CSVVocabulary.sensitivities[language]!
        switch event.classification {
        case .private: values[.sensitivity] = sensitivities.private
        case .confidential: values[.sensitivity] = sensitivities.confidential
        default: values[.sensitivity] = sensitivities.normal
        }
        switch event.availability {
        case .free: values[.showTimeAs] = "1"
        case .tentative: values[.showTimeAs] = "2"
        case .busy: values[.showTimeAs] = "3"
        case .unavailable: values[.showTimeAs] = "4"
        }
        return writtenColumns.map { values[$0] ?? "" }
    }

    /// The longest reminder offset Outlook's columns are given (10,000 years): a longer one names
    /// no date they can hold, and is reported as a lost alarm (`CSVLostField`).
    static let maximumReminderOffset = 10_000 * 366 * 86_400

    /// Whether a relative trigger is short enough to become a reminder date.
    static func reminderOffsetFits(_ alarm: Alarm) -> Bool {
        guard case .relative(let offset, _)? = alarm.trigger else { return true }
        return offset.totalSeconds.magnitude <= maximumReminderOffset
    }

    /// The wall time an alarm fires at, in the event's own wall clock.
    private func reminderWallTime(_ alarm: Alarm, event: Event) -> CalendarDateTime? {
        guard Self.reminderOffsetFits(alarm) else { return nil }
        guard let start = event.start else { return nil }
        let anchorStart = CalendarDateTime(date: start.date, time: start.time ?? TimeOfDay(hour: 0, minute: 0, second: 0))
        switch alarm.trigger {
        case .relative(let offset, let relativeToEnd)?:
            var anchor = anchorStart
            if relativeToEnd, let end = event.effectiveEnd {
                anchor = CalendarDateTime(date: end.date, time: end.time ?? TimeOfDay(hour: 0, minute: 0, second: 0))
            }
            return anchor.withWallSeconds(anchor.wallSecondsSinceEpoch + offset.totalSeconds)
        case .absolute(let at)?:
            return CalendarDateTime(date: at.date, time: at.time ?? TimeOfDay(hour: 0, minute: 0, second: 0))
        case nil:
            return nil
        }
    }

    private static func text(of property: String, in event: Event) -> String? {
        guard let p = event.item.properties.first(where: { $0.name == property }), case .text(let values) = p.value else { return nil }
        return values.joined(separator: ",")
    }
}
