import CalendarModel
import ICalendarData
import JSONCoding

/// One event of a collection, as text, for a worker thread to parse and decode
/// (`GraphReader.decoded`); its warnings are kept, for the reader to replay in order.
struct GraphElementJob {
    /// What every job reads with.
    struct Settings {
        let options: ReadOptions
        let vocabulary: ParticipantVocabulary
        let mapper: ICalendarMapper
        /// The workers' string tables: the member names and short values of one event are
        /// mostly those of the events before.
        let strings: GraphStringTables
    }

    /// The decoded event (nil for a deletion), or the error that stopped it, and the warnings
    /// given before.
    struct Output {
        var line: Int
        var event: GraphEvent?
        var error: Error?
        var diagnostics: [Diagnostic] = []
    }

    /// The event's JSON text (`JSONParser.readValueBytes()`).
    let text: [UInt8]
    /// The line it begins on.
    let line: Int
    let path: String

    /// The warnings a job's decoder gives.
    private final class Given {
        var diagnostics: [Diagnostic] = []
    }

    func decode(_ settings: Settings) -> Output {
        let strings = settings.strings.table()
        let given = Given()
        let log = DiagnosticLog(keptPerKind: nil) { given.diagnostics.append($0) }
        var output = Output(line: line)
        let decoder = GraphEventDecoder(
            file: settings.options.sourceName, line: line, strict: settings.options.strict, log: log, vocabulary: settings.vocabulary,
            mapper: settings.mapper, strings: strings)
        do {
            var parser = JSONParser(bytes: text, sourceName: settings.options.sourceName, line: line, strings: strings)
            output.event = try GraphReader.decoded(try parser.readValue(), path: path, decoder: decoder)
        } catch {
            output.error = error
        }
        output.diagnostics = given.diagnostics
        return output
    }
}
