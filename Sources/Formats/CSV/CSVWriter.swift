import CalendarModel

/// Writes events as CSV rows, one at a time: the header before the first row, then a row per
/// event as it arrives. Recurring events keep their rule in the flat layout; the Outlook and
/// Google layouts have no column for one, so they get the first occurrence and a warning (an
/// expansion stage before the writer gives one row per occurrence instead).
final class CSVWriter: CalendarWriter {
    private var records: CSVRecordWriter
    private let dialect: CSVDialect
    private let options: WriteOptions
    private let log: DiagnosticLog
    private let settings: CSVSettings
    private let table: TableRowMapper?
    private let flat: FlatRowMapper?
    private let zone: CSVZoneConverter?
    private let setupError: CalendarError?
    private var wroteHeader = false
    private var calendarTitle: String?
    private var rows = 0
    private var skipped: [String: Int] = [:]
    /// Every field lost so far, in the order first lost: reported once each when the output is
    /// finished, with how many events lost it and the rows of the first few.
    private var losses: [LossTally] = []
    private var lossIndex: [String: Int] = [:]

    private struct LossTally {
        var field: String
        var reason: String
        var count = 0
        var rows: [Int] = []
    }

    /// How many rows a loss names; the count covers the rest.
    static let rowsNamed = 20

    init(sink: ByteSink, options: WriteOptions, log: DiagnosticLog, dialect: CSVDialect,
         tableVocabulary: ParticipantVocabulary, flatVocabulary: ParticipantVocabulary) {
        let settings = CSVSettings(options.formatSettings)
        self.settings = settings
        self.records = CSVRecordWriter(sink: sink, bom: settings.byteOrderMark)
        self.dialect = dialect
        self.options = options
        self.log = log
        if dialect == .flat {
            flat = FlatRowMapper(vocabulary: flatVocabulary)
            table = nil
            zone = nil
            setupError = nil
        } else {
            flat = nil
            let language = dialect == .google ? CSVLanguage.english : CSVLanguage(locale: settings.locale ?? "en_US")
            var table: TableRowMapper?
            var zone: CSVZoneConverter?
            var setupError: CalendarError?
            do {
                let codec = try CSVDateCodec(locale: settings.locale ?? (dialect == .google ? "en_US" : language.defaultLocale),
                                             dateFormat: settings.dateFormat, timeFormat: settings.timeFormat,
                                             writesSeconds: dialect == .outlook, place: options.destinationName)
                zone = try settings.timeZone.map { try CSVZoneConverter(name: $0, place: options.destinationName) }
                table = TableRowMapper(dialect: dialect, language: language, codec: codec, zone: settings.timeZone, vocabulary: tableVocabulary)
            } catch let error as CalendarError {
                setupError = error
            } catch {
                setupError = CalendarError(.usage, file: options.destinationName, "\(error)")
            }
            self.table = table
            self.zone = zone
            self.setupError = setupError
        }
    }

    private func writeHeader() throws {
        if let setupError { throw setupError }
        guard !wroteHeader else { return }
        wroteHeader = true
        try records.write(flat != nil ? FlatColumn.allCases.map(\.rawValue) : table!.headerNames)
    }

    func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let calendar):
            calendarTitle = calendar.title
            try writeHeader()
        case .endCalendar:
            calendarTitle = nil
        case .entry(let entry, let line):
            try writeHeader()
            guard case .event(let event) = entry else {
                let kind: String
                switch entry {
                case .reminder: kind = "to-do"
                case .timeZone: kind = "time-zone definition"
                case .other(let c): kind = c.name
                case .event: kind = "event"
                }
                skipped[kind, default: 0] += 1
                return
            }
            guard event.start != nil else {
                log.warning(file: options.destinationName, line: line, "event '\(event.title ?? event.uid ?? "")' has no start; CSV needs one, so it is left out")
                return
            }
            rows += 1
            for lost in CSVLostField.all where lost.isLost(event, dialect) { lose(lost.field, lost.reason) }
            if let flat {
                try records.write(flat.cells(for: event, calendarTitle: calendarTitle))
                return
            }
            let name = "row \(rows + 1) ('\(event.title ?? event.uid ?? "")')"
            if !event.recurrenceRules.isEmpty {
                lose("recurrenceRules", "has no column for a rule (of an event that repeats, only the first occurrence is written; --expand writes every occurrence)")
            }
            var written = event
            if let zone {
                if let converted = zone.converted(event) {
                    written = converted
                } else {
                    log.warning(file: options.destinationName, line: rows + 1,
                        "\(name) is in a zone calport cannot resolve (\(event.start?.reference.zoneIdentifier ?? "")); its times are written as that zone's wall time, not \(zone.name)'s")
                }
            } else if let reference = event.start?.reference, reference != .floating, !event.isAllDay {
                lose("timeZone", "has no time-zone column, so times are written as wall time in each event's own zone (--csv-tz ZONE writes them all in one zone)")
            }
            try records.write(table!.cells(for: written))
        }
    }

    /// Counts a field lost from the current row.
    private func lose(_ field: String, _ reason: String) {
        let i: Int
        if let known = lossIndex[field] {
            i = known
        } else {
            i = losses.count
            lossIndex[field] = i
            losses.append(LossTally(field: field, reason: reason))
        }
        losses[i].count += 1
        if losses[i].rows.count < Self.rowsNamed { losses[i].rows.append(rows + 1) }
    }

    func finish() throws {
        try writeHeader()
        try records.flush()
        for loss in losses {
            let events = loss.count == 1 ? "1 event" : "\(loss.count) events"
            let more = loss.count > loss.rows.count ? ", …" : ""
            log.loss(
                file: options.destinationName, field: loss.field, count: loss.count, lines: loss.rows,
                "\(dialect.rawValue) \(loss.reason): \(loss.field) left out of \(events) (row\(loss.rows.count == 1 ? "" : "s") \(loss.rows.map(String.init).joined(separator: ", "))\(more))")
        }
        if !skipped.isEmpty {
            let list = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\($0.value == 1 ? "" : "s")" }.joined(separator: ", ")
            // Counted item by item, like every other loss.
            log.loss(
                file: options.destinationName, field: "entries (\(skipped.keys.sorted().joined(separator: ", ")))",
                count: skipped.values.reduce(0, +), lines: [], "CSV holds events only; left out: \(list)")
        }
    }
}
