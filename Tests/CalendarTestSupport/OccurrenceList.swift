import CalendarModel
import Conversion
import ICSFormat
import Recurrence
import TimeZones

/// What a calendar says at each of its occurrences, as sorted lines two readings can be
/// compared by: every event's series expanded to a horizon (bounded), each occurrence its start
/// and end instants, title and attendee addresses, and, when asked, more of what the occurrence
/// carries. Floating times count as UTC on both sides; an override without its series in the
/// calendar counts as the one occurrence it states.
public enum OccurrenceList {
    /// What the lines say beyond instants, title and attendee addresses.
    public struct Facets: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Each attendee's participation status and role beside the address.
        public static let attendeeWords = Facets(rawValue: 1)
        /// One more line per occurrence and field for the fields the Exchange formats map
        /// (`mappedFieldNames`): `<start>-<end>`, a tab, `<FIELD>=<value>`.
        public static let mappedFields = Facets(rawValue: 2)
    }

    /// The fields `Facets.mappedFields` adds, named as iCalendar names them.
    public static let mappedFieldNames = [
        "LOCATION", "DESCRIPTION", "CATEGORIES", "STATUS", "TRANSP", "CLASS", "PRIORITY", "VALARM", "ORGANIZER",
    ]

    /// Occurrences are listed up to the start of this year.
    public static let horizonYear = 2036

    /// The events of ICS bytes, in order, their times on today's tz data as a conversion run
    /// puts them (`TimeZoneNormalizer`: a TZID that names no zone by itself is read through the
    /// file's VTIMEZONE), so that instants are what the file means.
    public static func events(ofICS bytes: [UInt8], name: String = "input") throws -> [Event] {
        let log = DiagnosticLog()
        var reader = ICSFormat().makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: log)
        let normalizer = try TimeZoneNormalizer(options: TimeZoneOptions(), file: name, log: log)
        var events: [Event] = []
        func keep(_ element: CalendarStreamElement) {
            if case .entry(.event(let event), _) = element { events.append(event) }
        }
        while let element = try reader.next() { normalizer.process(element, emit: keep) }
        normalizer.finish(emit: keep)
        return events
    }

    /// The occurrences of every event of ICS bytes (at most `limit` per series), sorted;
    /// `fields` gives the values of `mappedFieldNames` (as a format holds them, when given).
    public static func lines(
        ofICS bytes: [UInt8], facets: Facets = [], limit: Int = 500, fields: (Event) -> [String] = mappedFields(of:)
    ) throws -> [String] {
        var result: [String] = []
        let events = try events(ofICS: bytes)
        var overrides: [String: [Event]] = [:]
        for event in events where event.item.recurrenceID != nil { overrides[event.item.uid ?? "", default: []].append(event) }
        let horizon = CalendarDate(year: horizonYear, month: 1, day: 1).daysSinceEpoch * 86_400
        // An override whose series is not in the calendar still happens: it is listed on its own.
        let series = Set(events.filter { $0.item.recurrenceID == nil }.map { $0.item.uid ?? "" })
        var listed = events.filter { $0.item.recurrenceID == nil }.map { ($0, overrides[$0.item.uid ?? ""] ?? []) }
        for event in events where event.item.recurrenceID != nil && !series.contains(event.item.uid ?? "") {
            var alone = event
            alone.item.recurrenceID = nil
            listed.append((alone, []))
        }
        for (event, own) in listed {
            guard event.item.start != nil else { continue }
            let set = try RecurrenceSet(
                master: event.item, extent: event.occurrenceExtent,
                overrides: own.map { .init(item: $0.item, extent: $0.occurrenceExtent) },
                options: RecurrenceOptions(maxOccurrences: limit, floatingTimeZone: "UTC"))
            for o in set.occurrences(to: horizon).occurrences {
                let source: Event
                switch o.source {
                case .master: source = event
                case .override(let i): source = own[i]
                }
                let people = source.item.attendees.compactMap { a -> String? in
                    // An address written without `mailto:` (`ATTENDEE;CUTYPE=ROOM:conf@example.com`)
                    // is the same mailbox that EWS gives back with its SMTP routing type.
                    let bare = a.url.contains("@") && !a.url.contains(":") ? a.url : nil
                    guard let address = (a.emailAddress ?? bare)?.lowercased() else { return nil }
                    guard facets.contains(.attendeeWords) else { return address }
                    return "\(address)/\(a.status.map(word) ?? "-")/\(a.role.map(word) ?? "-")"
                }.sorted().joined(separator: ",")
                let when = "\(o.startInstant)-\(o.endInstant)"
                result.append("\(when) \(source.item.title ?? "") [\(people)]")
                if facets.contains(.mappedFields) {
                    for (name, value) in zip(mappedFieldNames, fields(source)) where !value.isEmpty {
                        result.append("\(when)\t\(name)=\(value)")
                    }
                }
            }
        }
        return result.sorted()
    }

    /// The values of `mappedFieldNames` for one event (empty when the event has none).
    public static func mappedFields(of event: Event) -> [String] {
        let item = event.item
        let alarms = item.alarms.map { alarm -> String in
            switch alarm.trigger {
            case .relative(let d, let toEnd)?: "\(d.totalSeconds)s\(toEnd ? " from end" : "")"
            case .absolute(let t)?: "at \(t)"
            case nil: "no trigger"
            }
        }
        return [
            item.location ?? "", item.notes ?? "", item.allCategories.joined(separator: ","), item.status.map { "\($0)" } ?? "",
            event.transparency?.uppercased() ?? "", item.classification.map { "\($0)" } ?? "", item.priority.map(String.init) ?? "",
            alarms.sorted().joined(separator: ","), item.organizer?.emailAddress?.lowercased() ?? "",
        ]
    }

    /// The mapped field a line states, or nil for an occurrence's own line.
    public static func field(ofLine line: String) -> String? {
        let parts = line.split(separator: "\t", maxSplits: 1)
        guard parts.count == 2, let equals = parts[1].firstIndex(of: "=") else { return nil }
        let name = String(parts[1][..<equals])
        return mappedFieldNames.contains(name) ? name : nil
    }

    private static func word(_ value: some Hashable) -> String { "\(value)" }
}
