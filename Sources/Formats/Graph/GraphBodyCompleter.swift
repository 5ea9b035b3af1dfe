import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Finishes the Graph writer's bodies: finds what a body cannot say about its event by reading
/// the body back and comparing (`ICalendarRemainder`), keeps that in calport's extended property
/// (`GraphRemainder`), and renders the body as JSON text. It needs nothing of the writer's state
/// and reports nothing (the encoder's losses are reported when the body is made), so the writer
/// can run it on worker threads.
struct GraphBodyCompleter {
    /// The output's name, for the decoder that reads bodies back.
    let file: String
    let vocabulary: ParticipantVocabulary
    let mapper: ICalendarMapper
    /// Events with this many generic properties or more are checked in two parts (`kept`).
    var manyProperties = 256
    /// The last long property list checked, with what it kept: the occurrences of one expanded
    /// series share their list.
    private let lastLongList = GraphKeptListMemo()

    init(file: String, vocabulary: ParticipantVocabulary, mapper: ICalendarMapper) {
        self.file = file
        self.vocabulary = vocabulary
        self.mapper = mapper
    }

    /// The text of a body that is not a series.
    func single(_ body: JSONObject, original: Event) -> [UInt8] {
        Self.rendered(body, kept: kept(body, original: original, rebuild: { decoded in decoded.event }))
    }

    /// The text of a series' body: the master's `body` with its `exceptions` (override bodies,
    /// each with its event) as `exceptionOccurrences`; `firstOccurrence` is the series' first
    /// occurrence as the writer found it (`GraphSeriesGrouper.master`).
    func series(
        _ body: JSONObject, master: Event, start: CalendarDateTime, exceptions: [(body: JSONObject, event: Event)],
        firstOccurrence: GraphSeriesGrouper.FoundFirstOccurrence? = nil
    ) -> [UInt8] {
        var body = body
        let completedExceptions: [JSONValue] = exceptions.map { exception in
            let kept = self.kept(exception.body, original: exception.event) { decoded in
                guard let original = GraphSeriesGrouper.originalStart(of: decoded) else { return decoded.event }
                return GraphSeriesGrouper.override(decoded, at: original, uid: master.uid, seriesStart: start)
            }
            guard !kept.isEmpty else { return .object(exception.body) }
            var result = exception.body
            result.append("singleValueExtendedProperties", .array([.object(Self.extendedProperty(.string(String(decoding: kept.text(), as: UTF8.self))))]))
            return .object(result)
        }
        if !completedExceptions.isEmpty { body.append("exceptionOccurrences", .array(completedExceptions)) }
        return Self.rendered(body, kept: kept(body, original: master, rebuild: { decoded in GraphSeriesGrouper.master(decoded, found: firstOccurrence) }))
    }

    /// What the check found a body cannot say: `remainder`, whose kept properties go on with
    /// those `list` kept (a long list kept by many occurrences, rendered once).
    struct Kept {
        var remainder = ICalendarRemainder()
        var list: GraphKeptListMemo.Entry?

        var isEmpty: Bool { remainder.isEmpty && (list?.renderedProperties.isEmpty ?? true) }

        /// The remainder as compact JSON text.
        func text() -> [UInt8] {
            var out = JSONOutput(capacity: 1024 + (list?.renderedProperties.count ?? 0))
            out.remainder(remainder, renderedProperties: list?.renderedProperties ?? [])
            return out.bytes
        }

        /// Writes the remainder's text as a string value.
        func write(to out: inout JSONOutput) {
            out.stringOfJSON { $0.remainder(remainder, renderedProperties: list?.escapedProperties ?? []) }
        }
    }

    private static func extendedProperty(_ value: JSONValue) -> JSONObject {
        var property = JSONObject()
        property.append("id", GraphRemainder.propertyID)
        property.append("value", value)
        return property
    }

    /// `body` as text, with what it cannot say kept in calport's extended property: the kept
    /// text is escaped as it is written (made as a String and escaped after, it cost ~15% of
    /// a body).
    private static func rendered(_ body: JSONObject, kept: Kept) -> [UInt8] {
        guard !kept.isEmpty else { return JSONOutput.rendered(.object(body)) }
        var out = JSONOutput(capacity: 4096 + 2 * (kept.list?.escapedProperties.count ?? 0))
        out.beginObject()
        for m in body.members {
            out.key(m.key)
            out.value(m.value)
        }
        out.key("singleValueExtendedProperties")
        out.beginArray()
        out.beginObject()
        out.key("id")
        out.string(GraphRemainder.propertyID)
        out.key("value")
        kept.write(to: &out)
        out.endObject()
        out.endArray()
        out.endObject()
        return out.bytes
    }

    /// What `body` cannot say about `original`: it is read back, and the iCalendar of what it
    /// reads as (`rebuild`) is compared with the original's (`ICalendarRemainder`).
    ///
    /// An event with a long list of generic properties (a mutant gave one 25,000 repeated X-
    /// lines; expanded, every occurrence carries them) is compared in two parts when no name
    /// is in both: its typed fields, and its generic properties against the body's. The
    /// mapper writes the generic properties after the typed fields, so the names come in the
    /// same order and the remainder is the same as from one comparison; the second part is
    /// remembered for the list, so occurrences sharing it cost no more than a short one.
    ///
    /// The body read back is handed on (`rebuild` takes it, `spellingZones` changes what it
    /// gives in place): each copy kept alive beside another made the next change copy the
    /// event's fields, and freeing the copies cost more than making them.
    private func kept(_ body: JSONObject, original: Event, rebuild: (consuming GraphEvent) -> Event) -> Kept {
        let decoder = GraphEventDecoder(
            file: file, line: 0, strict: false, log: DiagnosticLog(), vocabulary: vocabulary, mapper: mapper)
        guard let decoded = try? decoder.event(body, path: "") else {
            let source = mapper.component(from: .event(original))
            var remainder = ICalendarRemainder()
            remainder.properties = source.properties
            remainder.components = source.components
            remainder.replaces = ["*"]
            return Kept(remainder: remainder)
        }
        let rebuilt = Self.spellingZones(of: rebuild(consume decoded), as: original)
        if original.properties.count >= manyProperties, original.birthday == nil, rebuilt.birthday == nil {
            var originalFields = original
            originalFields.properties = []
            var rebuiltFields = rebuilt
            rebuiltFields.properties = []
            let source = mapper.component(from: .event(originalFields))
            let reconstructed = mapper.component(from: .event(rebuiltFields))
            let list = lastLongList.kept(original.properties, against: rebuilt.properties)
            let fieldNames = source.properties.map(\.name) + reconstructed.properties.map(\.name)
            if !fieldNames.contains(where: list.names.contains) {
                var remainder = ICalendarRemainder.between(original: source, reconstructed: reconstructed)
                remainder.replaces += list.replaces
                return Kept(remainder: remainder, list: list)
            }
        }
        return Kept(remainder: .between(original: original, reconstructed: rebuilt, mapper: mapper))
    }

    /// `rebuilt` with its zones named as `original` names them where both names mean one zone
    /// (the body says `Pacific Standard Time` for `America/Los_Angeles`): a name is no loss.
    private static func spellingZones(of rebuilt: consuming Event, as original: Event) -> Event {
        // This runs for every body. The times are read and changed on the items themselves
        // (through the event's key-path members each cost ~3,000 instructions), in place
        // (`rebuilt` is the only holder of its fields, see `kept`: nothing is copied), and a
        // name only where it changes; read out, respelled and set back, each time was copied
        // and freed twice.
        var spelling = ZoneSpelling()
        do {
            let item = original.item
            spelling.note(item.start)
            spelling.note(original.end)
            spelling.note(item.recurrenceID)
            for list in item.exceptionDates { for d in list.dates { spelling.note(d) } }
        }
        guard !spelling.names.isEmpty else { return rebuilt }
        guard
            spelling.isUnnamed(rebuilt.item.start) || spelling.isUnnamed(rebuilt.end) || spelling.isUnnamed(rebuilt.item.recurrenceID)
                || rebuilt.item.exceptionDates.contains(where: { $0.dates.contains(where: { spelling.isUnnamed($0) }) })
        else { return rebuilt }
        spelling.respell(&rebuilt.item.start)
        spelling.respell(&rebuilt.end)
        spelling.respell(&rebuilt.item.recurrenceID)
        for i in rebuilt.item.exceptionDates.indices {
            for j in rebuilt.item.exceptionDates[i].dates.indices { spelling.respell(&rebuilt.item.exceptionDates[i].dates[j]) }
        }
        return rebuilt
    }

    /// The names an original event gives its zones, and a rebuilt event's names spelled as
    /// those (`spellingZones`).
    private struct ZoneSpelling {
        /// A few names, in order (start, end, recurrence id, exception dates): looked through,
        /// not hashed.
        var names: [String] = []
        /// The last name looked for, with its match: the start, end and the rest mostly name
        /// one zone, whose match is looked for once (each look resolves two names).
        var looked: (zone: String, same: String?)?

        mutating func note(_ v: CalendarDateTime?) {
            if case .zone(let z)? = v?.reference, !names.contains(z) { names.append(z) }
        }

        /// Whether `v` names a zone the original does not.
        func isUnnamed(_ v: CalendarDateTime?) -> Bool {
            guard case .zone(let z)? = v?.reference else { return false }
            return !names.contains(z)
        }

        mutating func respell(_ v: inout CalendarDateTime?) {
            if v != nil { respell(&v!) }
        }

        /// Names `v`'s zone as the original does, where the original names that zone.
        mutating func respell(_ v: inout CalendarDateTime) {
            guard case .zone(let z) = v.reference, !names.contains(z) else { return }
            let same: String?
            if let looked, looked.zone == z {
                same = looked.same
            } else {
                same = names.first { GraphDateTimes.sameZone($0, z) }
                looked = (z, same)
            }
            if let same { v.reference = .zone(same) }
        }
    }
}
