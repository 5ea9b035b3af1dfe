import CalendarModel
import Recurrence

/// Lowers recurrence rules counted in a non-Gregorian calendar (RFC 7529 RSCALE=CHINESE,
/// HEBREW, …) to plain dates, for targets that cannot hold them: the occurrences in a window
/// become RDATEs, or items of their own where the target has no RDATE (a CSV row each). Each
/// lowered rule is reported as a loss naming the rule and the window. Never a Gregorian rule:
/// no Gregorian rule has the same dates.
///
/// Masters with such a rule wait until the end of their calendar, so that a detached occurrence
/// (RECURRENCE-ID) anywhere in it takes the place of the occurrence it moves.
public struct RSCALELowering: ConversionStage {
    /// `--lower-rscale FROM..TO`: the dates whose occurrences are written; an open end is the
    /// series start, or 30 years after it.
    public struct Window: Sendable, Hashable {
        /// The first day written; nil: the series start.
        public var from: CalendarDate?
        /// The day after the last day written; nil: 30 years after `from`.
        public var to: CalendarDate?

        public init(from: CalendarDate? = nil, to: CalendarDate? = nil) {
            self.from = from
            self.to = to
        }

        /// Parses `FROM..TO`, `FROM..`, `..TO` or `..` (dates as YYYY-MM-DD or YYYYMMDD).
        public init(text: String) throws {
            let parts = text.components(separatedBy: "..")
            guard parts.count == 2 else {
                throw CalendarError(
                    .usage, file: "--lower-rscale",
                    "'\(text)' is not FROM..TO (e.g. 2024-01-01..2054-01-01, or .. for 30 years from each series' start)")
            }
            func date(_ s: String) throws -> CalendarDate? {
                if s.isEmpty { return nil }
                let digits = s.replacingOccurrences(of: "-", with: "")
                guard digits.count == 8, let d = CalendarDateTime(basicISO: digits)?.date else {
                    throw CalendarError(.usage, file: "--lower-rscale", "'\(s)' is not a date (YYYY-MM-DD)")
                }
                return d
            }
            self.init(from: try date(parts[0]), to: try date(parts[1]))
            if let from, let to, to <= from {
                throw CalendarError(.usage, file: "--lower-rscale", "'\(text)': the end must be after the start")
            }
        }
    }

    /// The window of a series starting on `start`.
    static func days(of window: Window, start: CalendarDate) -> (from: Int, to: Int) {
        let from = window.from ?? start
        let to = window.to ?? CalendarDate(year: from.year + 30, month: from.month, day: min(from.day, 28))
        return (from.daysSinceEpoch, to.daysSinceEpoch)
    }

    private let window: Window
    private let mode: NonGregorianRuleSupport
    private let targetName: String
    private let log: DiagnosticLog
    private var sourceName = "-"
    private var held: [(entry: CalendarEntry, line: Int)] = []
    /// RECURRENCE-IDs (master wall seconds) of detached occurrences seen, by UID.
    private var detached: [String: Set<Int>] = [:]

    /// - Parameters:
    ///   - mode: `.recurrenceDates` or `.separateItems` (`.holds` lowers to RDATEs too).
    ///   - targetName: the output format's id, for the loss message.
    public init(window: Window, mode: NonGregorianRuleSupport, targetName: String, log: DiagnosticLog) {
        self.window = window
        self.mode = mode
        self.targetName = targetName
        self.log = log
    }

    public mutating func beginInput(name: String) { sourceName = name }

    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        switch element {
        case .entry(let entry, let line):
            guard let item = entry.item else { return try emit(element) }
            if let rid = item.recurrenceID, let uid = item.uid {
                detached[uid, default: []].insert(rid.wallSecondsSinceEpoch)
            } else if item.recurrenceRules.contains(where: \.hasNonGregorianScale) && item.start != nil {
                held.append((entry, line))
                return
            }
            try emit(element)
        case .endCalendar:
            try flush(emit: emit)
            try emit(element)
        case .beginCalendar:
            try emit(element)
        }
    }

    public mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws { try flush(emit: emit) }

    private mutating func flush(emit: (CalendarStreamElement) throws -> Void) throws {
        for (entry, line) in held { try lower(entry, line: line, emit: emit) }
        held.removeAll()
        detached.removeAll()
    }

    private func lower(_ entry: CalendarEntry, line: Int, emit: (CalendarStreamElement) throws -> Void) throws {
        guard let (master, extent) = OccurrenceFilter.master(entry), let start = master.start else {
            return try emit(.entry(entry, line: line))
        }
        let scaled = master.recurrenceRules.filter(\.hasNonGregorianScale)
        let (fromDay, toDay) = Self.days(of: window, start: start.date)
        let name = "'\(master.title ?? master.uid ?? "")'\(master.uid.map { " (UID \($0))" } ?? "")"
        let rules = scaled.map { "RRULE:\($0.rfc5545Text)" }.joined(separator: ", ")
        let why =
            mode == .holds
            ? "counts in a non-Gregorian calendar (RFC 7529) and --lower-rscale asks for dates"
            : "counts in a non-Gregorian calendar (RFC 7529), which \(targetName) cannot hold"
        // Separate items: the whole series (its other rules, RDATEs, EXDATEs) as occurrences.
        // RDATEs: only the lowered rules' dates; the item's other recurrence stays as it is.
        var expanded = master
        if mode != .separateItems {
            expanded.recurrenceRules = scaled
            expanded.recurrenceDates = []
            expanded.exceptionDates = []
        }
        let occurrences: [Occurrence]
        do {
            let set = try RecurrenceSet(master: expanded, extent: extent)
            // Instants a day wider than the window, then cut by the start's own date.
            occurrences = set.occurrences(from: (fromDay - 1) * 86_400, to: (toDay + 1) * 86_400).occurrences.filter {
                $0.start.date.daysSinceEpoch >= fromDay && $0.start.date.daysSinceEpoch < toDay
            }
        } catch let error as RecurrenceError {
            log.warning(
                file: sourceName, line: line, "\(name): \(error.message); \(targetName) cannot hold the rule, so it is written as it is")
            return try emit(.entry(entry, line: line))
        }
        let first = CalendarDate(daysSinceEpoch: fromDay)
        let last = CalendarDate(daysSinceEpoch: toDay - 1)
        let range = "\(CalendarDateTime(date: first).basicISO)..\(CalendarDateTime(date: last).basicISO)"
        switch mode {
        case .separateItems:
            let moved = master.uid.flatMap { detached[$0] } ?? []
            var count = 0
            for occurrence in occurrences where !moved.contains(occurrence.recurrenceID.wallSecondsSinceEpoch) {
                try emit(.entry(OccurrenceFilter.instance(of: entry, occurrence: occurrence), line: line))
                count += 1
            }
            log.loss(
                file: sourceName, line: line, field: "recurrenceRules",
                "\(name): \(rules) \(why); written as \(count) separate occurrence\(count == 1 ? "" : "s") from \(range), none outside it (--lower-rscale FROM..TO)"
            )
        case .recurrenceDates, .holds:
            var lowered = entry
            // A series that starts before the window starts at its first occurrence in it, so
            // that DTSTART (always an instance) is not a date outside the window.
            let first = occurrences.first
            let newStart = first?.start ?? start
            let dates = occurrences.map(\.start).filter { $0 != newStart }
            func lower(_ item: inout CalendarItem) {
                item.start = newStart
                item.recurrenceRules.removeAll(where: \.hasNonGregorianScale)
                if !dates.isEmpty { item.recurrenceDates.append(.init(dates: dates)) }
                if item.recurrenceRules.isEmpty { item.propertyParameters["RRULE"] = nil }
            }
            switch entry {
            case .event(var event):
                lower(&event.item)
                if let first, event.end != nil { event.end = first.end }
                lowered = .event(event)
            case .reminder(var reminder):
                lower(&reminder.item)
                if let first, reminder.due != nil { reminder.due = first.end }
                lowered = .reminder(reminder)
            default:
                break
            }
            try emit(.entry(lowered, line: line))
            log.loss(
                file: sourceName, line: line, field: "recurrenceRules",
                "\(name): \(rules) \(why); written as DTSTART and \(dates.count) RDATE\(dates.count == 1 ? "" : "s") from \(range), none outside it (--lower-rscale FROM..TO)"
            )
        }
    }
}
