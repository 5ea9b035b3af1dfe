import CalendarModel
import ExchangeData

/// Exchange Web Services XML: the SOAP documents of GetItem, FindItem, SyncFolderItems,
/// CreateItem and UpdateItem, and bare `t:Items` / `t:CalendarItem`, read as one calendar.
public struct EWSFormat: CalendarFormat {
    public init() {}

    public var id: String { "ews" }
    /// EWS documents are `.xml` like CalDAV and xCal bodies; `.xml` is left to sniffing, which
    /// tells them apart by namespace.
    public var fileExtensions: [String] { ["ews"] }
    public var mediaType: String { "text/xml" }
    public var summary: String { "Exchange Web Services XML (GetItem/FindItem/SyncFolderItems responses, CreateItem/UpdateItem)" }
    public var vocabulary: ParticipantVocabulary? { ExchangeVocabulary.ews }
    /// Exchange's patterns are Gregorian and it has no RDATE: an RFC 7529 rule becomes one item per
    /// occurrence in the `--lower-rscale` window, reported as a loss.
    public var nonGregorianRules: NonGregorianRuleSupport { .separateItems }
    /// A folder of EWS documents is the pages of one mailbox folder (FindItem, SyncFolderItems).
    public var folderIsOneCalendar: Bool { true }

    /// XML that declares EWS's types namespace near its start.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }), text[first] == "<" else { return false }
        return text.contains("schemas.microsoft.com/exchange/services/2006/types")
            || text.contains("schemas.microsoft.com/exchange/services/2006/messages")
            || text.contains("schemas.microsoft.com/exchange/services/2006/errors")
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        EWSReader(
            source: source, options: options, log: log, vocabulary: vocabulary(with: options.vocabularyOverrides) ?? ExchangeVocabulary.ews)
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        EWSWriter(sink: sink, options: options, log: log, vocabulary: vocabulary(with: options.vocabularyOverrides) ?? ExchangeVocabulary.ews)
    }
}
