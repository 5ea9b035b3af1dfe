import CalendarModel

/// The date-range stage of the conversion pipeline: keeps the events and reminders with an
/// occurrence that overlaps the query's range and, with `expand`, replaces each series by its
/// occurrences, each an item of its own with the series' UID and a RECURRENCE-ID.
///
/// Memory: an item that is not part of a series (no RRULE/RDATE, no RECURRENCE-ID) is decided
/// and passed on at once, except in `expand` mode, where every kept item waits for the end of
/// its calendar so that the output can be sorted (by start instant, then UID). Series members
/// (masters and detached occurrences) wait, grouped by UID, until the end of their calendar,
/// because RFC 5545 lets an override stand anywhere in the calendar. Expansion itself is lazy
/// and bounded by the range and by `maxOccurrences`, so the memory held is the calendar's
/// recurring items plus, with `expand`, the occurrences that fall in the range.
public struct OccurrenceFilter {
    private struct Held {
        var entry: CalendarEntry
        var line: Int
        var order: Int
    }

    private struct Expanded {
        var entry: CalendarEntry
        var line: Int
        var startInstant: Int
        var uid: String
        var recurrenceWall: Int
    }

    /// The range, expansion and limits this stage applies.
    public let query: RecurrenceQuery
    private let log: DiagnosticLog
    /// The input's name for diagnostics; a batch sets it as each input begins.
    public var sourceName: String
    private let clock: any WallClock
    private var series: [String: [Held]] = [:]
    private var seriesOrder: [String] = []
    private var expanded: [Expanded] = []
    private var order = 0

    /// - Parameters:
    ///   - sourceName: the input's name for diagnostics.
    public init(query: RecurrenceQuery, log: DiagnosticLog, sourceName: String, clock: any WallClock = TimeZoneDatabaseClock.shared) {
        self.query = query
        self.log = log
        self.sourceName = sourceName
        self.clock = clock
    }

    /// Takes one element and passes on what can be decided now.
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        switch element {
        case .beginCalendar:
            try emit(element)
        case .endCalendar:
            try flushCalendar(emit: emit)
            try emit(element)
        case .entry(let entry, let line):
            guard let item = entry.item else {
                try emit(element)  // time zones and kept components travel unchanged
                return
            }
            if item.recurrenceID != nil || item.hasRecurrenceRules {
                // A series without UID (invalid, but seen) is a series of one item: keyed by
                // its line, which no UID can equal (a NUL-prefixed key).
                let key = item.uid ?? "\u{0}\(line)"
                if series[key] == nil { seriesOrder.append(key) }
                series[key, default: []].append(Held(entry: entry, line: line, order: order))
                order += 1
                return
            }
            try decideSingle(entry, line: line, emit: emit)
        }
    }

    /// Flushes what a stream that ended without closing its calendar still holds.
    public mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws {
        try flushCalendar(emit: emit)
    }

    // MARK: deciding

    private mutating func decideSingle(_ entry: CalendarEntry, line: Int, emit: (CalendarStreamElement) throws -> Void) throws {
        guard let (master, extent) = Self.master(entry) else { return }  // no date at all: outside any range
        do {
            let set = try RecurrenceSet(master: master, extent: extent, options: query.options, clock: clock)
            report(set.setupWarnings, line: line)
            guard let occurrence = set.occurrences(from: query.start, to: query.end).occurrences.first else { return }
            if query.expand {
                expanded.append(
                    Expanded(
                        entry: entry, line: line, startInstant: occurrence.startInstant, uid: master.uid ?? "",
                        recurrenceWall: occurrence.recurrenceID.wallSecondsSinceEpoch))
            } else {
                try emit(.entry(entry, line: line))
            }
        } catch let error as RecurrenceError {
            log.warning(file: sourceName, line: line, "\(error.message); the item is kept as it is")
            try emit(.entry(entry, line: line))
        }
    }

    private mutating func flushCalendar(emit: (CalendarStreamElement) throws -> Void) throws {
        for key in seriesOrder {
            guard let members = series[key] else { continue }
            try decideSeries(uid: key.hasPrefix("\u{0}") ? "" : key, members: members, emit: emit)
        }
        series.removeAll()
        seriesOrder.removeAll()
        if query.expand {
            expanded.sort { ($0.startInstant, $0.uid, $0.recurrenceWall) < ($1.startInstant, $1.uid, $1.recurrenceWall) }
            for e in expanded { try emit(.entry(e.entry, line: e.line)) }
            expanded.removeAll()
        }
    }

    private mutating func decideSeries(uid: String, members: [Held], emit: (CalendarStreamElement) throws -> Void) throws {
        let masters = members.filter { $0.entry.item?.recurrenceID == nil }
        let detached = members.filter { $0.entry.item?.recurrenceID != nil }
        guard let masterHeld = masters.first, let (master, extent) = Self.master(masterHeld.entry) else {
            // Detached occurrences without their series: each stands for itself.
            for held in detached { try decideSingle(held.entry, line: held.line, emit: emit) }
            return
        }
        if masters.count > 1 {
            log.warning(
                file: sourceName, line: masters[1].line,
                "UID \(uid) has \(masters.count) items without RECURRENCE-ID; the first (line \(masterHeld.line)) is the series")
        }
        let overrides = detached.compactMap { held -> RecurrenceSet.Override? in
            guard let (item, extent) = Self.master(held.entry) ?? Self.undated(held.entry) else { return nil }
            return RecurrenceSet.Override(item: item, extent: extent)
        }
        let set: RecurrenceSet
        do {
            set = try RecurrenceSet(master: master, extent: extent, overrides: overrides, options: query.options, clock: clock)
        } catch let error as RecurrenceError {
            log.warning(file: sourceName, line: masterHeld.line, "\(error.message); the series is kept as it is")
            for held in members.sorted(by: { $0.order < $1.order }) { try emit(.entry(held.entry, line: held.line)) }
            return
        }
        let expansion = set.occurrences(from: query.start, to: query.end)
        report(expansion.warnings, line: masterHeld.line)
        if expansion.occurrences.isEmpty { return }
        if !query.expand {
            for held in members.sorted(by: { $0.order < $1.order }) { try emit(.entry(held.entry, line: held.line)) }
            return
        }
        for occurrence in expansion.occurrences {
            let (entry, line): (CalendarEntry, Int)
            switch occurrence.source {
            case .master:
                entry = Self.instance(of: masterHeld.entry, occurrence: occurrence)
                line = masterHeld.line
            case .override(let index):
                let held = detached[index]
                // A single override is written as it is; a THISANDFUTURE one is moved to each
                // instance it governs.
                entry =
                    held.entry.item?.recurrenceAppliesToFuture == true
                    ? Self.instance(of: held.entry, occurrence: occurrence) : held.entry
                line = held.line
            }
            expanded.append(
                Expanded(
                    entry: entry, line: line, startInstant: occurrence.startInstant, uid: uid,
                    recurrenceWall: occurrence.recurrenceID.wallSecondsSinceEpoch))
        }
    }

    private func report(_ warnings: [String], line: Int) {
        for warning in warnings { log.warning(file: sourceName, line: line, warning) }
    }

    // MARK: items

    /// The item and extent that define an entry's occurrences; a to-do without DTSTART is
    /// placed at its DUE. Nil when the entry has no date at all.
    public static func master(_ entry: CalendarEntry) -> (CalendarItem, OccurrenceExtent)? {
        switch entry {
        case .event(let event):
            guard event.item.start != nil else { return nil }
            return (event.item, event.occurrenceExtent)
        case .reminder(let reminder):
            if reminder.item.start != nil { return (reminder.item, reminder.occurrenceExtent) }
            guard let due = reminder.due else { return nil }
            var item = reminder.item
            item.start = due
            return (item, .none)
        default:
            return nil
        }
    }

    /// A detached occurrence that only states its RECURRENCE-ID (e.g. a bare cancellation).
    static func undated(_ entry: CalendarEntry) -> (CalendarItem, OccurrenceExtent)? {
        guard var item = entry.item, let rid = item.recurrenceID else { return nil }
        item.start = rid
        return (item, .none)
    }

    /// One occurrence as an item of its own: its start and end, the series' UID, a
    /// RECURRENCE-ID, and no recurrence properties.
    public static func instance(of entry: CalendarEntry, occurrence: Occurrence) -> CalendarEntry {
        func strip(_ item: inout CalendarItem) {
            item.start = occurrence.start
            item.recurrenceRules = []
            item.recurrenceDates = []
            item.exceptionDates = []
            item.recurrenceID = occurrence.recurrenceID
            item.recurrenceAppliesToFuture = false
        }
        switch entry {
        case .event(var event):
            strip(&event.item)
            if event.duration == nil || event.end != nil {
                event.end = occurrence.end
                event.duration = nil
            }
            return .event(event)
        case .reminder(var reminder):
            let hadStart = reminder.item.start != nil
            strip(&reminder.item)
            if !hadStart {
                reminder.item.start = nil
                reminder.due = occurrence.start
            } else if reminder.due != nil {
                reminder.due = occurrence.end
                reminder.duration = nil
            }
            return .reminder(reminder)
        default:
            return entry
        }
    }
}
