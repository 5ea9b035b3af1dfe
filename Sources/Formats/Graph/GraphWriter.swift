import CalendarModel
import ExchangeData
import ICalendarData
import JCalCoding
import JSONCoding
import Recurrence

/// Writes Graph `POST /me/events` bodies: `{"value": [ … ]}`, one event a line, or with
/// `--graph-batch` JSON `$batch` request bodies of 20 requests each, one batch a line.
///
/// A series is one body: the master with its pattern (`recurrence`), its overrides as
/// `exceptionOccurrences` (with `originalStart`) and its EXDATEs as `cancelledOccurrences`
/// (`OID.<id>.<day>`). Overrides need their master, and they may come anywhere after or before
/// it: series wait in a window of `seriesWindow` UIDs (memory bounded by that, not by the
/// archive); an override whose series has left the window is written as an event of its own and
/// reported. A rule Graph's patterns cannot hold (several RRULEs, RDATE, BYHOUR, …) is written as
/// its occurrences, one event each, and reported.
///
/// What Graph's members cannot say (UID, STATUS, CONFERENCE, X- properties, further alarms, …)
/// is found by reading the body back and comparing (`ICalendarRemainder`), and kept in calport's
/// extended property (`GraphRemainder`), so ICS → Graph → ICS keeps it. Building the body, that
/// check and the rendering are most of a body's cost and need none of the writer's state
/// (`GraphEventEncoder`, `GraphBodyCompleter`): with `WriteOptions.concurrency` above 1 they run
/// on worker threads, and the bodies are written in order as they come back. Losses are found
/// apart (`GraphEventEncoder.losses`, a fraction of the cost) and reported when the body is
/// queued, on the writer's thread, so they come out as on one thread, among the reader's
/// warnings as before.
public struct GraphWriter: CalendarWriter {
    /// Series held at once, waiting for their overrides.
    public static let seriesWindow = 512
    /// Requests per `$batch` body (Graph's limit).
    public static let batchSize = 20
    /// Occurrences written for a rule Graph cannot hold and that has no end.
    public static let expansionLimit = 1000

    private var out: JSONOutput
    private let options: WriteOptions
    private let log: DiagnosticLog
    private let encoder: GraphEventEncoder
    private let completer: GraphBodyCompleter
    private let batch: Bool
    private var opened = false
    private var countInBatch = 0
    private var requestID = 0

    private struct Series {
        var master: Event?
        var line: Int
        var overrides: [Event] = []
    }

    private var series: [String: Series] = [:]
    /// What is still to be written, in input order: bodies of single events, and series by UID
    /// (written when they reach the head, so their overrides have had time to come).
    private enum Queued {
        /// Held as its JSON text, a fraction of its tree's size: up to `4 * seriesWindow` wait.
        case body(HeldBody)
        case series(String)
    }

    /// A body's text while it waits in the queue; filled by the job that completes the body,
    /// read once that job's output has been taken (so after the job ended).
    private final class HeldBody {
        var text: [UInt8] = []
    }

    /// What a body job hands back, to be written in order.
    private enum Made {
        /// A body to write now.
        case body([UInt8])
        /// A held body, completed by an earlier job, to write now.
        case held(HeldBody)
        /// Nothing to write (a body was completed into the queue).
        case nothing
    }

    /// Completes bodies off this thread when `options.concurrency` allows; nil: here. A pool
    /// job is a few body jobs (`bodyJobsPerPoolJob`), run in order.
    private let pool: OrderedWorkerPool<[() -> Made], [Made]>?
    /// Body jobs not yet handed to the pool.
    private var unsubmitted: [() -> Made] = []
    /// Body jobs handed to the pool as one: a pool job costs ~4,000 instructions of its own
    /// (locking, waking a worker, generic metadata), a tenth of a small body.
    private static let bodyJobsPerPoolJob = 4
    /// Pool jobs in flight per thread: enough to keep the workers busy, few enough that memory
    /// does not grow with the input.
    private static let jobsInFlightPerThread = 8
    private var queue: [Queued] = []
    private var queueHead = 0
    private var seriesCount = 0
    /// UIDs of series already written, kept while recent, to tell a late override from a stray one.
    private var reportedKinds: Set<String> = []
    /// The stream's VTIMEZONEs, for TZIDs that name no known zone.
    private var definitions = ExchangeZoneDefinitions()
    /// Calendars begun so far.
    private var calendarCount = 0

    /// A writer sending bytes to `sink`.
    public init(
        sink: ByteSink, options: WriteOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary, mapper: ICalendarMapper, batch: Bool
    ) {
        self.out = JSONOutput(sink: sink)
        self.options = options
        self.log = log
        self.encoder = GraphEventEncoder(vocabulary: vocabulary)
        self.completer = GraphBodyCompleter(file: options.destinationName, vocabulary: vocabulary, mapper: mapper)
        self.batch = batch
        if options.concurrency > 1 {
            pool = OrderedWorkerPool<[() -> Made], [Made]>(threads: options.concurrency - 1, name: "calport-graph-write") { jobs in
                jobs.map { $0() }
            }
        } else {
            pool = nil
        }
    }

    private func loss(_ field: String, _ message: String, line: Int? = nil) {
        log.loss(file: options.destinationName, line: line, field: field, message)
    }

    private mutating func lossOnce(_ field: String, _ message: String) {
        guard reportedKinds.insert(field + message).inserted else { return }
        loss(field, message)
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let c):
            calendarCount += 1
            if calendarCount == 2 {
                loss(
                    "calendars",
                    "Graph event bodies carry no calendar: the input's calendars are written as one list, so a UID used in two of them names one series"
                )
            }
            if c.title != nil || !c.properties.isEmpty {
                lossOnce(
                    "VCALENDAR",
                    "Graph event bodies carry no calendar: its name and properties are not written (POST them into the calendar you choose)"
                )
            }
        case .endCalendar:
            break
        case .entry(let entry, let line):
            switch entry {
            case .event(let e): try event(zoned(e, line: line), line: line)
            case .reminder: lossOnce("VTODO", "tasks are not Graph events (Microsoft To Do has its own API); left out")
            // Graph names zones; a definition serves a TZID that names no zone by itself.
            case .timeZone(let definition): definitions.add(definition)
            case .other(let c): lossOnce(c.name, "\(c.name) has no Graph counterpart; left out")
            }
        }
        try out.flushIfFull()
    }

    /// `e` with its times in zones Graph can name (`ExchangeZoneDefinitions`); a zone that could
    /// not be kept is reported.
    private mutating func zoned(_ e: Event, line: Int) -> Event {
        var lost: [String] = []
        let result = definitions.resolving(e, lost: &lost)
        for message in lost { loss("TZID", message, line: line) }
        return result
    }

    private mutating func event(_ e: Event, line: Int) throws {
        guard e.start != nil else {
            // Graph's events need a start (POST /me/events refuses one without, and so does the reader).
            loss("DTSTART", "an event without a start cannot be a Graph event; left out", line: line)
            return
        }
        let uid = e.uid ?? ""
        if e.recurrenceID != nil {
            if series[uid] == nil {
                queue.append(.series(uid))
                series[uid] = Series(master: nil, line: line)
                seriesCount += 1
            }
            series[uid]?.overrides.append(e)
        } else if e.item.hasRecurrenceRules, uid.isEmpty {
            // No override can name a series without a UID: it is complete as it comes.
            try writeSeries(e, overrides: [], line: line)
        } else if e.item.hasRecurrenceRules {
            if let waiting = series[uid], waiting.master == nil {
                series[uid]?.master = e
            } else {
                if series[uid] != nil { try flush(uid) }
                queue.append(.series(uid))
                series[uid] = Series(master: e, line: line)
                seriesCount += 1
            }
        } else if seriesCount == 0 && queueHead == queue.count {
            try writeSingle(e, line: line)
        } else {
            let held = HeldBody()
            // The losses found first and reported after: reporting them as they were found copied
            // the whole writer for the call.
            let (encoder, completer) = (self.encoder, self.completer)
            report(encoder.losses(e), line: line)
            try submit {
                held.text = completer.single(encoder.body(e, recurrence: nil), original: e)
                return .nothing
            }
            queue.append(.body(held))
        }
        while seriesCount > Self.seriesWindow || (seriesCount > 0 && queue.count - queueHead > 4 * Self.seriesWindow) {
            try writeHead()
        }
    }

    /// Writes what is at the head of the queue.
    private mutating func writeHead() throws {
        guard queueHead < queue.count else { return }
        let head = queue[queueHead]
        // Written entries stay in the array until it is compacted: drop the body now, so what
        // is held is what waits.
        queue[queueHead] = .series("")
        queueHead += 1
        if queueHead > 1024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        switch head {
        case .body(let held): try submit { .held(held) }
        case .series(let uid): try flush(uid)
        }
    }

    /// Writes a waiting series and forgets it.
    private mutating func flush(_ uid: String) throws {
        guard let s = series.removeValue(forKey: uid) else { return }
        seriesCount -= 1
        guard let master = s.master else {
            loss(
                "RECURRENCE-ID",
                "\(s.overrides.count) override(s) of \(uid) without their series in reach: written as events of their own", line: s.line)
            for o in s.overrides {
                var single = o
                single.recurrenceID = nil
                try writeSingle(single, line: s.line)
            }
            return
        }
        try writeSeries(master, overrides: s.overrides, line: s.line)
    }

    private mutating func writeSingle(_ e: Event, line: Int) throws {
        let (encoder, completer) = (self.encoder, self.completer)
        report(encoder.losses(e), line: line)
        try submit { .body(completer.single(encoder.body(e, recurrence: nil), original: e)) }
    }

    private mutating func writeSeries(_ master: Event, overrides: [Event], line: Int) throws {
        guard let start = master.start else {
            try writeSingle(master, line: line)
            return
        }
        var recurrence: ExchangeRecurrence?
        var found: GraphSeriesGrouper.FoundFirstOccurrence?
        var why: String?
        if master.recurrenceRules.count != 1 {
            why = "\(master.recurrenceRules.count) RRULEs"
        } else if !master.recurrenceDates.isEmpty {
            why = "RDATE"
        } else {
            do {
                let r = try ExchangeRecurrence(rule: master.recurrenceRules[0], start: start)
                if let reason = r.unrepresentableReason(in: .graph) {
                    why = reason
                } else {
                    // Found once: the body's read-back needs it too.
                    let first = r.firstOccurrence(start: start)
                    if let reason = ExchangeRecurrence.offPatternReason(start: start, firstOccurrence: first) {
                        why = reason
                    } else {
                        recurrence = r
                        found = first.map { GraphSeriesGrouper.FoundFirstOccurrence(recurrence: r, start: start, first: $0) }
                    }
                }
            } catch let error as ExchangeRecurrence.Unrepresentable {
                why = error.reason
            } catch {
                why = "\(error)"
            }
        }
        guard let recurrence else {
            try expand(master, overrides: overrides, reason: why ?? "", line: line)
            return
        }
        var losses = encoder.losses(master)
        // Overrides Graph can place (those with a time it can name), with that time.
        var placed: [(event: Event, originalStart: String)] = []
        for o in overrides {
            guard let rid = o.recurrenceID, let original = GraphDateTimes.timestampText(rid) else { continue }
            if o.recurrenceAppliesToFuture {
                losses.append(
                    .init(
                        field: "RECURRENCE-ID",
                        message: "RANGE=THISANDFUTURE of \(master.uid ?? "") is written as one exception (Graph has none)"))
            }
            losses += encoder.losses(o)
            placed.append((o, original))
        }
        report(losses, line: line)
        let (encoder, completer, firstOccurrence) = (self.encoder, self.completer, found)
        try submit {
            let (body, exceptions) = Self.seriesBody(master, start: start, recurrence: recurrence, overrides: placed, encoder: encoder)
            return .body(completer.series(body, master: master, start: start, exceptions: exceptions, firstOccurrence: firstOccurrence))
        }
    }

    /// The body of a series' master, with its EXDATEs as `cancelledOccurrences`, and the bodies
    /// of its placed overrides (each with its `originalStart`), not yet completed.
    private static func seriesBody(
        _ master: Event, start: CalendarDateTime, recurrence: ExchangeRecurrence, overrides: [(event: Event, originalStart: String)],
        encoder: GraphEventEncoder
    ) -> (body: JSONObject, exceptions: [(body: JSONObject, event: Event)]) {
        var body = encoder.body(master, recurrence: recurrence)
        // EXDATEs: the days they fall on in the series' zone.
        var cancelled: [JSONValue] = []
        let owner =
            master.properties.first { $0.name == ExchangeProperties.graphID }.flatMap { p -> String? in
                if case .text(let t) = p.value { return t.first }
                return nil
            } ?? master.uid ?? ""
        for list in master.exceptionDates {
            for d in list.dates {
                let day =
                    d.isDateOnly || d.reference == start.reference
                    ? d.date : GraphDateTimes.utc(d).map { GraphSeriesGrouper.recurrenceID($0, seriesStart: start).date } ?? d.date
                cancelled.append(.string("OID.\(owner).\(ISO8601Text.date(day))"))
            }
        }
        if !cancelled.isEmpty { body.append("cancelledOccurrences", .array(cancelled)) }
        let exceptions = overrides.map { o -> (body: JSONObject, event: Event) in
            var e = encoder.body(o.event, recurrence: nil)
            e.append("originalStart", o.originalStart)
            return (e, o.event)
        }
        return (body, exceptions)
    }

    /// A series Graph's patterns cannot hold, written as its occurrences.
    private mutating func expand(_ master: Event, overrides: [Event], reason: String, line: Int) throws {
        let extent: OccurrenceExtent = master.end.map { .end($0) } ?? master.duration.map { .duration($0) } ?? .none
        let set: RecurrenceSet
        do {
            set = try RecurrenceSet(master: master.item, extent: extent, options: RecurrenceOptions(maxOccurrences: Self.expansionLimit))
        } catch {
            loss("RRULE", "\(master.uid ?? ""): the rule cannot be expanded (\(error)); written without it", line: line)
            var single = master
            single.recurrenceRules = []
            single.recurrenceDates = []
            try writeSingle(single, line: line)
            return
        }
        let moved = Set(overrides.compactMap { $0.recurrenceID.flatMap(GraphDateTimes.utc)?.wallSecondsSinceEpoch })
        var iterator = set.makeIterator()
        var count = 0
        while count < Self.expansionLimit, let occurrence = iterator.next() {
            count += 1
            if let rid = GraphDateTimes.utc(occurrence.recurrenceID), moved.contains(rid.wallSecondsSinceEpoch) { continue }
            var single = master
            single.recurrenceRules = []
            single.recurrenceDates = []
            single.exceptionDates = []
            single.start = occurrence.start
            single.end = occurrence.end
            single.duration = nil
            single.recurrenceID = occurrence.recurrenceID
            try writeSingle(single, line: line)
        }
        for o in overrides { try writeSingle(o, line: line) }
        let more = iterator.next() != nil ? " (the first \(Self.expansionLimit))" : ""
        loss("RRULE", "\(master.uid ?? ""): \(reason) has no Graph pattern: written as \(count) separate events\(more)", line: line)
    }

    private func report(_ losses: [GraphEventEncoder.Loss], line: Int) {
        for l in losses { loss(l.field, l.message, line: line) }
    }

    /// Runs `job` (here, or on a worker) and writes what it made, in the order of the calls;
    /// with workers, waits for the oldest jobs while too many are in flight.
    private mutating func submit(_ job: @escaping () -> Made) throws {
        guard pool != nil else { return try put(job()) }
        unsubmitted.append(job)
        if unsubmitted.count == Self.bodyJobsPerPoolJob { try submitUnsubmitted() }
    }

    /// Hands the body jobs not yet submitted to the pool as one job.
    private mutating func submitUnsubmitted() throws {
        guard let pool, !unsubmitted.isEmpty else { return }
        pool.submit(unsubmitted)
        unsubmitted = []
        while pool.pending >= Self.jobsInFlightPerThread * options.concurrency { try put(pool.next()) }
    }

    private mutating func put(_ made: [Made]) throws {
        for m in made { try put(m) }
    }

    /// Writes what a body job made.
    private mutating func put(_ made: Made) throws {
        switch made {
        case .body(let text): try emit { $0.rawValue(text) }
        case .held(let held):
            try emit { $0.rawValue(held.text) }
            held.text = []
        case .nothing: break
        }
    }

    /// Writes one body, which `writeBody` writes as a value.
    private mutating func emit(_ writeBody: (inout JSONOutput) -> Void) throws {
        if batch {
            if countInBatch == 0 {
                out.beginObject()
                out.key("requests")
                out.beginArray()
            }
            countInBatch += 1
            requestID += 1
            out.beginObject()
            out.key("id")
            out.string(String(countInBatch))
            out.key("method")
            out.string("POST")
            out.key("url")
            out.string("/me/events")
            out.key("headers")
            out.beginObject()
            out.key("Content-Type")
            out.string("application/json")
            out.endObject()
            out.key("body")
            writeBody(&out)
            out.endObject()
            if countInBatch == Self.batchSize { closeBatch() }
        } else {
            if !opened {
                opened = true
                out.beginObject()
                out.key("value")
                out.beginArray()
            }
            out.lineBreak()
            writeBody(&out)
        }
        try out.flushIfFull()
    }

    private mutating func closeBatch() {
        out.endArray()
        out.endObject()
        out.newline()
        countInBatch = 0
    }

    public mutating func finish() throws {
        while queueHead < queue.count { try writeHead() }
        try submitUnsubmitted()
        if let pool {
            while pool.pending > 0 { try put(pool.next()) }
        }
        if batch {
            if countInBatch > 0 { closeBatch() }
        } else {
            if !opened {
                out.beginObject()
                out.key("value")
                out.beginArray()
            }
            out.softNewline()
            out.endArray()
            out.endObject()
            out.newline()
        }
        try out.flush()
    }
}
