import CalendarModel

/// Reports once per run each participant word no vocabulary knows (kept as `.other(word)`,
/// so it round-trips unchanged), with the place it was first seen, so the user can name it in
/// a `--map` file.
public struct UnknownWordReport: ConversionStage {
    private let log: DiagnosticLog
    /// The output format when it cannot carry such words (Outlook CSV's columns), so the
    /// warning says the word is lost rather than kept.
    private let losingFormat: String?
    private var inputName = "-"
    private var reported: Set<String> = []

    /// A report that warns on `log`; `output` is the format written, when known.
    public init(log: DiagnosticLog, output: (any CalendarFormat)? = nil) {
        self.log = log
        self.losingFormat = output.flatMap { $0.vocabulary?.keepsUnknownWords == false ? $0.id : nil }
    }

    /// Remembers the input's name for warnings.
    public mutating func beginInput(name: String) {
        inputName = name
    }

    /// Passes every element on, reporting the unknown participant words of items.
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        if case .entry(let entry, let line) = element, let item = entry.item {
            for p in [item.organizer].compactMap({ $0 }) + item.attendees + item.alarms.flatMap(\.attendees) {
                if case .other(let w) = p.role { report("role", w, line) }
                if case .other(let w) = p.status { report("status", w, line) }
                if case .other(let w) = p.type { report("type", w, line) }
            }
        }
        try emit(element)
    }

    private mutating func report(_ field: String, _ word: String, _ line: Int) {
        guard reported.insert(field + "\u{0}" + word).inserted else { return }
        let fate = losingFormat.map { "\($0) cannot keep it as written" } ?? "kept as written"
        log.warning(
            file: inputName, line: line,
            "participant \(field) '\(word)' is in no vocabulary; \(fate) (give it a meaning with --map FILE)")
    }
}
