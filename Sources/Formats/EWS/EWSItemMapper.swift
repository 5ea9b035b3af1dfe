import CalendarModel
import ExchangeData
import Recurrence
import XMLSupport

/// Turns one `t:CalendarItem` element into events: the item itself (a single event, a series
/// master with its RRULE and EXDATEs, or an occurrence or exception with its RECURRENCE-ID), and
/// for a master's modified occurrences whose own items the document may not hold, overrides with
/// the moved start and end (the reader sends those only when the item does not come).
struct EWSItemMapper {
    let zones: EWSTimeZones
    let vocabulary: ParticipantVocabulary
    let sourceName: String
    var log: DiagnosticLog
    /// The request's TimeZoneContext, for times without an offset.
    var contextZone: EWSReadZone?

    /// What one CalendarItem gives.
    struct Mapped {
        var event: Event
        /// VTIMEZONEs built from the item's own definitions.
        var definitions: [Component] = []
        /// Overrides made from ModifiedOccurrences (start and end moved, the rest the master's).
        var movedOccurrences: [Event] = []
    }

    /// The zones one item names, resolved in document order: the zone cache, the zones built
    /// from the document's definitions and which VTIMEZONEs were sent are the reader's state, so
    /// this part runs on the reader's thread, item after item, and the rest of the mapping
    /// (`map(_:zones:)`) may run on any thread.
    struct ItemZones {
        var start: EWSReadZone?
        var end: EWSReadZone?
        var meeting: EWSReadZone?
        var display: EWSReadZone?
        var context: EWSReadZone?
        /// VTIMEZONEs built from the item's own definitions, not sent before.
        var definitions: [Component] = []
        /// What resolving them had to say, reported before the rest of the item's warnings.
        var warnings: [Diagnostic] = []
        /// Offsets of the zones built so far, else the time-zone database's.
        var clock: EWSZoneClock
    }

    func warn(_ element: XMLElement, _ message: String) {
        log.warning(file: sourceName, line: element.line, location: element.path, message)
    }

    /// The item's zones, resolved now (see `ItemZones`); their warnings are kept, not logged.
    func resolveZones(_ element: XMLElement) -> ItemZones {
        var definitions: [Component] = []
        var warnings: [Diagnostic] = []
        func note(_ node: XMLElement, _ message: String) {
            warnings.append(Diagnostic(severity: .warning, file: sourceName, line: node.line, location: node.path, message: message))
        }
        func collect(_ zone: EWSReadZone?) -> EWSReadZone? {
            if let definition = zone?.definition, let tzid = zone?.tzid, !zones.sentDefinitions.contains(tzid) {
                zones.sentDefinitions.insert(tzid)
                definitions.append(definition)
            }
            return zone
        }
        func resolve(_ local: String) -> EWSReadZone? {
            guard let zoneElement = element.ews(local) else { return nil }
            var problem: String?
            let zone = zones.zone(definition: zoneElement, problem: &problem)
            if let problem { note(zoneElement, "\(problem); its times are read as UTC") }
            return collect(zone)
        }
        let startZone = resolve("StartTimeZone")
        let endZone = resolve("EndTimeZone")
        var meetingZone: EWSReadZone?
        if let meeting = element.ews("MeetingTimeZone") {
            var problem: String?
            meetingZone = collect(zones.zone(meetingTimeZone: meeting, problem: &problem))
            if let problem { note(meeting, problem) }
        }
        let displayZone = element.ewsText("TimeZone").flatMap { zones.zone(named: $0) }
        return ItemZones(
            start: startZone, end: endZone, meeting: meetingZone, display: displayZone, context: contextZone, definitions: definitions,
            warnings: warnings, clock: zones.offsetsNow)
    }

    /// The item mapped on this thread: its zones resolved, their warnings logged, then the rest.
    func map(_ element: XMLElement) throws -> Mapped {
        let itemZones = resolveZones(element)
        for warning in itemZones.warnings { log.report(warning) }
        return try map(element, zones: itemZones)
    }

    /// The item mapped with its zones already resolved; touches no state shared with other
    /// items, so items may be mapped on several threads at once.
    func map(_ element: XMLElement, zones itemZones: ItemZones) throws -> Mapped {
        let startZone = itemZones.start
        let endZone = itemZones.end
        let meetingZone = itemZones.meeting
        let displayZone = itemZones.display
        let contextZone = itemZones.context
        // Microsoft's rule for times without an offset: StartTimeZone, else MeetingTimeZone,
        // else the request's TimeZoneContext, else UTC. Times with one are shown in the item's zone.
        let wallZone = startZone ?? meetingZone ?? contextZone ?? .utc
        let shownZone = startZone ?? meetingZone ?? displayZone ?? contextZone ?? .utc
        let isAllDay = element.ewsText("IsAllDayEvent")?.lowercased() == "true"

        /// A time of the item: with an offset, an instant shown in `zone`; without one, wall
        /// time in `wallIn` (Microsoft's rule above).
        func time(_ local: String, in zone: EWSReadZone, wallIn: EWSReadZone, of node: XMLElement = element) throws -> CalendarDateTime? {
            guard let text = node.ewsText(local) else { return nil }
            guard let stamp = EWSDateTime.dateTime(text) else {
                throw CalendarError(
                    .data, file: sourceName, line: node.ews(local)?.line, location: node.ews(local)?.path,
                    "\(local) '\(text)' is not an xs:dateTime")
            }
            return moment(stamp, zone: zone, wallZone: wallIn, isAllDay: isAllDay)
        }
        func utc(_ local: String) -> CalendarDateTime? {
            guard let text = element.ewsText(local), let stamp = EWSDateTime.dateTime(text) else { return nil }
            return EWSReadZone.utc.wall(instant: stamp.instant ?? stamp.wall.wallSecondsSinceEpoch)
        }

        var event = Event()
        var item = CalendarItem()
        let itemID = element.ews("ItemId")
        item.uid = element.ewsText("UID") ?? itemID?.attribute("Id")
        // Subject and Location as written: their spaces are the user's (only an empty one is none).
        item.title = element.ews("Subject").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        item.start = try time("Start", in: shownZone, wallIn: wallZone)
        event.end = try time("End", in: endZone ?? shownZone, wallIn: endZone ?? wallZone)
        if let id = itemID?.attribute("Id") { item.properties.append(Property(name: ExchangeProperties.ewsItemID, value: .text([id]))) }
        if let key = itemID?.attribute("ChangeKey") {
            item.properties.append(Property(name: ExchangeProperties.ewsChangeKey, value: .text([key])))
        }

        // Body: DESCRIPTION as text, the HTML kept beside it.
        if let body = element.ews("Body") {
            let content = body.text
            if body.attribute("BodyType")?.lowercased() == "html" {
                if !content.isEmpty {
                    item.notes = element.ews("TextBody")?.text ?? ExchangeHTMLBody.plainText(content)
                    item.properties.append(
                        Property(
                            name: ExchangeProperties.htmlDescription, parameters: [Parameter("FMTTYPE", ExchangeProperties.htmlMediaType)],
                            value: .text([content])))
                }
            } else if !content.isEmpty {
                item.notes = content
            }
        } else if let text = element.ews("TextBody")?.text, !text.isEmpty {
            item.notes = text
        }

        // Location and EnhancedLocation.
        item.location = element.ews("Location").map(\.text).flatMap { $0.isEmpty ? nil : $0 }
        if let enhanced = element.ews("EnhancedLocation") {
            if item.location == nil { item.location = enhanced.ewsText("DisplayName") }
            if let address = enhanced.ews("PostalAddress"), let latitude = address.ewsText("Latitude").flatMap(Double.init),
                let longitude = address.ewsText("Longitude").flatMap(Double.init)
            {
                if latitude.isFinite && longitude.isFinite {
                    item.geo = GeoCoordinate(latitude: latitude, longitude: longitude)
                } else {
                    warn(address, "Latitude and Longitude are not finite numbers; ignored")
                }
            }
            if let uri = enhanced.ews("PostalAddress")?.ewsText("LocationUri") ?? enhanced.ewsText("LocationUri") {
                item.properties.append(Property(name: ExchangeProperties.ewsFieldPrefix + "LOCATIONURI", value: .text([uri])))
            }
        }

        // People. What tells a room from other resources, made at the first resource (few
        // items have one).
        let location = item.location
        lazy var resourceHints = Set(
            [location, element.ews("EnhancedLocation")?.descendant("LocationUri")?.trimmedText].compactMap { $0?.lowercased() })
        if let organizer = element.ews("Organizer")?.ews("Mailbox") {
            item.organizer = participant(mailbox: organizer, role: nil)
        }
        let responseRequested = element.ewsText("IsResponseRequested")?.lowercased() == "true"
        for list in ["RequiredAttendees", "OptionalAttendees", "Resources"] {
            for attendee in element.ews(list)?.ewsAll("Attendee") ?? [] {
                guard let mailbox = attendee.ews("Mailbox"), var person = participant(mailbox: mailbox, role: vocabulary.role(for: list))
                else {
                    warn(attendee, "an attendee in \(list) has no mailbox address; left out")
                    continue
                }
                if let response = attendee.ewsText("ResponseType") {
                    person.status = vocabulary.status(for: response)
                    if response == ExchangeVocabulary.organizerResponse.ews { person.role = .chair }
                }
                if list == "Resources" {
                    let name = person.name?.lowercased()
                    let email = mailbox.ewsText("EmailAddress")?.lowercased()
                    let isRoom = resourceHints.contains { $0 == name || $0 == email }
                    person.type = isRoom ? .room : .resource
                }
                if responseRequested, person.role != .chair, list != "Resources" { person.expectsReply = true }
                item.attendees.append(person)
            }
        }

        // Busy status, sensitivity, importance.
        if let word = element.ewsText("LegacyFreeBusyStatus") {
            if let status = ExchangeBusyStatus(ews: word) {
                event.busyStatus = status.availability
                event.transparency = status.transparency
                if !status.isPlain { item.properties.append(Property(name: ExchangeProperties.busyStatus, value: .text([status.cdo]))) }
            } else {
                warn(element, "LegacyFreeBusyStatus '\(word)' is not an EWS word; kept as \(ExchangeProperties.busyStatus)")
                item.properties.append(Property(name: ExchangeProperties.busyStatus, value: .text([word.uppercased()])))
            }
        }
        if let word = element.ewsText("Sensitivity") {
            if let sensitivity = ExchangeSensitivity(word: word) {
                if sensitivity != .normal { item.classification = sensitivity.classification }
                if sensitivity.needsKeptWord {
                    item.properties.append(Property(name: ExchangeProperties.sensitivity, value: .text([sensitivity.ews])))
                }
            } else {
                warn(element, "Sensitivity '\(word)' is not an EWS word; kept as CLASS")
                item.classification = .other(word.uppercased())
            }
        }
        if let word = element.ewsText("Importance") {
            if let importance = ExchangeImportance(word: word) {
                item.priority = importance.priority
            } else {
                warn(element, "Importance '\(word)' is not an EWS word; left out")
            }
        }

        // Reminder: a new item's ReminderIsSet defaults to true (CreateItem requests often omit it).
        if (element.ewsText("ReminderIsSet")?.lowercased() ?? "true") == "true",
            let minutes = element.ewsText("ReminderMinutesBeforeStart").flatMap({ Int($0) })
        {
            guard minutes.magnitude < CalendarDuration.fieldLimit else {
                let node = element.ews("ReminderMinutesBeforeStart")
                let message = "ReminderMinutesBeforeStart \(minutes) is out of range"
                throw CalendarError(.data, file: sourceName, line: node?.line, location: node?.path, message)
            }
            item.alarms.append(
                Alarm(
                    action: .display,
                    trigger: .relative(CalendarDuration(isNegative: minutes > 0, minutes: abs(minutes)), relativeToEnd: false),
                    description: item.title ?? "Reminder"))
        }

        // Categories, cancellation, stamps, sequence.
        let categories = element.ews("Categories")?.ewsAll("String").map(\.trimmedText).filter { !$0.isEmpty } ?? []
        if !categories.isEmpty { item.categories = [categories] }
        if element.ewsText("IsCancelled")?.lowercased() == "true" { item.status = .cancelled }
        item.timestamp = utc("DateTimeStamp")
        item.lastModified = utc("LastModifiedTime")
        item.created = utc("DateTimeCreated")
        item.sequence = element.ewsText("AppointmentSequenceNumber").flatMap { Int($0) }
        if let url = element.ewsText("JoinOnlineMeetingUrl") ?? element.descendant("JoinOnlineMeetingUrl")?.trimmedText, !url.isEmpty {
            item.properties.append(Property(name: ExchangeProperties.onlineMeetingURL, value: .text([url])))
        }
        // IsMeeting and CalendarItemType are kept only when they say more than the attendees and
        // the item's shape do (the writer states those), so that EWS → ICS → EWS → ICS is stable.
        let impliedKind =
            element.ews("Recurrence") != nil
            ? "RecurringMaster" : element.ews("RecurrenceId") != nil || element.ews("OriginalStart") != nil ? "Exception" : "Single"
        let implied = ["IsMeeting": item.attendees.isEmpty ? "false" : "true", "CalendarItemType": impliedKind]
        for field in EWSNames.keptFields {
            if let value = element.ewsText(field), implied[field] != value {
                item.properties.append(Property(name: ExchangeProperties.ewsFieldPrefix + field.uppercased(), value: .text([value])))
            }
        }

        // An occurrence or exception: its RECURRENCE-ID (the original start).
        if element.ews("RecurrenceId") != nil || element.ews("OriginalStart") != nil {
            item.recurrenceID =
                try time("RecurrenceId", in: shownZone, wallIn: wallZone) ?? time("OriginalStart", in: shownZone, wallIn: wallZone)
        }

        event.item = item
        var mapped = Mapped(event: event)

        // A series.
        if let recurrence = element.ews("Recurrence"), let start = event.item.start {
            try applyRecurrence(
                recurrence, start: start, to: &mapped, zone: shownZone, wallZone: wallZone, isAllDay: isAllDay, element: element,
                clock: itemZones.clock)
        }
        mapped.definitions = itemZones.definitions
        return mapped
    }

    private func participant(mailbox: XMLElement, role: ParticipantRole?) -> Participant? {
        let name = mailbox.ewsText("Name")
        let address = mailbox.ewsText("EmailAddress")
        let routing = mailbox.ewsText("RoutingType")
        guard let address else { return nil }
        let url: String
        if Self.containsAt(address) && (routing == nil || routing?.uppercased() == "SMTP") {
            url = "mailto:" + address
        } else if routing == nil {
            // Neither an email address nor routed (what the writer makes of urn:uuid:…, a bare
            // name): the address is the participant's URI as it stands.
            url = address
        } else {
            // An Exchange legacy DN (RoutingType EX) is no email address; kept as a URN.
            url = "urn:x-ms-ews:" + (routing ?? "EX").lowercased() + ":" + address
        }
        var person = Participant(name: name, url: url, role: role)
        if let kind = mailbox.ewsText("MailboxType") {
            person.type = ExchangeVocabulary.groupMailboxTypes.contains(kind) ? .group : vocabulary.type(for: kind)
        }
        return person
    }

    /// `address.contains("@")` (a Character search through Foundation, 6k instructions), on the
    /// bytes when they settle it: no "@" byte, or an ASCII address with one.
    private static func containsAt(_ address: String) -> Bool {
        guard address.utf8.contains(UInt8(ascii: "@")) else { return false }
        if address.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        return address.contains("@")
    }

    private func applyRecurrence(
        _ element: XMLElement, start: CalendarDateTime, to mapped: inout Mapped, zone: EWSReadZone, wallZone: EWSReadZone, isAllDay: Bool,
        element item: XMLElement, clock: EWSZoneClock
    ) throws {
        guard let recurrence = try Self.recurrence(element, sourceName: sourceName) else {
            warn(
                element,
                "the Recurrence holds no calendar pattern (regeneration patterns are for tasks); the item is read as a single event")
            return
        }
        var event = mapped.event
        let rule = recurrence.recurrenceRule(start: start, clock: clock)
        // Exchange counts occurrences from the first pattern day on or after the range's start;
        // RFC 5545 always counts DTSTART, so DTSTART is that first day.
        if let first = recurrence.firstOccurrence(start: start, clock: clock), first != start {
            if let end = event.end {
                event.end = end.withWallSeconds(end.wallSecondsSinceEpoch + first.wallSecondsSinceEpoch - start.wallSecondsSinceEpoch)
            }
            event.item.start = first
        }
        event.item.recurrenceRules = [rule]

        // DeletedOccurrences → EXDATE (each is the occurrence's original start).
        var excluded: [CalendarDateTime] = []
        for deleted in item.ews("DeletedOccurrences")?.ewsAll("DeletedOccurrence") ?? [] {
            guard let text = deleted.ewsText("Start"), let stamp = EWSDateTime.dateTime(text) else {
                warn(deleted, "a DeletedOccurrence has no Start; left out")
                continue
            }
            excluded.append(moment(stamp, zone: zone, wallZone: wallZone, isAllDay: isAllDay))
        }
        if !excluded.isEmpty { event.item.exceptionDates = [CalendarItem.DateList(dates: excluded)] }

        // ModifiedOccurrences → overrides with the moved start and end.
        for occurrence in item.ews("ModifiedOccurrences")?.ewsAll("Occurrence") ?? [] {
            guard let original = occurrence.ewsText("OriginalStart").flatMap(EWSDateTime.dateTime) else {
                warn(occurrence, "a modified Occurrence has no OriginalStart; left out")
                continue
            }
            var moved = event
            moved.item.recurrenceRules = []
            moved.item.exceptionDates = []
            moved.item.recurrenceID = moment(original, zone: zone, wallZone: wallZone, isAllDay: isAllDay)
            if let s = occurrence.ewsText("Start").flatMap(EWSDateTime.dateTime) {
                moved.item.start = moment(s, zone: zone, wallZone: wallZone, isAllDay: isAllDay)
            }
            if let e = occurrence.ewsText("End").flatMap(EWSDateTime.dateTime) {
                moved.end = moment(e, zone: zone, wallZone: wallZone, isAllDay: isAllDay)
            }
            if let id = occurrence.ews("ItemId")?.attribute("Id") {
                moved.item.properties = moved.item.properties.filter {
                    $0.name != ExchangeProperties.ewsItemID && $0.name != ExchangeProperties.ewsChangeKey
                        && $0.name != ExchangeProperties.ewsFieldPrefix + "CALENDARITEMTYPE"
                }
                moved.item.properties.append(Property(name: ExchangeProperties.ewsItemID, value: .text([id])))
            }
            mapped.movedOccurrences.append(moved)
        }
        mapped.event = event
    }

    private func moment(_ stamp: EWSDateTime.Stamp, zone: EWSReadZone, wallZone: EWSReadZone, isAllDay: Bool) -> CalendarDateTime {
        var wall: CalendarDateTime
        if let instant = stamp.instant {
            wall = zone.wall(instant: instant)
        } else {
            wall = stamp.wall
            if wallZone.tzid != zone.tzid, !wallZone.isUTC || !zone.isUTC {
                // Wall time in one zone, shown in the item's own.
                let instant =
                    wallZone.isUTC ? wall.wallSecondsSinceEpoch : WallTime.instant(wall.wallSecondsSinceEpoch, offset: wallZone.offset)
                wall = zone.wall(instant: instant)
            } else {
                wall.reference = zone.reference
            }
        }
        return isAllDay ? CalendarDateTime(date: wall.date) : wall
    }

    /// The Exchange recurrence a `t:Recurrence` element holds; nil for the task-only
    /// regeneration patterns; an error for a pattern or range that is not well formed.
    static func recurrence(_ element: XMLElement, sourceName: String) throws -> ExchangeRecurrence? {
        func fail(_ node: XMLElement, _ message: String) -> CalendarError {
            CalendarError(.data, file: sourceName, line: node.line, location: node.path, message)
        }
        guard let patternElement = element.children.first(where: { ExchangeRecurrence.Pattern.Kind(ewsElement: $0.name.local) != nil }),
            let kind = ExchangeRecurrence.Pattern.Kind(ewsElement: patternElement.name.local)
        else { return nil }
        guard
            let rangeElement = element.children.first(where: { ExchangeRecurrence.Range.Kind(ewsElement: $0.name.local) != nil }),
            let rangeKind = ExchangeRecurrence.Range.Kind(ewsElement: rangeElement.name.local)
        else { throw fail(element, "the Recurrence has a pattern but no NoEndRecurrence, EndDateRecurrence or NumberedRecurrence") }

        var pattern = ExchangeRecurrence.Pattern(kind: kind)
        if let text = patternElement.ewsText("Interval") {
            guard let interval = Int(text), interval >= 1 else { throw fail(patternElement, "Interval '\(text)' is not a positive number") }
            pattern.interval = interval
        }
        if let text = patternElement.ewsText("DaysOfWeek") {
            guard let days = ExchangeDayOfWeek.list(ews: text) else {
                throw fail(patternElement, "DaysOfWeek '\(text)' holds a word EWS does not know")
            }
            pattern.daysOfWeek = days
        }
        if let text = patternElement.ewsText("DayOfWeekIndex") {
            guard let index = ExchangeWeekIndex(word: text) else {
                throw fail(patternElement, "DayOfWeekIndex '\(text)' is not First…Fourth or Last")
            }
            pattern.index = index
        }
        if let text = patternElement.ewsText("DayOfMonth") {
            guard let day = Int(text), (1...31).contains(day) else { throw fail(patternElement, "DayOfMonth '\(text)' is not 1–31") }
            pattern.dayOfMonth = day
        }
        if let text = patternElement.ewsText("Month") {
            guard let month = ExchangeRecurrence.month(ews: text) else { throw fail(patternElement, "Month '\(text)' is not a month name") }
            pattern.month = month
        }
        if let text = patternElement.ewsText("FirstDayOfWeek") {
            guard let day = RecurrenceRule.Weekday(ews: text) else {
                throw fail(patternElement, "FirstDayOfWeek '\(text)' is not a weekday")
            }
            pattern.firstDayOfWeek = day
        }
        switch kind {
        case .weekly where pattern.daysOfWeek.isEmpty, .relativeMonthly where pattern.daysOfWeek.isEmpty,
            .relativeYearly where pattern.daysOfWeek.isEmpty:
            throw fail(patternElement, "\(kind.ewsElement) has no DaysOfWeek")
        case .relativeMonthly where pattern.index == nil, .relativeYearly where pattern.index == nil:
            throw fail(patternElement, "\(kind.ewsElement) has no DayOfWeekIndex")
        case .absoluteMonthly where pattern.dayOfMonth == nil, .absoluteYearly where pattern.dayOfMonth == nil:
            throw fail(patternElement, "\(kind.ewsElement) has no DayOfMonth")
        case .absoluteYearly where pattern.month == nil, .relativeYearly where pattern.month == nil:
            throw fail(patternElement, "\(kind.ewsElement) has no Month")
        default: break
        }

        guard let startText = rangeElement.ewsText("StartDate"), let startDate = EWSDateTime.date(startText) else {
            throw fail(rangeElement, "\(rangeKind.ewsElement) has no StartDate (an xs:date)")
        }
        var range = ExchangeRecurrence.Range(kind: rangeKind, startDate: startDate)
        switch rangeKind {
        case .endDate:
            guard let text = rangeElement.ewsText("EndDate"), let end = EWSDateTime.date(text) else {
                throw fail(rangeElement, "EndDateRecurrence has no EndDate (an xs:date)")
            }
            range.endDate = end
        case .numbered:
            guard let text = rangeElement.ewsText("NumberOfOccurrences"), let count = Int(text), count >= 1 else {
                throw fail(rangeElement, "NumberedRecurrence has no positive NumberOfOccurrences")
            }
            range.numberOfOccurrences = count
        case .noEnd: break
        }
        return ExchangeRecurrence(pattern: pattern, range: range)
    }
}
