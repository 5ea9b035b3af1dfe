import CalendarModel
import ExchangeData
import ICalendarData

/// Microsoft Graph event JSON: what `GET /me/events`, `/me/calendarView`, `/events/{id}/instances`
/// and `/events/delta` return, and PowerShell's `Get-MgUserEvent | ConvertTo-Json`; written as
/// `POST /me/events` bodies (`{"value": [...]}`) or as JSON `$batch` requests.
public struct GraphFormat: CalendarFormat {
    public init() {}

    public var id: String { "graph" }
    /// Graph's documents are plain `.json`: Graph joins the JSON formats' extension, after them, and
    /// content decides among the claimants (`sniff`), so a saved Graph response needs no `-f graph`.
    /// Writing `-o out.json` means the first claimant (calport's JSON); `-t graph` picks Graph.
    public var fileExtensions: [String] { ["json"] }
    public var mediaType: String { "application/json" }
    public var summary: String { "Microsoft Graph event JSON (events, calendarView, delta, PowerShell)" }
    public var vocabulary: ParticipantVocabulary? { ExchangeVocabulary.graph }
    /// Exchange's patterns are Gregorian and it has no RDATE: an RFC 7529 rule becomes one item per
    /// occurrence in the `--lower-rscale` window, reported as a loss.
    public var nonGregorianRules: NonGregorianRuleSupport { .separateItems }

    /// The setting that asks the writer for `$batch` request bodies (`--graph-batch`).
    public static let batchSetting = "graph-batch"

    /// Graph JSON: an `@odata.context` naming events or a calendarView, or an event object (or
    /// an array of them) whose first members are Graph's own event members, in REST or
    /// PowerShell spelling. JSCalendar (`@type`), jCal (`["vcalendar"`) and calport's JSON
    /// (`"format": "calport"`) never carry these.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
        let significant = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace || $0 == "[" }
        guard significant.hasPrefix("{") else { return false }
        let compact = significant.filter { !$0.isWhitespace }
        if compact.contains("\"@odata.context\":\""),
            compact.contains("/events") || compact.contains("calendarView") || compact.contains("/instances")
                || compact.contains("microsoft.graph.event")
        {
            return true
        }
        if compact.contains("\"@odata.type\":\"#microsoft.graph.event\"") { return true }
        // Without OData annotations (PowerShell, or `$select` output saved by hand): members
        // that only Graph's event has, at least two of them.
        let graphOnly = [
            "\"iCalUId\":", "\"ICalUId\":", "\"originalStartTimeZone\":", "\"OriginalStartTimeZone\":", "\"seriesMasterId\":",
            "\"SeriesMasterId\":", "\"isAllDay\":", "\"IsAllDay\":", "\"showAs\":", "\"ShowAs\":", "\"bodyPreview\":",
            "\"BodyPreview\":", "\"isReminderOn\":", "\"IsReminderOn\":", "\"changeKey\":", "\"ChangeKey\":",
        ]
        let hits = graphOnly.filter { compact.contains($0) }.count
        if hits >= 2 { return true }
        // A start given as Graph's dateTimeTimeZone.
        return hits >= 1 && (compact.contains("\"start\":{\"dateTime\":") || compact.contains("\"Start\":{\"DateTime\":"))
    }

    /// iCalendar's words, for the remainder kept beside each event (`GraphRemainder`).
    private func mapper(_ overrides: VocabularyOverrides) -> ICalendarMapper {
        ICalendarMapper(vocabulary: ICalendarVocabulary.vocabulary(formatID: id).applying(overrides))
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        GraphReader(
            source: source, options: options, log: log, vocabulary: ExchangeVocabulary.graph.applying(options.vocabularyOverrides),
            mapper: mapper(options.vocabularyOverrides))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        GraphWriter(
            sink: sink, options: options, log: log, vocabulary: ExchangeVocabulary.graph.applying(options.vocabularyOverrides),
            mapper: mapper(options.vocabularyOverrides), batch: options.formatSettings[Self.batchSetting] != nil)
    }
}
