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
        if case .entry(let entry, let line) = element {
            switch entry {
            case .event(let e): check(e.item, line)
            case .reminder(let r): check(r.item, line)
            case .timeZone, .other: break
            }
        }
        try emit(element)
    }

    /// Walks the participants in place: this runs on every item, and copying them (or
    /// `CalendarEntry.item`) cost more than the check.
    private mutating func check(_ item: CalendarItem, _ line: Int) {
        check(item.organizer?.role, item.organizer?.status, item.organizer?.type, line)
        for i in item.attendees.indices {
            check(item.attendees[i].role, item.attendees[i].status, item.attendees[i].type, line)
        }
        for alarm in item.alarms {
            for i in alarm.attendees.indices {
                check(alarm.attendees[i].role, alarm.attendees[i].status, alarm.attendees[i].type, line)
            }
        }
    }

    private mutating func check(_ role: ParticipantRole?, _ status: ParticipantStatus?, _ type: ParticipantType?, _ line: Int) {
        if case .other(let w) = role { report("role", w, line) }
        if case .other(let w) = status { report("status", w, line) }
        if case .other(let w) = type { report("type", w, line) }
    }

    private mutating func report(_ field: String, _ word: String, _ line: Int) {
        guard reported.insert(field + "\u{0}" + word).inserted else { return }
        let fate = losingFormat.map { "\($0) cannot keep it as written" } ?? "kept as written"
        log.warning(
            file: inputName, line: line,
            "participant \(field) '\(word)' is in no vocabulary; \(fate) (give it a meaning with --map FILE)")
    }
}
