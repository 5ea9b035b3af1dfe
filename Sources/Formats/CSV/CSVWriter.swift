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
    private var warnedZones = false

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
            if let flat {
                try records.write(flat.cells(for: event, calendarTitle: calendarTitle))
                return
            }
            let name = "row \(rows + 1) ('\(event.title ?? event.uid ?? "")')"
            if event.item.hasRecurrenceRules {
                log.loss(file: options.destinationName, line: rows + 1, field: "recurrenceRules",
                    "\(name) repeats; \(dialect.rawValue) has no column for a rule, so only the first occurrence is written (--expand writes every occurrence)")
            }
            var written = event
            if let zone {
                if let converted = zone.converted(event) {
                    written = converted
                } else {
                    log.warning(file: options.destinationName, line: rows + 1,
                        "\(name) is in a zone calport cannot resolve (\(event.start?.reference.zoneIdentifier ?? "")); its times are written as that zone's wall time, not \(zone.name)'s")
                }
            } else if !warnedZones, let reference = event.start?.reference, reference != .floating, !event.isAllDay {
                warnedZones = true
                let zoneName = reference == .utc ? "UTC" : reference.zoneIdentifier ?? ""
                log.loss(file: options.destinationName, line: rows + 1, field: "timeZone",
                    "\(name) is in \(zoneName); CSV times have no zone, so times are written as wall time in each event's own zone (--csv-tz ZONE writes them all in one zone; further events are not reported)")
            }
            try records.write(table!.cells(for: written) { note in
                // The table reports what its columns cannot hold: a loss, named in `--report`.
                log.loss(file: options.destinationName, line: rows + 1, field: "csv:\(dialect.rawValue)", "\(name) \(note)")
            })
        }
    }

    func finish() throws {
        try writeHeader()
        try records.flush()
        if !skipped.isEmpty {
            let list = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\($0.value == 1 ? "" : "s")" }.joined(separator: ", ")
            log.loss(file: options.destinationName, field: "entries (\(skipped.keys.sorted().joined(separator: ", ")))",
                "CSV holds events only; left out: \(list)")
        }
    }
}
