import CalendarModel
import ICalendarData
import JSONCoding

/// JSCalendar (RFC 8984): Events and Tasks in Groups. What JSCalendar cannot hold from
/// iCalendar travels in `calport:` vendor members (docs/jscalendar.md), so ICS → JSCalendar →
/// ICS keeps everything.
public struct JSCalendarFormat: CalendarFormat {
    public init() {}

    public var id: String { "jscalendar" }
    /// `.json` too, shared with other JSON formats: the content tells them apart (`sniff`).
    public var fileExtensions: [String] { ["jscal", "jscalendar", "json"] }
    public var mediaType: String { "application/jscalendar+json" }
    public var summary: String { "JSCalendar (RFC 8984): Events and Tasks in Groups" }
    public var vocabulary: ParticipantVocabulary? { JSCalendarVocabulary.participants }

    /// An object (or an array of objects) whose `@type` is Group, Event or Task, wherever the
    /// member stands among the first ones.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let shape = JSONPrefix(prefix)
        guard shape.root == .object || shape.root == .array, let type = shape.string("@type") else { return false }
        return type == "Group" || type == "Event" || type == "Task"
    }

    /// iCalendar's words for the component tree the remainder is kept in, with a run's overrides.
    private func mapper(_ overrides: VocabularyOverrides) -> ICalendarMapper {
        ICalendarMapper(vocabulary: ICalendarVocabulary.vocabulary(formatID: id).applying(overrides))
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        JSCalendarReader(source: source, options: options, log: log, mapper: mapper(options.vocabularyOverrides))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        JSCalendarWriter(
            sink: sink, mapper: mapper(options.vocabularyOverrides), vocabularyOverrides: options.vocabularyOverrides,
            concurrency: options.concurrency)
    }
}
