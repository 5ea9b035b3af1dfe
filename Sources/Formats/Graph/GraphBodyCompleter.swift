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

    /// The text of a body that is not a series.
    func single(_ body: JSONObject, original: Event) -> [UInt8] {
        JSONOutput.rendered(.object(completed(body, original: original, rebuild: { decoded in decoded.event })))
    }

    /// The text of a series' body: the master's `body` with its `exceptions` (override bodies,
    /// each with its event) as `exceptionOccurrences`.
    func series(
        _ body: JSONObject, master: Event, start: CalendarDateTime, exceptions: [(body: JSONObject, event: Event)]
    ) -> [UInt8] {
        var body = body
        let completedExceptions: [JSONValue] = exceptions.map { exception in
            .object(
                completed(exception.body, original: exception.event) { decoded in
                    GraphSeriesGrouper.override(decoded, uid: master.uid, seriesStart: start) ?? decoded.event
                })
        }
        if !completedExceptions.isEmpty { body.append("exceptionOccurrences", .array(completedExceptions)) }
        return JSONOutput.rendered(.object(completed(body, original: master, rebuild: { decoded in GraphSeriesGrouper.master(decoded) })))
    }

    /// The body with what it cannot say kept in calport's extended property.
    private func completed(_ body: JSONObject, original: Event, rebuild: (GraphEvent) -> Event) -> JSONObject {
        let decoder = GraphEventDecoder(
            file: file, line: 0, strict: false, log: DiagnosticLog(), vocabulary: vocabulary, mapper: mapper)
        var remainder = ICalendarRemainder()
        let source = mapper.component(from: .event(original))
        if let decoded = try? decoder.event(body, path: "") {
            let rebuilt = Self.spellingZones(of: rebuild(decoded), as: original)
            remainder = .between(original: source, reconstructed: mapper.component(from: .event(rebuilt)))
        } else {
            remainder.properties = source.properties
            remainder.components = source.components
            remainder.replaces = ["*"]
        }
        guard !remainder.isEmpty else { return body }
        var result = body
        var property = JSONObject()
        property.append("id", GraphRemainder.propertyID)
        property.append("value", GraphRemainder.text(remainder))
        result.append("singleValueExtendedProperties", .array([.object(property)]))
        return result
    }

    /// `rebuilt` with its zones named as `original` names them where both names mean one zone
    /// (the body says `Pacific Standard Time` for `America/Los_Angeles`): a name is no loss.
    private static func spellingZones(of rebuilt: Event, as original: Event) -> Event {
        let names = Set(
            [original.start, original.end, original.recurrenceID].compactMap { $0?.reference.zoneIdentifier }
                + original.exceptionDates.flatMap { $0.dates.compactMap(\.reference.zoneIdentifier) })
        guard !names.isEmpty else { return rebuilt }
        func respelled(_ v: CalendarDateTime?) -> CalendarDateTime? {
            guard var v, case .zone(let z) = v.reference, !names.contains(z) else { return v }
            if let same = names.first(where: { GraphDateTimes.sameZone($0, z) }) { v.reference = .zone(same) }
            return v
        }
        var e = rebuilt
        e.start = respelled(e.start)
        e.end = respelled(e.end)
        e.recurrenceID = respelled(e.recurrenceID)
        e.exceptionDates = e.exceptionDates.map { list in
            var l = list
            l.dates = l.dates.map { respelled($0) ?? $0 }
            return l
        }
        return e
    }
}
