import CalendarModel
import JSONCoding

/// calport's native JSON as JSON Lines (`jsonl`): one element per line, each item line naming
/// its calendar, so `calport convert big.ics -t jsonl | jq …` starts printing at once.
/// Lines follow `#/$defs/line` of schemas/calport.schema.json.
public struct JSONLinesFormat: CalendarFormat {
    public init() {}

    public var id: String { "jsonl" }
    public var fileExtensions: [String] { ["jsonl", "ndjson"] }
    public var mediaType: String { "application/jsonl" }
    public var summary: String { "calport JSON Lines: one calendar item per line, for pipelines" }

    /// A first line that is a calport line object.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(256), as: UTF8.self)
        return text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.hasPrefix("{") && text.contains("\"calendarIndex\"")
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        NativeJSONReader(source: source, layout: .lines, options: options, log: log, vocabulary: participantVocabulary.applying(options.vocabularyOverrides))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        NativeJSONWriter(sink: sink, layout: .lines, vocabulary: participantVocabulary.applying(options.vocabularyOverrides))
    }

    private var participantVocabulary: ParticipantVocabulary { NativeJSONVocabulary.participants(formatID: id) }

    public var vocabulary: ParticipantVocabulary? { participantVocabulary }
}
