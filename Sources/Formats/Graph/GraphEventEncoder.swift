import CalendarModel
import ExchangeData
import JSONCoding

/// Turns an event into the body of `POST /me/events`: writable members only (no `id`,
/// `changeKey`, `iCalUId`, `webLink`, `onlineMeeting`), times as wall times in the event's own
/// zone named the Windows way when it has a Windows name. What cannot be said is found apart
/// (`losses`); what can be kept in calport's extended property is the writer's business.
///
/// A class: the writer hands it to every body job, and a copy of the struct (its vocabulary's
/// words and tables) retained and released a dozen references.
final class GraphEventEncoder {
    let vocabulary: ParticipantVocabulary
    /// Lists of generic properties this long are looked up through an index (below).
    static let longList = 256
    /// The last long list's first property of each name: the occurrences of an expanded series
    /// share their list, and looking the body's few names up through thousands of properties
    /// per occurrence was most of such a series' time.
    private let longListIndex = GraphPropertyIndexMemo()

    init(vocabulary: ParticipantVocabulary) {
        self.vocabulary = vocabulary
    }

    /// A field Graph cannot hold, for the writer to report.
    struct Loss {
        var field: String
        var message: String
    }

    private func zoneName(_ v: CalendarDateTime) -> String? {
        switch v.reference {
        case .zone(let z): GraphDateTimes.windowsName(z)
        case .utc: "UTC"
        case .floating: nil
        }
    }

    /// `{"dateTime", "timeZone"}`; a floating time is written as UTC (Graph has none: a loss,
    /// `isLost`).
    private func dateTimeTimeZone(_ v: CalendarDateTime) -> JSONValue {
        dateTimeTimeZone(v, zone: zoneName(v))
    }

    /// `dateTimeTimeZone(v)` where `zone` is `zoneName(v)`, looked up already.
    private func dateTimeTimeZone(_ v: CalendarDateTime, zone: String?) -> JSONValue {
        var o = JSONObject()
        o.members.reserveCapacity(2)
        o.append("dateTime", GraphDateTimes.text(v))
        if v.isDateOnly {
            o.append("timeZone", "UTC")
        } else if let zone {
            o.append("timeZone", zone)
        } else {
            o.append("timeZone", "UTC")
        }
        return .object(o)
    }

    /// Whether `dateTimeTimeZone` writes `v` as UTC for want of a zone (`zoneName` is nil only
    /// for a floating time).
    private static func isLost(_ v: CalendarDateTime) -> Bool {
        !v.isDateOnly && v.reference == .floating
    }

    private static func floatingLoss(_ field: String) -> Loss {
        Loss(field: field, message: "\(field) is a floating time; Graph has none, written as UTC")
    }

    /// `end` moved to `start`'s reference when the two differ (Graph's end has the start's zone).
    private static func end(_ end: CalendarDateTime, inReferenceOf start: CalendarDateTime) -> CalendarDateTime {
        var sameZone = end
        if !start.isDateOnly, end.reference != start.reference, let u = GraphDateTimes.utc(end) {
            switch start.reference {
            case .zone(let z): sameZone = GraphDateTimes.local(u, in: z) ?? end
            case .utc: sameZone = u
            case .floating: break
            }
        }
        return sameZone
    }

    /// `{"emailAddress": …}`, with room for `members` members in all (an attendee's type,
    /// status and proposed time follow: grown one by one, its members were copied twice).
    private func recipient(_ p: Participant, members: Int = 1) -> JSONObject? {
        guard let address = p.emailAddress else { return nil }
        var email = JSONObject()
        email.members.reserveCapacity(2)
        email.append("address", address)
        if let name = p.name { email.append("name", name) }
        var o = JSONObject()
        o.members.reserveCapacity(members)
        o.append("emailAddress", .object(email))
        return o
    }

    private static func text(_ p: Property) -> String? {
        switch p.value {
        case .text(let t): t.first
        case .unknown(_, let literal): literal
        case .uri(let u): u
        default: nil
        }
    }

    /// What `body` cannot say of `event`, in the order the body meets it. Finding it costs a
    /// fraction of the body: the writer reports it on its own thread, in the one-thread order,
    /// and has the body built on a worker.
    func losses(_ event: Event) -> [Loss] {
        var losses: [Loss] = []
        if let start = event.start {
            if Self.isLost(start) { losses.append(Self.floatingLoss("DTSTART")) }
            // Only a floating end can stay floating once moved to the start's reference.
            if let end = event.effectiveEnd, end.reference == .floating, Self.isLost(Self.end(end, inReferenceOf: start)) {
                losses.append(Self.floatingLoss("DTEND"))
            }
        }
        if let organizer = event.organizer, !organizer.hasEmailAddress {
            losses.append(Loss(field: "ORGANIZER", message: "organizer \(organizer.url) has no email address; Graph needs one"))
        }
        // A proposed time is a UTC timestamp (`GraphDateTimes.timestamp`): never floating.
        for a in event.attendees where !a.hasEmailAddress {
            losses.append(Loss(field: "ATTENDEE", message: "attendee \(a.url) has no email address; Graph needs one"))
        }
        // Every classification but an unknown one has a sensitivity (`ExchangeSensitivity`).
        if case .other? = event.classification,
            ExchangeSensitivity(
                classification: event.classification, keptWord: Self.property(ExchangeProperties.sensitivity, in: event.properties).flatMap(Self.text))
                == nil
        {
            losses.append(Loss(field: "CLASS", message: "CLASS \(String(describing: event.classification)) has no Graph sensitivity"))
        }
        return losses
    }

    private static func property(_ name: String, in props: [Property]) -> Property? {
        props.first { $0.name == name }
    }

    /// The texts of the generic properties `body` reads (Exchange's and Graph's X- names),
    /// each of the first property of its name, and which names were there. Texts, not
    /// properties: a property is a few hundred bytes to copy and to test for nil.
    private struct ReadProperties {
        var htmlDescription: String?
        var busyStatus: String?
        var sensitivity: String?
        var disallowCounter: String?
        var onlineMeetingProvider: String?
        var transactionID: String?
        var hasBusyStatus = false
        var hasSensitivity = false

        /// Found in one pass, names told apart by their length first: a look-up per name
        /// (`first(where:)`, seven a body) compared and copied every property each time.
        /// The lengths of the names read, as bits (all are shorter than 64 bytes): most
        /// properties are passed over on their length alone.
        private static let lengths: UInt64 = [
            ExchangeProperties.htmlDescription, ExchangeProperties.busyStatus, ExchangeProperties.sensitivity,
            GraphPropertyNames.disallowCounter, GraphPropertyNames.onlineMeetingProvider, ExchangeProperties.graphTransactionID,
        ].reduce(0) { $0 | 1 << UInt64($1.utf8.count) }

        init(_ props: [Property]) {
            // No closure: captured, `found` and `self` were checked for exclusive access at
            // every use (~80 instructions each).
            var found: UInt8 = 0
            let lengths = Self.lengths
            for i in props.indices {
                let name = props[i].name
                let n = name.utf8.count
                guard n < 64, lengths & 1 << UInt64(n) != 0 else { continue }
                if Self.take(1, ExchangeProperties.htmlDescription, name, n, &found) { htmlDescription = GraphEventEncoder.text(props[i]) }
                if Self.take(2, ExchangeProperties.busyStatus, name, n, &found) {
                    busyStatus = GraphEventEncoder.text(props[i])
                    hasBusyStatus = true
                }
                if Self.take(4, ExchangeProperties.sensitivity, name, n, &found) {
                    sensitivity = GraphEventEncoder.text(props[i])
                    hasSensitivity = true
                }
                if Self.take(8, GraphPropertyNames.disallowCounter, name, n, &found) { disallowCounter = GraphEventEncoder.text(props[i]) }
                if Self.take(16, GraphPropertyNames.onlineMeetingProvider, name, n, &found) {
                    onlineMeetingProvider = GraphEventEncoder.text(props[i])
                }
                if Self.take(32, ExchangeProperties.graphTransactionID, name, n, &found) { transactionID = GraphEventEncoder.text(props[i]) }
            }
        }

        /// Whether `name` (of `n` bytes) is `wanted`, met for the first time (its `bit` not yet
        /// in `found`, and set now).
        private static func take(_ bit: UInt8, _ wanted: String, _ name: String, _ n: Int, _ found: inout UInt8) -> Bool {
            guard found & bit == 0, n == wanted.utf8.count, name == wanted else { return false }
            found |= bit
            return true
        }

        /// Looked up in a long list's index (`GraphPropertyIndexMemo`).
        init(index: [String: Property]) {
            func text(_ name: String) -> String? { index[name].flatMap(GraphEventEncoder.text) }
            htmlDescription = text(ExchangeProperties.htmlDescription)
            busyStatus = text(ExchangeProperties.busyStatus)
            hasBusyStatus = index[ExchangeProperties.busyStatus] != nil
            sensitivity = text(ExchangeProperties.sensitivity)
            hasSensitivity = index[ExchangeProperties.sensitivity] != nil
            disallowCounter = text(GraphPropertyNames.disallowCounter)
            onlineMeetingProvider = text(GraphPropertyNames.onlineMeetingProvider)
            transactionID = text(ExchangeProperties.graphTransactionID)
        }
    }

    /// The body of one event. `recurrence` is the master's pattern, already checked. What it
    /// cannot say is `losses(event)`.
    func body(_ event: Event, recurrence: ExchangeRecurrence?) -> JSONObject {
        var o = JSONObject()
        // Room for a body's usual members at once (grown one by one, reallocated five times).
        o.members.reserveCapacity(24)
        let props = event.properties
        let read = props.count >= Self.longList ? ReadProperties(index: longListIndex.firstByName(props)) : ReadProperties(props)

        if let title = event.title { o.append("subject", title) }
        var body = JSONObject()
        if let html = read.htmlDescription {
            body.members.reserveCapacity(2)
            body.append("contentType", "html")
            body.append("content", html)
        } else if let notes = event.notes {
            body.members.reserveCapacity(2)
            body.append("contentType", "text")
            body.append("content", notes)
        }
        if !body.members.isEmpty { o.append("body", .object(body)) }

        // The start's zone name (it depends on the reference alone) is looked up once, for the
        // start, an end in the same reference, the original zones and the pattern: each look-up
        // resolves the name (~1,700 instructions).
        let startZone = event.start.flatMap(zoneName)
        if let start = event.start {
            o.append("start", dateTimeTimeZone(start, zone: startZone))
            if let end = event.effectiveEnd {
                let moved = Self.end(end, inReferenceOf: start)
                o.append("end", dateTimeTimeZone(moved, zone: moved.reference == start.reference ? startZone : zoneName(moved)))
            }
            if start.isDateOnly { o.append("isAllDay", .bool(true)) }
            if let zone = startZone, !start.isDateOnly {
                o.append("originalStartTimeZone", zone)
                o.append("originalEndTimeZone", zone)
            }
        }
        if let recurrence {
            var r = recurrence
            if r.range.timeZone == nil, let start = event.start, !start.isDateOnly { r.range.timeZone = startZone }
            o.append("recurrence", .object(GraphRecurrence.json(r)))
        }

        let vlocations = event.components.filter { $0.name == "VLOCATION" }
        if event.location != nil || !vlocations.isEmpty || event.geo != nil {
            var locations = vlocations.map(location)
            if locations.isEmpty, let geo = event.geo {
                var l = JSONObject()
                if let name = event.location { l.append("displayName", name) }
                l.append("coordinates", .object(coordinates(geo.latitude, geo.longitude)))
                locations = [l]
            }
            var primary = locations.count == 1 ? locations[0] : JSONObject()
            primary.set("displayName", event.location.map { .string($0) } ?? primary["displayName"])
            if !primary.members.isEmpty { o.append("location", .object(primary)) }
            if !vlocations.isEmpty { o.append("locations", .array(locations.map { .object($0) })) }
        }

        if let organizer = event.organizer, let r = recipient(organizer) { o.append("organizer", .object(r)) }
        var attendees: [JSONValue] = []
        // Sized once (grown one by one, a meeting's list was reallocated two or three times).
        if !event.attendees.isEmpty { attendees.reserveCapacity(event.attendees.count) }
        var expectsReply: Bool?
        for a in event.attendees {
            guard var r = recipient(a, members: 4) else { continue }
            let isResource = a.type == .room || a.type == .resource || a.role == .nonParticipant
            r.append("type", isResource ? "resource" : (a.role.flatMap { vocabulary.word(for: $0) } ?? "required"))
            if let status = a.status, let word = vocabulary.word(for: status) {
                var s = JSONObject()
                s.append("response", word)
                r.append("status", .object(s))
            }
            let proposedStart = a.extraParameters.first { $0.name == GraphPropertyNames.proposedStart }?.value
            let proposedEnd = a.extraParameters.first { $0.name == GraphPropertyNames.proposedEnd }?.value
            if let proposedStart, let proposedEnd, let s = GraphDateTimes.timestamp(proposedStart), let e = GraphDateTimes.timestamp(proposedEnd) {
                var p = JSONObject()
                p.append("start", dateTimeTimeZone(s))
                p.append("end", dateTimeTimeZone(e))
                r.append("proposedNewTime", .object(p))
            }
            if let reply = a.expectsReply { expectsReply = (expectsReply ?? false) || reply }
            attendees.append(.object(r))
        }
        if !attendees.isEmpty { o.append("attendees", .array(attendees)) }
        if let expectsReply { o.append("responseRequested", .bool(expectsReply)) }

        let busy = read.busyStatus.flatMap { ExchangeBusyStatus(cdo: $0) }
            ?? ExchangeBusyStatus(availability: event.busyStatus, transparency: event.transparency)
        if read.hasBusyStatus || event.transparency != nil || event.busyStatus != nil {
            o.append("showAs", busy.graph)
        }
        if event.classification != nil || read.hasSensitivity {
            if let s = ExchangeSensitivity(classification: event.classification, keptWord: read.sensitivity)
            {
                o.append("sensitivity", s.graph)
            }
        }
        if let priority = event.priority, priority != 0 { o.append("importance", ExchangeImportance(priority: priority).graph) }

        // Graph has one reminder, minutes before the start.
        let reminder = event.alarms.first { alarm in
            if case .relative(let d, relativeToEnd: false)? = alarm.trigger, d.totalSeconds <= 0, d.totalSeconds % 60 == 0 { return true }
            return false
        }
        if let reminder, case .relative(let d, _)? = reminder.trigger {
            o.append("isReminderOn", .bool(true))
            o.append("reminderMinutesBeforeStart", .number(String(-d.totalSeconds / 60)))
        } else if event.start != nil {
            o.append("isReminderOn", .bool(false))
        }
        let categories = event.item.allCategories
        if !categories.isEmpty { o.append("categories", .array(categories.map { .string($0) })) }
        if let disallow = read.disallowCounter {
            o.append("allowNewTimeProposals", .bool(disallow.uppercased() != "TRUE"))
        }
        if let provider = read.onlineMeetingProvider {
            o.append("isOnlineMeeting", .bool(true))
            o.append("onlineMeetingProvider", provider)
        }
        if let transaction = read.transactionID { o.append("transactionId", transaction) }
        return o
    }

    private func coordinates(_ latitude: Double, _ longitude: Double) -> JSONObject {
        var c = JSONObject()
        c.append("latitude", .number(JSONNumber.text(latitude)))
        c.append("longitude", .number(JSONNumber.text(longitude)))
        return c
    }

    /// An RFC 9073 VLOCATION as Graph's `location`.
    private func location(_ c: Component) -> JSONObject {
        var l = JSONObject()
        func text(_ name: String) -> String? { c.property(name).flatMap(Self.text) }
        if let name = text("NAME") { l.append("displayName", name) }
        if let type = text(GraphPropertyNames.locationType) { l.append("locationType", type) }
        if let id = text("UID") { l.append("uniqueId", id) }
        if let mail = text(GraphPropertyNames.locationEmail) { l.append("locationEmailAddress", mail) }
        if let url = text("URL") { l.append("locationUri", url) }
        var address = JSONObject()
        for (member, name) in GraphPropertyNames.addressParts { if let v = text(name) { address.append(member, v) } }
        if !address.members.isEmpty { l.append("address", .object(address)) }
        if case .geo(let lat, let lon)? = c.property("GEO")?.value { l.append("coordinates", .object(coordinates(lat, lon))) }
        return l
    }
}

/// Numbers as JSON text, the shortest that reads back as the same Double.
enum JSONNumber {
    static func text(_ value: Double) -> String {
        var t = value.description
        if t.hasSuffix(".0") { t.removeLast(2) }
        return t
    }
}
