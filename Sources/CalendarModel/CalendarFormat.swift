/// Bytes in: a file, standard input, or memory. Returns 0 at the end.
public protocol ByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes out: a temporary file that is renamed on success, standard output, or memory.
public protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension ByteSink {
    /// Writes an array of bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// How to read: carried as a value into every reader, never global.
public struct ReadOptions: Sendable {
    /// The input's name for diagnostics ("-" for standard input).
    public var sourceName: String
    /// Strict mode: what lenient mode would repair and warn about is an error.
    public var strict: Bool
    /// Settings for one format (e.g. a CSV date pattern), by name.
    public var formatSettings: [String: String]
    /// Participant words the user added or changed (`--map`); readers apply them to their
    /// format's vocabulary.
    public var vocabularyOverrides: VocabularyOverrides
    /// Threads a reader may use for one input, counting the one that calls it (1: none of its
    /// own); readers that cannot use more ignore it. What comes out (elements, warnings, the
    /// error, their order) is the same for every value.
    public var concurrency: Int

    public init(
        sourceName: String, strict: Bool = false, formatSettings: [String: String] = [:],
        vocabularyOverrides: VocabularyOverrides = .none, concurrency: Int = 1
    ) {
        self.sourceName = sourceName
        self.strict = strict
        self.formatSettings = formatSettings
        self.vocabularyOverrides = vocabularyOverrides
        self.concurrency = max(1, concurrency)
    }
}

/// How to write.
public struct WriteOptions: Sendable {
    /// The output's name for diagnostics.
    public var destinationName: String
    /// Settings for one format, by name.
    public var formatSettings: [String: String]
    /// Participant words the user added or changed (`--map`); writers apply them to their
    /// format's vocabulary.
    public var vocabularyOverrides: VocabularyOverrides
    /// Threads a writer may use, counting the one that calls it (1: none of its own); writers
    /// that cannot use more ignore it. The bytes written are the same for every value.
    public var concurrency: Int

    public init(
        destinationName: String, formatSettings: [String: String] = [:], vocabularyOverrides: VocabularyOverrides = .none,
        concurrency: Int = 1
    ) {
        self.destinationName = destinationName
        self.formatSettings = formatSettings
        self.vocabularyOverrides = vocabularyOverrides
        self.concurrency = max(1, concurrency)
    }
}

/// Yields a stream of calendars one element at a time, so memory does not grow with the input.
public protocol CalendarReader {
    /// The next element, or nil at the end of the input.
    mutating func next() throws -> CalendarStreamElement?
    /// Whether the reader spreads its own work over threads (`ReadOptions.concurrency`), so
    /// the caller need not read it on a thread of its own.
    var readsOnSeveralThreads: Bool { get }
}

extension CalendarReader {
    /// Most readers read on the caller's thread.
    public var readsOnSeveralThreads: Bool { false }
}

/// Consumes a stream of calendar elements.
public protocol CalendarWriter {
    mutating func write(_ element: CalendarStreamElement) throws
    /// Flushes what is buffered; called once after the last element.
    mutating func finish() throws
}

/// A calendar format: how to recognize it, read it and write it, and its words for
/// participants. The registry is the only list of formats.
public protocol CalendarFormat: Sendable {
    /// Short unique id used on the command line (`ics`, `json`).
    var id: String { get }
    /// File extensions without the dot, lower-case, the preferred one first.
    var fileExtensions: [String] { get }
    var mediaType: String { get }
    /// One line for `calport formats`.
    var summary: String { get }
    /// Whether the first bytes of an input look like this format.
    func sniff(_ prefix: [UInt8]) -> Bool
    func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader
    func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter
    /// The format's participant words, when it has any.
    var vocabulary: ParticipantVocabulary? { get }
    /// Whether a folder of documents in this format is one calendar in pages (EWS FindItem
    /// pages of one mailbox folder) rather than one calendar per file.
    var folderIsOneCalendar: Bool { get }
    /// Whether the format's writer writes this entry: what it leaves out (and reports as a
    /// loss) is not counted as written.
    func holds(_ entry: CalendarEntry) -> Bool
    /// Whether the format can hold a rule in a non-Gregorian calendar (RFC 7529 RSCALE), and if
    /// not, how the conversion lowers one to dates for it (`RSCALELowering`).
    var nonGregorianRules: NonGregorianRuleSupport { get }
}

/// What a format does with a recurrence rule counted in a non-Gregorian calendar (RFC 7529
/// RSCALE=CHINESE, HEBREW, …).
public enum NonGregorianRuleSupport: Sendable, Hashable {
    /// The format writes the rule as it is (ICS, jCal, xCal, JSCalendar, calport's JSON).
    case holds
    /// The format has no such rule but has extra dates (RDATE): the occurrences become those.
    case recurrenceDates
    /// The format has neither: each occurrence becomes an item of its own (a CSV row).
    case separateItems
}

extension CalendarFormat {
    /// Most formats hold one calendar (or more) per file.
    public var folderIsOneCalendar: Bool { false }

    /// Most formats write every entry.
    public func holds(_ entry: CalendarEntry) -> Bool { true }

    /// Most formats carry RFC 7529 rules as they are.
    public var nonGregorianRules: NonGregorianRuleSupport { .holds }

    /// The format's participant words with a run's overrides applied.
    public func vocabulary(with overrides: VocabularyOverrides) -> ParticipantVocabulary? {
        vocabulary?.applying(overrides)
    }
}
