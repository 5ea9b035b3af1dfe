import CalendarModel
import Synchronization
import XMLSupport

/// Reads the calendar data of some DAV:responses on the scanning thread, so that the two
/// threads share the cost of the embedded iCalendar: otherwise the reader's thread parses
/// every resource while the scanner, which only reads the XML, waits for room (1k resources:
/// 350M instructions against 190M). What it reads is handed over with the diagnostics it
/// reported, which the reader's thread reports where it would have parsed the data itself, so
/// messages keep their order and a failure comes at the same place.
final class CalendarDataReadAhead {
    /// The calendar data of one response, read ahead: what `CalendarDataParser.parse`
    /// returned or threw, and what it reported meanwhile.
    struct Read {
        var result: Result<[CalendarStreamElement], Error>
        var diagnostics: [Diagnostic]
    }

    /// How many responses the scanner may be ahead of the reader before it reads their calendar
    /// data itself. The scanner hands responses on in batches of 16, at most four waiting
    /// (`Prefetcher`): when the reader is the slower, the scanner stays 48 to 96 ahead, and
    /// blocks there unless it has something to do; when the scanner is the slower, it is at
    /// most 32 ahead. Reading ahead only in the first case balances the threads whatever a
    /// resource costs to parse against the XML around it (a fixed one in sixteen left the
    /// reader's thread busy and the scanner's idle a third of the time: caldav -> ICS at 100k
    /// took 5.3 s of CPU in 3.4 s).
    static let defaultLead = 40
    private let lead: Int

    /// Responses the scanner has handed on (written on the scanner's thread only) and the
    /// reader has taken (written on the reader's).
    private var handedOn = 0
    private let taken = Atomic<Int>(0)

    private final class Collected {
        var diagnostics: [Diagnostic] = []
    }

    private let parser: CalendarDataParser
    private let collected = Collected()

    /// Reads ahead once the reader is `lead` responses behind (0: every response; tests).
    init(formats: [any CalendarFormat], options: ReadOptions, repeated: RepeatedCalendarText?, lead: Int = defaultLead) {
        self.lead = lead
        let collected = self.collected
        // Kept whole: the reader's log bounds them when they are replayed into it.
        let log = DiagnosticLog(keptPerKind: nil) { collected.diagnostics.append($0) }
        self.parser = CalendarDataParser(formats: formats, options: options, log: log, repeated: repeated)
    }

    /// The response's calendar data read now, when `CalDAVReader.handle` would parse it and
    /// the reader is far enough behind; nil otherwise. Called for every response handed on.
    func read(_ response: DAVResponse) -> Read? {
        handedOn += 1
        if let status = response.status, let code = DAVResponse.code(status), !(200..<300).contains(code) { return nil }
        guard !response.isCalendarCollection, let data = response.properties[DAVNames.calendarData] else { return nil }
        guard handedOn - taken.load(ordering: .relaxed) >= lead else { return nil }
        collected.diagnostics = []
        let result = Result { try parser.parse(data, resource: response.href ?? "") }
        return Read(result: result, diagnostics: collected.diagnostics)
    }

    /// Called by the reader for every response it takes from the scanner.
    func noteTaken() {
        taken.add(1, ordering: .relaxed)
    }
}
