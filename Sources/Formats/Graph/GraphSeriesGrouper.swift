import CalendarModel
import ExchangeData

/// Groups Graph's series items into iCalendar's shape as they stream past: a `seriesMaster`
/// is written with its rule (and an EXDATE per `cancelledOccurrences` day), an `exception`
/// becomes an override (its master's UID, RECURRENCE-ID from `originalStart`), an
/// `occurrence` is dropped (Graph computed it from the master's pattern, which the rule
/// carries), and an occurrence absent from a calendarView window is not taken for deleted.
///
/// Memory: the masters read so far are remembered by id with their UID and start (two short
/// strings and a date each, so an override can find its series wherever it comes); occurrences
/// and exceptions whose master has not been read yet wait, up to `waitingLimit` items. Past
/// that, or at the end of the input, a series still without its master is written as events
/// of their own, with a warning, so a calendarView export without masters (or with masters
/// far behind) streams in bounded memory instead of being held whole.
struct GraphSeriesGrouper {
    /// Instances held while their master is missing before the oldest series is let go.
    var waitingLimit = 10_000

    /// What an override needs of its series.
    struct Master {
        var uid: String?
        var start: CalendarDateTime?
        /// RECURRENCE-IDs written (UTC seconds), so an exception given twice (beta
        /// `exceptionOccurrences` and calendarView) is written once.
        var overrides: Set<Int> = []
    }

    /// A master's beta `exceptionOccurrences` as the overrides they become, in order, and what
    /// stopped them (thrown after the overrides before it are written).
    struct ExceptionOverrides {
        var master: Master
        var events: [Event] = []
        var failure: Error?
    }

    private var masters: [String: Master] = [:]
    private var waiting: [String: [(event: GraphEvent, line: Int)]] = [:]
    private var waitingOrder: [String] = []
    private var waitingCount = 0

    mutating func add(_ e: GraphEvent, line: Int, decoder: GraphEventDecoder, into out: inout [CalendarStreamElement]) throws {
        switch e.kind {
        case .singleInstance:
            out.append(.entry(.event(try e.kept ?? decoder.kept(e.event, e.remainder)), line: line))
        case .seriesMaster:
            try addMaster(e, line: line, decoder: decoder, into: &out)
        case .occurrence, .exception:
            guard let masterID = e.seriesMasterID else {
                out.append(.entry(.event(try e.kept ?? decoder.kept(e.event, e.remainder)), line: line))
                return
            }
            if masters[masterID] != nil {
                try instance(e, masterID: masterID, line: line, decoder: decoder, into: &out)
                return
            }
            if waiting[masterID] == nil { waitingOrder.append(masterID) }
            waiting[masterID, default: []].append((e, line))
            waitingCount += 1
            while waitingCount > waitingLimit, let oldest = waitingOrder.first {
                try release(oldest, decoder: decoder, reason: "not read within \(waitingLimit) items", into: &out)
            }
        }
    }

    /// A master as iCalendar has it: its pattern as RRULE (DTSTART on the first day the
    /// pattern gives), each `cancelledOccurrences` day as an EXDATE.
    ///
    /// The event is changed in `e` itself, and its item's fields set directly (through the
    /// event's key-path members each cost ~3,000 instructions): when the caller hands `e` on,
    /// nothing else holds the event and it is not copied.
    ///
    /// - Parameter found: the first occurrence the writer found for the pattern it wrote; used
    ///   where `e` reads as that pattern and start, else the first occurrence is found here.
    static func master(_ e: consuming GraphEvent, found: FoundFirstOccurrence? = nil) -> Event {
        if let recurrence = e.recurrence, let start = e.event.item.start {
            // Exchange counts a series from the first day its pattern gives; RFC 5545 counts DTSTART.
            let first = found.flatMap { $0.first(of: recurrence, start: start) } ?? recurrence.firstOccurrence(start: start)
            if let first, first != start {
                let shift = first.wallSecondsSinceEpoch - start.wallSecondsSinceEpoch
                e.event.item.start = first
                e.event.end = e.event.end.map { $0.withWallSeconds($0.wallSecondsSinceEpoch + shift) }
            }
            e.event.item.recurrenceRules = [recurrence.recurrenceRule(start: e.event.item.start ?? start)]
        }
        if !e.cancelledDays.isEmpty, let start = e.event.item.start {
            // An EXDATE names the occurrence's start: the cancelled day at the series' time of day.
            let dates = e.cancelledDays.map { day -> CalendarDateTime in
                var d = start
                d.date = day
                return d
            }
            e.event.item.exceptionDates.append(CalendarItem.DateList(dates: dates))
        }
        return e.event
    }

    /// A series' first occurrence as the writer found it (`ExchangeRecurrence.firstOccurrence`,
    /// to check its pattern), for reading its body back (`master`) without finding it again.
    struct FoundFirstOccurrence {
        var recurrence: ExchangeRecurrence
        var start: CalendarDateTime
        /// `recurrence.firstOccurrence(start: start)`.
        var first: CalendarDateTime

        /// The first occurrence of `recurrence` from `start` when it is the one found (nil: find it).
        /// `firstOccurrence` reads the start's time and reference, not its date, and a zone only
        /// through the clock, which knows a name by the zone it resolves to: the body's Windows
        /// name for the source's zone gives the same wall time, in the body's name.
        func first(of recurrence: ExchangeRecurrence, start: CalendarDateTime) -> CalendarDateTime? {
            guard start.time == self.start.time, recurrence.hasFirstOccurrence(of: self.recurrence) else { return nil }
            if start.reference == self.start.reference { return first }
            guard case .zone(let read) = start.reference, case .zone(let written) = self.start.reference,
                GraphDateTimes.sameZone(read, written)
            else { return nil }
            var renamed = first
            renamed.reference = start.reference
            return renamed
        }
    }

    /// When an exception was due by the pattern, as UTC: its `originalStart`, else its start;
    /// nil when it has neither.
    static func originalStart(of e: GraphEvent) -> CalendarDateTime? {
        e.originalStart ?? e.event.item.start.flatMap(GraphDateTimes.utc)
    }

    /// An exception as an override of the series with `uid` starting at `seriesStart`.
    static func override(_ e: GraphEvent, uid: String?, seriesStart: CalendarDateTime?) -> Event? {
        guard let original = originalStart(of: e) else { return nil }
        return override(e, at: original, uid: uid, seriesStart: seriesStart)
    }

    /// An exception due at `original` (UTC) as an override, changed in place as `master` is.
    static func override(_ e: consuming GraphEvent, at original: CalendarDateTime, uid: String?, seriesStart: CalendarDateTime?) -> Event {
        e.event.item.uid = uid
        e.event.item.recurrenceID = recurrenceID(original, seriesStart: seriesStart)
        return e.event
    }

    private mutating func addMaster(_ e: GraphEvent, line: Int, decoder: GraphEventDecoder, into out: inout [CalendarStreamElement]) throws {
        let event = try e.kept ?? decoder.kept(Self.master(e), e.remainder)
        out.append(.entry(.event(event), line: line))
        let id = e.id ?? ""
        let exceptions = e.exceptionOverrides ?? Self.exceptionOverrides(e, master: event, decoder: decoder)
        masters[id] = exceptions.master
        for override in exceptions.events { out.append(.entry(.event(override), line: line)) }
        if let failure = exceptions.failure { throw failure }
        if let held = waiting.removeValue(forKey: id) {
            waitingOrder.removeAll { $0 == id }
            waitingCount -= held.count
            for (instance, instanceLine) in held {
                try self.instance(instance, masterID: id, line: instanceLine, decoder: decoder, into: &out)
            }
        }
    }

    /// An occurrence or exception whose master has been read.
    private mutating func instance(
        _ e: GraphEvent, masterID: String, line: Int, decoder: GraphEventDecoder, into out: inout [CalendarStreamElement]
    ) throws {
        guard e.kind == .exception, var master = masters[masterID] else { return }
        defer { masters[masterID] = master }
        guard let event = try Self.keptOverride(e, masterID: masterID, of: &master, decoder: decoder) else { return }
        out.append(.entry(.event(event), line: line))
    }

    /// An exception as the override it becomes of `master`'s series, with the source's kept
    /// iCalendar; nil when that RECURRENCE-ID is written already, or when it has no time to
    /// give one (which is said).
    private static func keptOverride(_ e: GraphEvent, masterID: String, of master: inout Master, decoder: GraphEventDecoder) throws -> Event? {
        guard let original = e.originalStart ?? e.event.start.flatMap(GraphDateTimes.utc),
            let event = override(e, uid: master.uid, seriesStart: master.start)
        else {
            try decoder.warn("", "exception of series \(masterID) has neither originalStart nor start; left out")
            return nil
        }
        guard master.overrides.insert(original.wallSecondsSinceEpoch).inserted else { return nil }
        return try decoder.kept(event, e.remainder)
    }

    /// A master's beta `exceptionOccurrences` as overrides of `master` (the master as handed
    /// out): they need no other event, so the reader makes them with the master
    /// (`GraphReader.decoded`), on a worker thread when it has them.
    static func exceptionOverrides(_ e: GraphEvent, master: Event, decoder: GraphEventDecoder) -> ExceptionOverrides {
        let masterID = e.id ?? ""
        var result = ExceptionOverrides(master: Master(uid: master.uid, start: master.start))
        do {
            for (object, path) in e.exceptionOccurrences {
                var exception = try decoder.event(object, path: path)
                exception.kind = .exception
                exception.seriesMasterID = masterID
                if let event = try keptOverride(exception, masterID: masterID, of: &result.master, decoder: decoder) { result.events.append(event) }
            }
        } catch {
            result.failure = error
        }
        return result
    }

    /// The occurrence's original start in the form of the series' start (RFC 5545 §3.8.4.4:
    /// RECURRENCE-ID has DTSTART's value type and zone).
    static func recurrenceID(_ utc: CalendarDateTime, seriesStart: CalendarDateTime?) -> CalendarDateTime {
        guard let start = seriesStart else { return utc }
        if start.isDateOnly {
            // An all-day series' original start is a midnight somewhere, given in UTC: the
            // nearest midnight names the day.
            let seconds = utc.wallSecondsSinceEpoch + 12 * 3600
            return CalendarDateTime(date: CalendarDate(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400))
        }
        switch start.reference {
        case .zone(let z): return GraphDateTimes.local(utc, in: z) ?? utc
        case .floating:
            var f = utc
            f.reference = .floating
            return f
        case .utc: return utc
        }
    }

    /// Writes a series still without its master as events of their own.
    private mutating func release(_ masterID: String, decoder: GraphEventDecoder, reason: String, into out: inout [CalendarStreamElement]) throws {
        guard let held = waiting.removeValue(forKey: masterID) else { return }
        waitingOrder.removeAll { $0 == masterID }
        waitingCount -= held.count
        decoder.log.warning(
            file: decoder.file, line: held.first?.line, location: "seriesMasterId \(masterID)",
            "series master \(reason): its \(held.count) occurrence(s) and exception(s) are written as events of their own")
        for (e, line) in held {
            var event = e.event
            // With beta's series `uid` every instance shares one UID: tell them apart as instances.
            if e.hasSeriesUID, let original = e.originalStart { event.recurrenceID = original }
            out.append(.entry(.event(try decoder.kept(event, e.remainder)), line: line))
        }
    }

    /// At the end of the input: series whose master never came.
    mutating func finish(decoder: GraphEventDecoder, into out: inout [CalendarStreamElement]) throws {
        for id in waitingOrder {
            try release(id, decoder: decoder, reason: "is not in the input", into: &out)
        }
    }
}
