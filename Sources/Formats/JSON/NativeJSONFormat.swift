import CalendarModel
import JSONCoding

/// calport's native JSON (`json`): the whole model with EventKit's names, as one document
/// described by schemas/calport.schema.json.
public struct NativeJSONFormat: CalendarFormat {
    public init() {}

    public var id: String { "json" }
    public var fileExtensions: [String] { ["json"] }
    public var mediaType: String { "application/json" }
    public var summary: String { "calport JSON: the EventKit-shaped model, lossless (schemas/calport.schema.json)" }

    /// A document whose `format` member names the calport format.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let shape = JSONPrefix(prefix)
        return shape.root == .object && shape.string("format") == NativeJSONWriter.formatName
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        NativeJSONReader(source: source, layout: .document, options: options, log: log, vocabulary: participantVocabulary.applying(options.vocabularyOverrides))
    }

    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        NativeJSONWriter(sink: sink, layout: .document, vocabulary: participantVocabulary.applying(options.vocabularyOverrides))
    }

    private var participantVocabulary: ParticipantVocabulary { NativeJSONVocabulary.participants(formatID: id) }

    public var vocabulary: ParticipantVocabulary? { participantVocabulary }
}
