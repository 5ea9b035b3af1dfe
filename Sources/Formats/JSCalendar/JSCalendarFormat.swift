import CalendarModel
import ICalendarData

/// JSCalendar (RFC 8984): Events and Tasks in Groups. What JSCalendar cannot hold from
/// iCalendar travels in `calport:` vendor members (docs/jscalendar.md), so ICS → JSCalendar →
/// ICS keeps everything.
public struct JSCalendarFormat: CalendarFormat {
    public init() {}

    public var id: String { "jscalendar" }
    public var fileExtensions: [String] { ["jscal", "jscalendar"] }
    public var mediaType: String { "application/jscalendar+json" }
    public var summary: String { "JSCalendar (RFC 8984): Events and Tasks in Groups" }
    public var vocabulary: ParticipantVocabulary? { JSCalendarVocabulary.participants }

    /// An object whose `@type` is Group, Event or Task near the start.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(1024), as: UTF8.self)
        let significant = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace || $0 == "[" }
        guard significant.hasPrefix("{") else { return false }
        let compact = significant.filter { !$0.isWhitespace }
        return compact.contains("\"@type\":\"Group\"") || compact.contains("\"@type\":\"Event\"") || compact.contains("\"@type\":\"Task\"")
    }

    /// iCalendar's words for the component tree the remainder is kept in.
    private var mapper: ICalendarMapper { ICalendarMapper(vocabulary: ICalendarVocabulary.vocabulary(formatID: id)) }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        JSCalendarReader(source: source, options: options, log: log, mapper: mapper)
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        JSCalendarWriter(sink: sink, mapper: mapper)
    }
}
