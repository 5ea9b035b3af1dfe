import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Writes JSCalendar (RFC 8984): each calendar as a Group whose `entries` stream one Event or
/// Task per line. What JSCalendar cannot hold travels in `calport:` vendor members (see
/// `ICalendarRemainder` and docs/jscalendar.md): per item `calport:iCalendar`; per Group
/// `calport:iCalendar` for calendar properties, `calport:components` for time zones and other
/// components that came before the first item, `calport:componentsAfter` for those after the
/// last (held until the Group closes), and `calport:trailingProperties`. Components between
/// items ride on the next item as its `calport:componentsBefore`, so their order is kept.
/// Several calendars are written as several Groups one after another.
public struct JSCalendarWriter: CalendarWriter {
    /// What an item or Group cannot say in JSCalendar, as jCal (`ICalendarRemainder`).
    public static let remainderMember = "calport:iCalendar"
    /// A Group's components that came before its first item.
    public static let componentsMember = "calport:components"
    /// A Group's components that came after its last item.
    public static let componentsAfterMember = "calport:componentsAfter"
    /// An item's preceding components, so their place between items is kept.
    public static let componentsBeforeItemMember = "calport:componentsBefore"
    /// Calendar properties that stood after the components in the source.
    public static let trailingMember = "calport:trailingProperties"

    private var out: JSONOutput
    private let mapper: ICalendarMapper
    private var encoder = JSCalendarEncoder()
    private var calendar: CalendarModel.Calendar?
    private var entriesOpen = false
    /// Components waiting for the next item (or the Group's header, or its end).
    private var before: [Component] = []

    /// Threads the writer may use (`WriteOptions.concurrency`).
    private let concurrency: Int
    /// Items written so far; the workers start once a document has more than a few.
    private var itemCount = 0
    /// Items rendered on worker threads, set up when `concurrency` is above 1.
    private var workers: OrderedWorkerPool<[ItemJob], [UInt8]>?
    /// Items waiting to go to the workers as one batch.
    private var batch: [ItemJob] = []

    /// A writer sending bytes to `sink`, on up to `concurrency` threads.
    public init(sink: ByteSink, mapper: ICalendarMapper, vocabularyOverrides: VocabularyOverrides = .none, concurrency: Int = 1) {
        self.out = JSONOutput(sink: sink)
        self.mapper = mapper
        self.encoder = JSCalendarEncoder(vocabulary: JSCalendarVocabulary.participants.applying(vocabularyOverrides))
        self.concurrency = max(1, concurrency)
    }

    /// A decoder for checking what was written; its warnings are not the user's concern.
    private var checker: JSCalendarDecoder {
        Self.checker(encoder)
    }

    private static func checker(_ encoder: JSCalendarEncoder) -> JSCalendarDecoder {
        var decoder = JSCalendarDecoder(file: "jscalendar", line: 0, strict: false, log: DiagnosticLog(), vocabulary: encoder.vocabulary)
        decoder.reportsUnmappedMembers = false
        return decoder
    }

    private mutating func openEntries() {
        guard let c = calendar, !entriesOpen else { return }
        entriesOpen = true
        let group = encoder.group(c)
        out.beginObject()
        for m in group.members {
            out.key(m.key)
            out.value(m.value)
        }
        var remainder = ICalendarRemainder()
        if let decoded = try? checker.calendar(group, "") {
            remainder = .between(original: mapper.properties(from: c), reconstructed: mapper.properties(from: decoded))
        } else {
            remainder.properties = mapper.properties(from: c)
        }
        if !remainder.isEmpty {
            out.key(Self.remainderMember)
            out.remainder(remainder)
        }
        if !before.isEmpty {
            out.key(Self.componentsMember)
            out.beginArray()
            for comp in before { out.jcalComponent(comp) }
            out.endArray()
            before.removeAll()
        }
        out.key("entries")
        out.beginArray()
    }

    private mutating func close(_ trailing: [Property]) {
        openEntries()
        out.softNewline()
        out.endArray()
        if !before.isEmpty {
            out.key(Self.componentsAfterMember)
            out.beginArray()
            for comp in before { out.jcalComponent(comp) }
            out.endArray()
            before.removeAll()
        }
        if !trailing.isEmpty {
            out.key(Self.trailingMember)
            out.beginArray()
            for p in trailing { out.jcalProperty(p) }
            out.endArray()
        }
        out.endObject()
        out.newline()
        calendar = nil
        entriesOpen = false
    }

    /// The item's JSCalendar object and what it cannot hold.
    private static func item(
        _ entry: CalendarEntry, encoder: inout JSCalendarEncoder, mapper: ICalendarMapper
    ) -> (JSONObject, ICalendarRemainder) {
        let fields: JSONObject
        switch entry {
        case .event(let e): fields = encoder.event(e)
        case .reminder(let r): fields = encoder.task(r)
        default: return (JSONObject(), ICalendarRemainder())
        }
        let original = mapper.component(from: entry)
        var check = checker(encoder)
        guard let decoded = try? check.entry(fields, "") else {
            var all = ICalendarRemainder()
            all.properties = original.properties
            all.components = original.components
            all.replaces = ["*"]
            return (fields, all)
        }
        return (fields, .between(original: original, reconstructed: mapper.component(from: decoded)))
    }

    /// Writes an item's object: its JSCalendar members, what they cannot hold, and the
    /// components that came before it.
    private static func writeItem(
        _ entry: CalendarEntry, before: [Component], into out: inout JSONOutput, encoder: inout JSCalendarEncoder,
        mapper: ICalendarMapper
    ) {
        let (fields, remainder) = item(entry, encoder: &encoder, mapper: mapper)
        out.beginObject()
        for m in fields.members {
            out.key(m.key)
            out.value(m.value)
        }
        if !remainder.isEmpty {
            out.key(remainderMember)
            out.remainder(remainder)
        }
        if !before.isEmpty {
            out.key(componentsBeforeItemMember)
            out.beginArray()
            for comp in before { out.jcalComponent(comp) }
            out.endArray()
        }
        out.endObject()
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .entry(.event, _), .entry(.reminder, _): break
        // Anything else writes into the document itself: the items before it go first.
        default: drainWorkers()
        }
        switch element {
        case .beginCalendar(let c):
            if calendar != nil { close([]) }
            calendar = c
        case .entry(let entry, _):
            if calendar == nil { calendar = CalendarModel.Calendar() }
            switch entry {
            case .timeZone(let c), .other(let c):
                before.append(c)
            case .event, .reminder:
                openEntries()
                itemCount += 1
                if concurrency > 1 && itemCount > Self.itemsBeforeWorkers {
                    writeOnWorkers(ItemJob(entry: entry, before: before))
                    before.removeAll()
                } else {
                    out.lineBreak()
                    Self.writeItem(entry, before: before, into: &out, encoder: &encoder, mapper: mapper)
                    before.removeAll()
                }
            }
        case .endCalendar(let trailing):
            if calendar == nil { calendar = CalendarModel.Calendar() }
            close(trailing)
        }
        try out.flushIfFull()
    }

    public mutating func finish() throws {
        drainWorkers()
        if calendar != nil { close([]) }
        try out.flush()
    }
}

// MARK: - Rendering items on worker threads

extension JSCalendarWriter {
    /// An item for a worker, with the components that ride on it.
    struct ItemJob {
        var entry: CalendarEntry
        var before: [Component]
    }

    /// Items a document starts with before the workers start: a file of a few items (one per
    /// file in a directory output) is not worth a thread.
    private static let itemsBeforeWorkers = 16
    /// Items handed to a worker at once: one takes some microseconds, and a hand-over per item
    /// cost more than the second core gave.
    private static let itemsPerBatch = 16
    /// Batches rendered ahead per thread: the workers stay busy, memory stays flat.
    private static let batchesInFlightPerThread = 2

    /// Hands the item to the workers (in batches), and writes the oldest rendered batches once
    /// enough wait. An item's encoding and its check (decoding what was written, comparing it
    /// with the source: most of a JSCalendar write) run on the workers and, while this thread
    /// would otherwise wait, here; the bytes go into the document in the items' order.
    private mutating func writeOnWorkers(_ job: ItemJob) {
        batch.append(job)
        guard batch.count == Self.itemsPerBatch else { return }
        submitBatch()
        let pool = workers!
        while pool.pending > Self.batchesInFlightPerThread * concurrency {
            out.lineBreak()
            out.rawValue(pool.next())
        }
    }

    /// Hands the items gathered so far to the workers as one job, which renders them as
    /// the document holds them: `{…},\n{…}`.
    private mutating func submitBatch() {
        guard !batch.isEmpty else { return }
        if workers == nil {
            let encoder = self.encoder
            let mapper = self.mapper
            workers = OrderedWorkerPool(threads: concurrency - 1, name: "calport-jscalendar-writer") { jobs in
                var encoder = encoder
                var items = JSONOutput(capacity: 4096 * jobs.count)
                for (index, job) in jobs.enumerated() {
                    if index > 0 { items.lineBreak() }
                    Self.writeItem(job.entry, before: job.before, into: &items, encoder: &encoder, mapper: mapper)
                }
                return items.bytes
            }
        }
        workers!.submit(batch)
        batch = []
    }

    /// Writes every item the workers still hold, or that waits for them.
    private mutating func drainWorkers() {
        submitBatch()
        guard let pool = workers else { return }
        while pool.pending > 0 {
            out.lineBreak()
            out.rawValue(pool.next())
        }
    }
}
