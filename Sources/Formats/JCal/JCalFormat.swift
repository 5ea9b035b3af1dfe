import CalendarModel
import ICalendarData

/// jCal (RFC 7265): iCalendar's component tree as JSON arrays, lossless with ICS.
public struct JCalFormat: CalendarFormat {
    public init() {}

    public var id: String { "jcal" }
    /// `.json` too, shared with other JSON formats: the content tells them apart (`sniff`).
    public var fileExtensions: [String] { ["jcal", "jcs", "json"] }
    public var mediaType: String { "application/calendar+json" }
    public var summary: String { "jCal (RFC 7265): iCalendar as JSON, lossless with ICS" }
    public var vocabulary: ParticipantVocabulary? { JCalVocabulary.participants }

    /// An array whose first string is "vcalendar".
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(512), as: UTF8.self)
        let significant = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        guard significant.hasPrefix("[") else { return false }
        let compact = significant.filter { !$0.isWhitespace && $0 != "[" }
        return compact.lowercased().hasPrefix("\"vcalendar\"")
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        JCalReader(
            source: source, options: options, log: log,
            mapper: ICalendarMapper(vocabulary: JCalVocabulary.participants.applying(options.vocabularyOverrides)))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        JCalWriter(sink: sink, mapper: ICalendarMapper(vocabulary: JCalVocabulary.participants.applying(options.vocabularyOverrides)))
    }
}
