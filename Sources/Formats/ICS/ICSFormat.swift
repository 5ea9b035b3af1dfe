import CalendarModel
import ICalendarData

/// iCalendar (RFC 5545): `.ics`, `text/calendar`.
public struct ICSFormat: CalendarFormat {
    public init() {}

    public var id: String { "ics" }
    public var fileExtensions: [String] { ["ics", "ical", "ifb", "icalendar", "vcs"] }
    public var mediaType: String { "text/calendar" }
    public var summary: String { "iCalendar (RFC 5545)" }
    public var vocabulary: ParticipantVocabulary? { ICalendarVocabulary.vocabulary(formatID: id) }

    public func sniff(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        return String(decoding: bytes.prefix(15), as: UTF8.self).uppercased().hasPrefix("BEGIN:VCALENDAR")
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        ICSReader(source: source, options: options, log: log, mapper: ICalendarMapper(vocabulary: vocabulary(with: options.vocabularyOverrides)!))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        ICSWriter(sink: sink, mapper: ICalendarMapper(vocabulary: vocabulary(with: options.vocabularyOverrides)!))
    }
}
