import CalendarModel

/// Calendar CSV in one of three layouts (`csv`, `csv-outlook`, `csv-google`), sharing one reader
/// and writer. Reading finds the layout from the header, so the id matters for writing; the
/// reader falls back to it only for a header both Outlook and Google could have written.
public struct CSVFormat: CalendarFormat {
    /// The layout this id writes.
    public let dialect: CSVDialect

    public init(_ dialect: CSVDialect) {
        self.dialect = dialect
    }

    public var id: String { dialect.rawValue }
    /// The flat layout keeps rules as RFC 5545 text; Outlook's and Google's have no column for a
    /// rule, so a lunar rule's occurrences become rows.
    public var nonGregorianRules: NonGregorianRuleSupport { dialect == .flat ? .holds : .separateItems }
    public var fileExtensions: [String] { ["csv"] }
    public var mediaType: String { "text/csv" }
    public var summary: String { dialect.summary }

    /// Whether the first line is a header this layout reads (the flat `csv` id accepts every
    /// calendar header, since its reader reads them all).
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let source = PrefixByteSource(prefix)
        let records = CSVRecordReader(decoder: CSVTextDecoder(source: source))
        guard case .record(let record)? = try? records.next() else { return false }
        let names = record.fields.map { CSVRecord.text($0).text }
        guard let header = CSVHeader.detect(names, preferred: dialect) else { return false }
        return dialect == .flat || header.dialect == dialect
    }

    /// Events with a start: a row needs one, and CSV has no rows for to-dos, time-zone
    /// definitions or other components.
    public func holds(_ entry: CalendarEntry) -> Bool {
        if case .event(let event) = entry { return event.start != nil }
        return false
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        CSVReader(source: source, options: options, log: log, preferred: dialect,
                  tableVocabulary: CSVVocabulary.tableParticipants(formatID: id).applying(options.vocabularyOverrides),
                  flatVocabulary: CSVVocabulary.flatParticipants(formatID: id).applying(options.vocabularyOverrides))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        CSVWriter(sink: sink, options: options, log: log, dialect: dialect,
                  tableVocabulary: CSVVocabulary.tableParticipants(formatID: id).applying(options.vocabularyOverrides),
                  flatVocabulary: CSVVocabulary.flatParticipants(formatID: id).applying(options.vocabularyOverrides))
    }

    public var vocabulary: ParticipantVocabulary? {
        switch dialect {
        case .flat: CSVVocabulary.flatParticipants(formatID: id)
        // Google Calendar's import columns have no place for attendees: its table is empty, so
        // `calport formats --vocabulary` shows that nothing about participants survives.
        case .google:
            ParticipantVocabulary(
                formatID: id, roleField: "(no attendee columns)", statusField: "(none)", typeField: "(none)", roles: [],
                statuses: [], types: [], keepsUnknownWords: false)
        default: CSVVocabulary.tableParticipants(formatID: id)
        }
    }
}

/// The first bytes of an input, as a source for sniffing.
private final class PrefixByteSource: ByteSource {
    private var bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count)
        for i in 0..<count { buffer[i] = bytes[i] }
        bytes.removeFirst(count)
        return count
    }
}
