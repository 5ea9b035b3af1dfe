import CalDAVFormat
import CalendarModel
import ICalendarData

/// The components of one UID (a series with its overrides, or one item): what one CalDAV
/// resource holds (RFC 4791 §4.1), with the time zones it uses and what decides conflicts.
struct CalDAVItemGroup {
    /// The UID every component shares.
    var uid: String
    /// The components in the order read (time zones apart).
    var entries: [CalendarEntry]
    /// Where the first component was read, for reports.
    var place: String

    /// SEQUENCE and LAST-MODIFIED of the master (or the first component): `--on-conflict newer`
    /// ranks versions by these, as `--merge` does.
    var rank: (sequence: Int, lastModified: Int?) {
        let master = entries.first { $0.item?.recurrenceID == nil } ?? entries.first
        return (master?.item?.sequence ?? 0, master?.item?.lastModified?.wallSecondsSinceEpoch)
    }

    /// Sets SCHEDULE-AGENT=CLIENT on ORGANIZER and every ATTENDEE (RFC 6638 §7.1), so a
    /// scheduling server sends no invitation for a migrated meeting; and drops what a pull
    /// added (href and etag of another server).
    mutating func prepareForPush(sendInvitations: Bool) {
        entries = entries.map { entry in
            var entry = entry
            entry.modifyItem { item in
                item.properties.removeAll { $0.name == CalDAVProperty.href || $0.name == CalDAVProperty.etag }
                guard !sendInvitations else { return }
                if var organizer = item.organizer {
                    Self.clientScheduled(&organizer)
                    item.organizer = organizer
                }
                for i in item.attendees.indices { Self.clientScheduled(&item.attendees[i]) }
            }
            return entry
        }
    }

    /// Drops exact copies of a component (the same item read twice) and says what is wrong when
    /// two different components claim the same occurrence (two series masters, or two
    /// overrides with one RECURRENCE-ID): one resource holds each occurrence once (RFC 4791
    /// §4.1), and choosing one would drop the other silently; `--merge` chooses the newest.
    mutating func dropIdenticalCopies() -> String? {
        // Fingerprints (a serialization each) only when an occurrence repeats: the common group has none.
        var occurrences = Set<CalendarDateTime?>()
        guard entries.contains(where: { $0.item.map { !occurrences.insert($0.recurrenceID).inserted } ?? false }) else { return nil }
        var seen: [CalendarDateTime?: String] = [:]
        var kept: [CalendarEntry] = []
        var clashes: [String] = []
        for entry in entries {
            guard let item = entry.item else {
                kept.append(entry)
                continue
            }
            let copy = (try? ICSText.fingerprint([entry])) ?? ""
            if let earlier = seen[item.recurrenceID] {
                let what = item.recurrenceID.map { "RECURRENCE-ID " + MergeIndex.text($0) } ?? "the series master"
                if earlier != copy && !clashes.contains(what) { clashes.append(what) }
                continue
            }
            seen[item.recurrenceID] = copy
            kept.append(entry)
        }
        entries = kept
        guard !clashes.isEmpty else { return nil }
        return "different components of UID \(uid) for the same occurrence (\(clashes.joined(separator: ", "))): "
            + "a resource holds each once; --merge keeps the newest of them"
    }

    private static func clientScheduled(_ p: inout Participant) {
        p.extraParameters.removeAll { $0.name == "SCHEDULE-AGENT" }
        p.extraParameters.append(Parameter(name: "SCHEDULE-AGENT", values: ["CLIENT"]))
    }

    /// The resource's iCalendar text: a VCALENDAR with the zones its components name (only
    /// those: Radicale's PUT slows sharply with every zone of an archive) and the components.
    func calendarData(header: CalendarModel.Calendar, zones: [String: Component]) throws -> [UInt8] {
        let body = try ICSText.serialize(entries, header: nil)
        let used = ICSText.referencedZones(body).sorted().compactMap { zones[$0] }.map { CalendarEntry.timeZone($0) }
        var calendar = CalendarModel.Calendar()
        calendar.productID = header.productID ?? "-//calport//CalDAV push//EN"
        calendar.version = "2.0"
        calendar.scale = header.scale
        return try ICSText.serialize(used + entries, header: calendar)
    }

    /// What "equal" means between this group and a server's copy: the components' iCalendar
    /// text as calport writes it, property and parameter order ignored, DTSTAMP, scheduling
    /// parameters and calport's own X-CALDAV properties left out. Servers rewrite what they
    /// store (order, folding, VTIMEZONE definitions), so bytes never decide.
    var fingerprint: String { (try? ICSText.fingerprint(entries)) ?? "" }
}

extension CalendarEntry {
    /// Runs `change` on the entry's item (events and reminders); other entries stay.
    mutating func modifyItem(_ change: (inout CalendarItem) -> Void) {
        switch self {
        case .event(var e):
            change(&e.item)
            self = .event(e)
        case .reminder(var r):
            change(&r.item)
            self = .reminder(r)
        case .timeZone, .other:
            break
        }
    }
}

/// iCalendar text through the registered `ics` format: serializing components, finding the
/// zones they name, reading a server's resource back, and the semantic fingerprint.
enum ICSText {
    static func serialize(_ entries: [CalendarEntry], header: CalendarModel.Calendar?) throws -> [UInt8] {
        let sink = MemoryByteSink()
        var writer = StandardFormats.registry.format(id: "ics")!.makeWriter(
            sink: sink, options: WriteOptions(destinationName: "-"), log: DiagnosticLog())
        if let header { try writer.write(.beginCalendar(header)) }
        for entry in entries { try writer.write(.entry(entry, line: 0)) }
        if header != nil { try writer.write(.endCalendar(trailingProperties: [])) }
        try writer.finish()
        return sink.bytes
    }

    /// The zone ids that TZID parameters name in `bytes`.
    static func referencedZones(_ bytes: [UInt8]) -> Set<String> {
        VdirRouter.referencedZones(bytes)
    }

    /// The entries of a resource's text (time zones included), read leniently.
    static func read(_ text: String, name: String) throws -> [CalendarEntry] {
        var reader = StandardFormats.registry.format(id: "ics")!.makeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: name), log: DiagnosticLog())
        var out: [CalendarEntry] = []
        while let element = try reader.next() {
            if case .entry(let entry, _) = element { out.append(entry) }
        }
        return out
    }

    static func fingerprint(_ entries: [CalendarEntry]) throws -> String {
        var components: [String] = []
        for entry in entries {
            if case .timeZone = entry { continue }
            var entry = entry
            entry.modifyItem { item in
                item.properties.removeAll { $0.name.hasPrefix("X-CALDAV-") }
                if var organizer = item.organizer {
                    organizer.extraParameters.removeAll { $0.name == "SCHEDULE-AGENT" || $0.name == "SCHEDULE-STATUS" }
                    item.organizer = organizer
                }
                for i in item.attendees.indices {
                    item.attendees[i].extraParameters.removeAll { $0.name == "SCHEDULE-AGENT" || $0.name == "SCHEDULE-STATUS" }
                }
            }
            let text = String(decoding: try serialize([entry], header: nil), as: UTF8.self)
            let lines = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
                .split(separator: "\r\n", omittingEmptySubsequences: true)
                .filter { !$0.hasPrefix("DTSTAMP") }
                .map(canonicalLine)
                .sorted()
            components.append(lines.joined(separator: "\n"))
        }
        return stableHash(components.sorted().joined(separator: "\n--\n"))
    }

    /// A content line with its parameters sorted (quoted values may hold ';' and ':').
    static func canonicalLine(_ line: Substring) -> String {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var value: Substring = ""
        var index = line.startIndex
        while index < line.endIndex {
            let c = line[index]
            if c == "\"" { quoted.toggle() }
            if !quoted && c == ":" {
                value = line[line.index(after: index)...]
                break
            }
            if !quoted && c == ";" {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
            index = line.index(after: index)
        }
        parts.append(current)
        let name = parts.removeFirst()
        // Xandikos (python icalendar) doubles backslashes in parameter values on storing;
        // parameters have no backslash escapes (RFC 5545 §3.2), so both spellings are one value.
        var parameters = parts.map { $0.replacingOccurrences(of: "\\\\", with: "\\") }
        // VALUE naming the property's default type says nothing, and readers and servers drop
        // or keep it (calport's ICS reader drops CONFERENCE's VALUE=URI, which a Graph event
        // carries): with it or without, one value.
        if let type = PropertyTable.defaultType(name.uppercased()) {
            parameters.removeAll { $0.uppercased() == "VALUE=" + type.rawValue }
        }
        return ([name] + parameters.sorted()).joined(separator: ";") + ":" + value
    }

    /// FNV-1a, 64 bits, as hex: the same in every process (Swift's Hasher is seeded per run,
    /// and journals outlive runs).
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
