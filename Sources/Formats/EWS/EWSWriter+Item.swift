import CalendarModel
import ExchangeData

extension EWSWriter {
    /// Which of Exchange's CalendarItemType an item is.
    enum ItemKind {
        case single
        case recurringMaster
        /// A modified occurrence: the UTC instant of the start it replaces.
        case exception(originalStart: Int)
    }

    /// An item's start and end as EWS stores them: UTC instants, with the zones they were in.
    struct ItemTimes {
        var start: Int
        var end: Int
        var startZone: EWSZone
        var endZone: EWSZone
        var isAllDay: Bool
    }

    /// What a series master carries beyond a single item.
    struct SeriesParts {
        var recurrence: ExchangeRecurrence
        /// The series' UID, which names its occurrences.
        var uid: String
        /// Each modified occurrence: its start, end and the start it replaces (UTC instants).
        var modified: [(start: Int, end: Int, originalStart: Int)]
        /// The starts of deleted occurrences (UTC instants).
        var deleted: [Int]
    }

    // MARK: - Times

    /// The UTC instant of a date or date-time and the zone it is in: a zoned time in its zone
    /// (Windows id, or a definition when it has none), UTC in UTC, a floating time or a date in
    /// the calendar's X-WR-TIMEZONE, else in UTC (EWS has no floating time: reported).
    mutating func instant(of value: CalendarDateTime, line: Int, fallback: EWSZone? = nil) -> (utc: Int, zone: EWSZone) {
        let wall = value.wallSecondsSinceEpoch
        if value.isDateOnly {
            let zone = fallback ?? calendarZone ?? .utc
            return (zone.utcSeconds(wall: wall), zone)
        }
        switch value.reference {
        case .utc:
            return (wall, .utc)
        case .zone(let tzid):
            if let zone = zones.zone(tzid) { return (zone.utcSeconds(wall: wall), zone) }
            losses.loss(
                "timeZone", log: log, file: destination, line: line,
                "TZID \"\(tzid)\" names no zone calport knows; its times are written as if UTC")
            return (wall, .utc)
        case .floating:
            if let zone = fallback ?? calendarZone { return (zone.utcSeconds(wall: wall), zone) }
            losses.loss(
                "floatingTime", log: log, file: destination, line: line,
                "EWS has no floating time; floating times are written as UTC (give --floating-tz to say which zone they are in)")
            return (wall, .utc)
        }
    }

    /// The item's start and end, or nil (reported) when it has no start.
    mutating func times(of event: Event, line: Int) -> ItemTimes? {
        guard let start = event.item.start else {
            log.warning(file: destination, line: line, "an event without a start cannot be an EWS calendar item; not written")
            return nil
        }
        let (startUTC, startZone) = instant(of: start, line: line)
        let endValue = event.effectiveEnd ?? start
        var (endUTC, endZone) = instant(of: endValue, line: line, fallback: start.isDateOnly || endValue.isDateOnly ? startZone : nil)
        if endValue.reference == .floating && !endValue.isDateOnly && start.reference != .floating {
            // A floating end under a zoned start means the start's zone.
            (endUTC, endZone) = instant(of: endValue, line: line, fallback: startZone)
        }
        return ItemTimes(start: startUTC, end: max(endUTC, startUTC), startZone: startZone, endZone: endZone, isAllDay: start.isDateOnly)
    }

    // MARK: - Items

    /// A single event: one message, one item.
    mutating func writeSingle(_ event: Event, line: Int) {
        guard let times = times(of: event, line: line) else { return }
        openItemMessage()
        writeCalendarItem(event, line: line, kind: .single, uid: event.uid, times: times, series: nil)
        closeItemMessage()
    }

    /// An override whose series was not at hand: its own exception item.
    mutating func writeOrphanOverride(_ event: Event, line: Int) {
        guard let recurrenceID = event.recurrenceID, let times = times(of: event, line: line) else { return }
        let original = instant(of: recurrenceID, line: line, fallback: times.startZone).utc
        writeException(event, line: line, times: times, originalStart: original)
    }

    mutating func writeException(_ event: Event, line: Int, times: ItemTimes, originalStart: Int) {
        if createsItems {
            losses.loss(
                "overrides", log: log, file: destination, line: line,
                "CreateItem cannot create a modified occurrence; change it with UpdateItem on the created series (not written)")
            return
        }
        if event.item.recurrenceAppliesToFuture {
            losses.loss(
                "recurrenceID.range", log: log, file: destination, line: line,
                "Exchange has no RANGE=THISANDFUTURE; the override is written for its one occurrence")
        }
        openItemMessage()
        writeCalendarItem(event, line: line, kind: .exception(originalStart: originalStart), uid: event.uid, times: times, series: nil)
        closeItemMessage()
    }

    /// One `t:CalendarItem`, its elements in the order of Types.xsd's ItemType and
    /// CalendarItemType sequences (Exchange 2016 schema), which EWS requires.
    mutating func writeCalendarItem(_ event: Event, line: Int, kind: ItemKind, uid: String?, times: ItemTimes, series: SeriesParts?) {
        let item = event.item
        let create = createsItems
        var consumed = ItemProperties(item.properties)
        xml.open("t:CalendarItem")
        // ItemType.
        if !create, let id = consumed.text(ExchangeProperties.ewsItemID) {
            if let changeKey = consumed.text(ExchangeProperties.ewsChangeKey) {
                xml.empty("t:ItemId", attributes: ["Id": id, "ChangeKey": changeKey])
            } else {
                xml.empty("t:ItemId", attributes: ["Id": id])
            }
        }
        if !create { writeKept("t:ItemClass", "ITEMCLASS", &consumed) }
        if let title = item.title { xml.element("t:Subject", title) }
        writeSensitivity(item, consumed: &consumed, line: line)
        writeBody(item, consumed: &consumed)
        let categories = item.allCategories
        if !categories.isEmpty {
            xml.open("t:Categories")
            for category in categories { xml.element("t:String", category) }
            xml.close("t:Categories")
        }
        let importance = ExchangeImportance(priority: item.priority)
        _ = consumed.text(ExchangeProperties.importance)
        if item.priority != nil { xml.element("t:Importance", importance.ews) }
        if !create { writeKept("t:IsDraft", "ISDRAFT", &consumed) }
        if !create, let created = item.created { xml.element("t:DateTimeCreated", utcSeconds: instant(of: created, line: line).utc) }
        writeReminder(item, line: line)
        if !create, let modified = item.lastModified {
            xml.element("t:LastModifiedTime", utcSeconds: instant(of: modified, line: line).utc)
        }
        // CalendarItemType.
        if let uid { xml.element("t:UID", uid) }
        if case .exception(let original) = kind {
            xml.element("t:RecurrenceId", utcSeconds: original)
        }
        if !create, let stamp = item.timestamp { xml.element("t:DateTimeStamp", utcSeconds: instant(of: stamp, line: line).utc) }
        xml.element("t:Start", utcSeconds: times.start)
        xml.element("t:End", utcSeconds: times.end)
        if case .exception(let original) = kind { xml.element("t:OriginalStart", utcSeconds: original) }
        xml.element("t:IsAllDayEvent", bool: times.isAllDay)
        writeBusyStatus(event, consumed: &consumed)
        if let location = item.location { xml.element("t:Location", location) }
        if !create {
            // What the reader kept when the document said otherwise than the attendees imply.
            if let meeting = consumed.text(kept("ISMEETING")) {
                xml.element("t:IsMeeting", meeting)
            } else {
                xml.element("t:IsMeeting", bool: !item.attendees.isEmpty)
            }
            xml.element("t:IsCancelled", bool: item.status == .cancelled)
        }
        writeResponseRequested(item, consumed: &consumed, line: line)
        if !create {
            // An unmodified occurrence (calendarView, FindItem) is what an exception is to RFC 5545.
            let keptKind = consumed.text(kept("CALENDARITEMTYPE"))
            switch kind {
            case .single: xml.element("t:CalendarItemType", literal: "Single")
            case .recurringMaster: xml.element("t:CalendarItemType", literal: "RecurringMaster")
            case .exception where keptKind == "Occurrence": xml.element("t:CalendarItemType", literal: "Occurrence")
            case .exception: xml.element("t:CalendarItemType", literal: "Exception")
            }
            writeKept("t:MyResponseType", "MYRESPONSETYPE", &consumed)
        }
        writeStatusLosses(item, line: line)
        writeParticipants(item, line: line)
        if !create, let sequence = item.sequence { xml.element("t:AppointmentSequenceNumber", integer: sequence) }
        if !create { writeKept("t:AppointmentState", "APPOINTMENTSTATE", &consumed) }
        if let series { writeSeriesParts(series, startZone: times.startZone) }
        // Exchange 2010 and later: the zones of start and end (no MeetingTimeZone, which is 2007's).
        times.startZone.write("t:StartTimeZone", to: &xml, atUTC: times.start)
        times.endZone.write("t:EndTimeZone", to: &xml, atUTC: times.end)
        writeKept("t:ConferenceType", "CONFERENCETYPE", &consumed)
        writeKept("t:AllowNewTimeProposal", "ALLOWNEWTIMEPROPOSAL", &consumed)
        writeKept("t:IsOnlineMeeting", "ISONLINEMEETING", &consumed)
        writeKept("t:MeetingWorkspaceUrl", "MEETINGWORKSPACEURL", &consumed)
        writeKept("t:NetShowUrl", "NETSHOWURL", &consumed)
        // EnhancedLocation is Exchange 2016's; a CreateItem request says Exchange2013.
        if !create, let uri = consumed.text(kept("LOCATIONURI")) {
            xml.open("t:EnhancedLocation")
            if let location = item.location { xml.element("t:DisplayName", location) }
            xml.open("t:PostalAddress")
            xml.element("t:LocationUri", uri)
            xml.close("t:PostalAddress")
            xml.close("t:EnhancedLocation")
        }
        xml.close("t:CalendarItem")
        reportLosses(item, line: line, consumed: consumed)
    }

    // MARK: - Fields

    /// The property that keeps an Exchange-only field the EWS reader read (`X-MS-EWS-<FIELD>`).
    private func kept(_ field: String) -> String { ExchangeProperties.ewsFieldPrefix + field }

    /// Writes a field the reader kept, when the item has it.
    private mutating func writeKept(_ tag: StaticString, _ field: String, _ consumed: inout ItemProperties) {
        if let value = consumed.text(kept(field)) { xml.element(tag, value) }
    }

    /// IsResponseRequested: the item's one flag for all attendees, from their RSVPs (or as the
    /// reader kept it). The reader gives it back as RSVP=TRUE on every attendee but the chair and
    /// the rooms, so RSVPs that differ otherwise are reported.
    private mutating func writeResponseRequested(_ item: CalendarItem, consumed: inout ItemProperties, line: Int) {
        let flag = consumed.text(kept("ISRESPONSEREQUESTED")) ?? (item.attendees.contains { $0.expectsReply == true } ? "true" : nil)
        if let flag { xml.element("t:IsResponseRequested", flag) }
        let asked = flag?.lowercased() == "true"
        let restated = item.attendees.allSatisfy { a in
            let isResource = a.type == .room || a.type == .resource
            return a.expectsReply == (asked && a.role != .chair && !isResource ? true : nil)
        }
        if !restated {
            losses.loss(
                "attendees.rsvp", log: log, file: destination, line: line,
                "EWS has one IsResponseRequested for all attendees; RSVPs that differ from it are not kept")
        }
    }

    private mutating func writeSensitivity(_ item: CalendarItem, consumed: inout ItemProperties, line: Int) {
        let kept = consumed.text(ExchangeProperties.sensitivity)
        guard item.classification != nil || kept != nil else { return }
        if let sensitivity = ExchangeSensitivity(classification: item.classification, keptWord: kept) {
            xml.element("t:Sensitivity", sensitivity.ews)
        } else if case .other(let word)? = item.classification {
            losses.loss("classification", log: log, file: destination, line: line, "CLASS \(word) has no EWS Sensitivity; not written")
        }
    }

    /// Body: the HTML the item keeps (X-ALT-DESC;FMTTYPE=text/html), else DESCRIPTION as text.
    private mutating func writeBody(_ item: CalendarItem, consumed: inout ItemProperties) {
        if let html = consumed.html() {
            xml.element("t:Body", attribute: "BodyType", "HTML", html)
        } else if let notes = item.notes {
            xml.element("t:Body", attribute: "BodyType", "Text", notes)
        }
    }

    /// ReminderIsSet and ReminderMinutesBeforeStart from the first alarm that fires before the
    /// start; Exchange keeps one reminder, so the others are reported.
    private mutating func writeReminder(_ item: CalendarItem, line: Int) {
        var reminder: Int?
        var others = 0
        for alarm in item.alarms {
            if reminder == nil, case .relative(let offset, false)? = alarm.trigger, offset.totalSeconds <= 0 {
                reminder = -offset.totalSeconds
            } else {
                others += 1
            }
        }
        xml.element("t:ReminderIsSet", bool: reminder != nil)
        if let reminder { xml.element("t:ReminderMinutesBeforeStart", integer: (reminder + 59) / 60) }
        if others > 0 {
            losses.loss(
                "alarms", log: log, file: destination, line: line,
                "Exchange keeps one reminder before the start; \(others) other alarm(s) not written")
        }
    }

    private mutating func writeBusyStatus(_ event: Event, consumed: inout ItemProperties) {
        let status =
            consumed.text(ExchangeProperties.busyStatus).flatMap { ExchangeBusyStatus(cdo: $0) }
            ?? ExchangeBusyStatus(availability: event.busyStatus, transparency: event.transparency)
        xml.element("t:LegacyFreeBusyStatus", status.ews)
    }

    private mutating func writeStatusLosses(_ item: CalendarItem, line: Int) {
        switch item.status {
        case nil, .confirmed?: break
        case .cancelled?:
            if createsItems {
                losses.loss(
                    "status", log: log, file: destination, line: line,
                    "CreateItem cannot create a cancelled item (IsCancelled is read-only)")
            }
        case let status?:
            losses.loss("status", log: log, file: destination, line: line, "EWS has no STATUS \(status); not written")
        }
    }

    /// Organizer, then RequiredAttendees, OptionalAttendees and Resources: role by list, rooms
    /// and resources in Resources, ResponseType and MailboxType from the EWS vocabulary.
    private mutating func writeParticipants(_ item: CalendarItem, line: Int) {
        if let organizer = item.organizer {
            if createsItems {
                losses.loss("organizer", log: log, file: destination, line: line, "CreateItem makes the mailbox owner the organizer")
            } else {
                xml.open("t:Organizer")
                writeMailbox(organizer, line: line)
                xml.close("t:Organizer")
            }
        }
        guard !item.attendees.isEmpty else { return }
        var required: [Participant] = []
        var optional: [Participant] = []
        var resources: [Participant] = []
        for attendee in item.attendees {
            // The list is the role's word (ExchangeVocabulary.ews); rooms and resources are
            // Resources' mailboxes whatever their role.
            let list = attendee.type == .room || attendee.type == .resource ? "Resources" : vocabulary.word(for: attendee.role ?? .required)
            switch list {
            case "Resources": resources.append(attendee)
            case "OptionalAttendees": optional.append(attendee)
            case "RequiredAttendees": required.append(attendee)
            default:
                losses.loss(
                    "attendees.role", log: log, file: destination, line: line,
                    "EWS has no attendee role \(attendee.role?.eventKitName ?? "?"); written as required")
                required.append(attendee)
            }
        }
        writeAttendees("t:RequiredAttendees", required, line: line)
        writeAttendees("t:OptionalAttendees", optional, line: line)
        writeAttendees("t:Resources", resources, line: line)
    }

    private mutating func writeAttendees(_ tag: StaticString, _ attendees: [Participant], line: Int) {
        guard !attendees.isEmpty else { return }
        xml.open(tag)
        for attendee in attendees {
            xml.open("t:Attendee")
            writeMailbox(attendee, line: line)
            if createsItems {
                if let status = attendee.status, status != .pending, status != .unknown {
                    losses.loss("attendees.status", log: log, file: destination, line: line, "CreateItem cannot set an attendee's response")
                }
            } else if let status = attendee.status {
                if let word = vocabulary.word(for: status) {
                    xml.element("t:ResponseType", word)
                } else {
                    losses.loss(
                        "attendees.status", log: log, file: destination, line: line,
                        "EWS has no response \(status.eventKitName); written as Unknown")
                    xml.element("t:ResponseType", literal: "Unknown")
                }
            }
            xml.close("t:Attendee")
        }
        xml.close(tag)
    }

    private mutating func writeMailbox(_ participant: Participant, line: Int) {
        xml.open("t:Mailbox")
        if let name = participant.name { xml.element("t:Name", name) }
        if let email = participant.emailAddress {
            xml.element("t:EmailAddress", email)
            xml.element("t:RoutingType", literal: "SMTP")
        } else if let (routing, address) = Self.routedAddress(participant.url) {
            // What the reader made of a mailbox that is no email address (an Exchange legacy DN):
            // the address and its routing type again.
            xml.element("t:EmailAddress", address)
            xml.element("t:RoutingType", routing)
        } else {
            // Not an email address (urn:uuid:…, a bare name): kept as it is, without a routing type.
            xml.element("t:EmailAddress", participant.url)
        }
        // The reader gives MailboxType back as CUTYPE (Mailbox: INDIVIDUAL, PublicDL: GROUP, …).
        if let type = participant.type, let word = vocabulary.word(for: type) {
            xml.element("t:MailboxType", word)
        }
        xml.close("t:Mailbox")
        if !participant.delegatedTo.isEmpty || !participant.delegatedFrom.isEmpty || participant.sentBy != nil {
            losses.loss(
                "attendees.delegation", log: log, file: destination, line: line, "EWS attendees carry no DELEGATED-TO/-FROM or SENT-BY")
        }
    }

    /// The routing type and address of the EWS reader's `urn:x-ms-ews:<routing>:<address>`.
    static func routedAddress(_ url: String) -> (routing: String, address: String)? {
        let prefix = "urn:x-ms-ews:"
        guard url.lowercased().hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":"), colon != rest.startIndex else { return nil }
        let address = rest[rest.index(after: colon)...]
        guard !address.isEmpty else { return nil }
        return (rest[..<colon].uppercased(), String(address))
    }

    /// What the item carried that no element took.
    private mutating func reportLosses(_ item: CalendarItem, line: Int, consumed: ItemProperties) {
        if item.url != nil { losses.loss("url", log: log, file: destination, line: line, "EWS calendar items have no URL") }
        if item.geo != nil || item.structuredLocation != nil {
            losses.loss("location.geo", log: log, file: destination, line: line, "coordinates are not written (EWS Location is text)")
        }
        if !item.recurrenceDates.isEmpty || item.recurrenceRules.count > 1 {
            // Handled by the series writer (expanded); nothing more to say here.
        }
        for name in consumed.remainingNames() {
            losses.loss("property.\(name)", log: log, file: destination, line: line, "EWS calendar items cannot hold \(name)")
        }
        for component in item.components {
            losses.loss(
                "components.\(component.name)", log: log, file: destination, line: line,
                "EWS calendar items cannot hold a \(component.name)")
        }
    }
}

/// An item's untyped properties, marked off as elements take them, so that what is left can
/// be reported as lost. Items carry few, so a linear search serves.
struct ItemProperties {
    private var properties: [Property]
    private var taken: [Bool]

    init(_ properties: [Property]) {
        self.properties = properties
        self.taken = Array(repeating: false, count: properties.count)
    }

    /// The text of the first property called `name`, marked taken.
    mutating func text(_ name: String) -> String? {
        guard !properties.isEmpty, let i = properties.firstIndex(where: { $0.name == name }) else { return nil }
        taken[i] = true
        switch properties[i].value {
        case .text(let values): return values.joined(separator: ",")
        case .unknown(_, let literal): return literal
        case .uri(let uri): return uri
        case .integer(let values): return values.first.map(String.init)
        default: return nil
        }
    }

    /// The HTML body: X-ALT-DESC or STYLED-DESCRIPTION with FMTTYPE=text/html.
    mutating func html() -> String? {
        guard !properties.isEmpty else { return nil }
        for (i, p) in properties.enumerated()
        where (p.name == ExchangeProperties.htmlDescription || p.name == "STYLED-DESCRIPTION")
            && p.parameter("FMTTYPE")?.value.lowercased() == ExchangeProperties.htmlMediaType
        {
            taken[i] = true
            switch p.value {
            case .text(let values): return values.joined(separator: ",")
            case .unknown(_, let literal): return literal
            default: return nil
            }
        }
        return nil
    }

    /// Names of properties nothing took, each once.
    func remainingNames() -> [String] {
        var names: [String] = []
        for (i, p) in properties.enumerated() where !taken[i] && !names.contains(p.name) { names.append(p.name) }
        return names
    }
}
