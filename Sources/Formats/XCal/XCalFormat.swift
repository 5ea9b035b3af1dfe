import CalendarModel
import ICalendarData

/// xCal (RFC 6321): iCalendar's component tree as XML, lossless with ICS, `application/calendar+xml`.
public struct XCalFormat: CalendarFormat {
    public init() {}

    public var id: String { "xcal" }
    public var fileExtensions: [String] { ["xcs", "xcal"] }
    public var mediaType: String { "application/calendar+xml" }
    public var summary: String { "xCal (RFC 6321): iCalendar as XML, lossless with ICS" }
    public var vocabulary: ParticipantVocabulary? { ICalendarVocabulary.vocabulary(formatID: id) }

    /// XML whose first element is `icalendar` and which names the xCal namespace.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(2048), as: UTF8.self)
        guard text.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace }).hasPrefix("<") else { return false }
        return text.contains(XCalNames.namespace) && text.contains("icalendar")
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        XCalReader(source: source, options: options, log: log, mapper: ICalendarMapper(vocabulary: vocabulary!))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        XCalWriter(sink: sink, mapper: ICalendarMapper(vocabulary: vocabulary!), log: log, destination: options.destinationName)
    }
}
