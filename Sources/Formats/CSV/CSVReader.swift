import CalendarModel

/// Reads calendar CSV row by row: finds the layout and language from the header, reads each
/// following row into an event, and reports a row it cannot read with its row, line and column,
/// then goes on with the next (under `--strict`, the first such row stops reading).
final class CSVReader: CalendarReader {
    private let records: CSVRecordReader
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let settings: CSVSettings
    private let preferred: CSVDialect
    private let tableVocabulary: ParticipantVocabulary
    private let flatVocabulary: ParticipantVocabulary

    private var header: CSVHeader?
    private var table: TableRowMapper?
    private var flat: FlatRowMapper?
    private var queue: [CalendarStreamElement] = []
    private var calendarOpen = false
    private var openedAny = false
    private var calendarTitle: String?
    private var finished = false
    private var warnedRecoding = false
    private var headerLine = 1

    init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, preferred: CSVDialect,
         tableVocabulary: ParticipantVocabulary, flatVocabulary: ParticipantVocabulary) {
        self.records = CSVRecordReader(decoder: CSVTextDecoder(source: source))
        self.options = options
        self.log = log
        self.settings = CSVSettings(options.formatSettings)
        self.preferred = preferred
        self.tableVocabulary = tableVocabulary
        self.flatVocabulary = flatVocabulary
    }

    func next() throws -> CalendarStreamElement? {
        while queue.isEmpty && !finished { try advance() }
        return queue.isEmpty ? nil : queue.removeFirst()
    }

    private var file: String { options.sourceName }

    /// Repairs in lenient mode with a warning; fails under `--strict`.
    private func lenient(line: Int, column: Int? = nil, _ message: String) throws {
        if options.strict { throw CalendarError(.data, file: file, line: line, location: column.map { "\($0)" }, message) }
        log.warning(file: file, line: line, location: column.map { "\($0)" }, message)
    }

    private func advance() throws {
        guard let item = try records.next() else {
            if !calendarOpen && header != nil && !openedAny {
                // A header without rows is an empty calendar, not no calendar.
                queue.append(.beginCalendar(Calendar()))
                calendarOpen = true
            }
            if calendarOpen { queue.append(.endCalendar(trailingProperties: [])) }
            calendarOpen = false
            finished = true
            return
        }
        switch item {
        case .unreadable(let line, let message):
            throw CalendarError(.data, file: file, line: line, message)
        case .malformed(let line, let row, let column, let message):
            try lenient(line: line, column: column, "row \(row) skipped: \(header.map { columnName(column - 1, in: $0) } ?? "column \(column)"): \(message)")
        case .record(let record):
            if header == nil {
                try readHeader(record)
            } else {
                try readRow(record)
            }
        }
    }

    private func texts(_ record: CSVRecord) throws -> [String] {
        var result: [String] = []
        for (index, bytes) in record.fields.enumerated() {
            let (text, recoded) = CSVRecord.text(bytes)
            if recoded && !warnedRecoding {
                warnedRecoding = true
                try lenient(line: record.line, column: index + 1, "cells are not valid UTF-8; they are read as Windows-1252, the code page of Outlook's ANSI export")
            }
            // Line breaks inside a cell become LF: Outlook writes CRLF there, Excel LF, and calendar
            // text (RFC 5545 §3.3.11) knows only one kind of line break.
            let cell = bytes.contains(0x0D) ? text.replacingAll("\r\n", with: "\n").replacingAll("\r", with: "\n") : text
            result.append(CSVRecordWriter.removingFormulaGuard(cell.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }

    private func readHeader(_ record: CSVRecord) throws {
        let names = try texts(record)
        if names.allSatisfy(\.isEmpty) { return }
        headerLine = record.line
        guard let header = CSVHeader.detect(names, preferred: preferred) else {
            throw CalendarError(.data, file: file, line: record.line,
                "the header has no start-date column of any layout calport reads (Outlook in en/de/fr/es/zh/ja, Google, or calport's csv): \(names.prefix(8).joined(separator: ", "))")
        }
        self.header = header
        let unknown = header.unknownNames.filter { !$0.isEmpty }
        if !unknown.isEmpty {
            let more = unknown.count > 20 ? " and \(unknown.count - 20) more" : ""
            log.warning(
                file: file, line: record.line,
                "columns not in the \(header.dialect.rawValue) layout are ignored: \(unknown.prefix(20).joined(separator: ", "))\(more)")
        }
        if header.dialect == .flat {
            flat = FlatRowMapper(vocabulary: flatVocabulary)
        } else {
            let locale = settings.locale ?? header.language.defaultLocale
            let codec = try CSVDateCodec(locale: locale, dateFormat: settings.dateFormat, timeFormat: settings.timeFormat,
                                         writesSeconds: header.dialect == .outlook, place: file)
            // Resolved here only to refuse a zone nobody knows; the TZID is kept as the user wrote it.
            let zone = try settings.timeZone.map { try CSVZoneConverter(name: $0, place: file).name }
            table = TableRowMapper(dialect: header.dialect, language: header.language, codec: codec, zone: zone,
                                   vocabulary: tableVocabulary)
        }
    }

    private func columnName(_ index: Int, in header: CSVHeader) -> String {
        index >= 0 && index < header.names.count ? "column \(index + 1) '\(header.names[index])'" : "column \(index + 1)"
    }

    private func readRow(_ record: CSVRecord) throws {
        guard let header else { return }
        let cells = try texts(record)
        if cells.allSatisfy(\.isEmpty) { return }
        let row = record.row
        if cells.count < header.names.count {
            try lenient(line: record.line, column: cells.count + 1,
                "row \(row) has \(cells.count) cells, the header has \(header.names.count); the missing cells (from \(columnName(cells.count, in: header))) are read as empty")
        } else if cells.count > header.names.count && cells[header.names.count...].contains(where: { !$0.isEmpty }) {
            try lenient(line: record.line, column: header.names.count + 1,
                "row \(row) has \(cells.count) cells, the header has \(header.names.count); the extra cells are ignored")
        }
        if let stray = record.strayQuoteColumn {
            try lenient(line: record.line, column: stray, "row \(row), \(columnName(stray - 1, in: header)): a quote inside an unquoted cell, or text after a closing quote, is kept as written")
        }
        var warnings: [(Int?, String)] = []
        let event: Event
        do {
            if let flat {
                event = try flat.event(cell: { column in
                    guard let i = header.index(of: column), i < cells.count, !cells[i].isEmpty else { return nil }
                    return (cells[i], i)
                }, warn: { warnings.append(($0, $1)) })
            } else {
                event = try table!.event(cell: { column in
                    guard let i = header.index(of: column), i < cells.count, !cells[i].isEmpty else { return nil }
                    return (cells[i], i)
                }, warn: { warnings.append(($0, $1)) })
            }
        } catch let error as CSVCellError {
            let place = error.index.map { columnName($0, in: header) }
            try lenient(line: record.line, column: error.index.map { $0 + 1 },
                "row \(row) skipped: \(place.map { $0 + ": " } ?? "")\(error.message)")
            return
        }
        for (index, message) in warnings {
            try lenient(line: record.line, column: index.map { $0 + 1 }, "row \(row)\(index.map { ", " + columnName($0, in: header) } ?? ""): \(message)")
        }
        let title = flat != nil ? header.index(of: FlatColumn.calendar).flatMap { $0 < cells.count && !cells[$0].isEmpty ? cells[$0] : nil } : nil
        if !calendarOpen || (flat != nil && title != calendarTitle) {
            if calendarOpen { queue.append(.endCalendar(trailingProperties: [])) }
            queue.append(.beginCalendar(Calendar(title: title)))
            calendarOpen = true
            openedAny = true
            calendarTitle = title
        }
        queue.append(.entry(.event(event), line: record.line))
    }
}
