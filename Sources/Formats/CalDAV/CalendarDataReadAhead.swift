import CalendarModel
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

    /// How many of every `cycle` resources with calendar data are read ahead. One in four
    /// balanced the threads on the bench archive while every resource's VTIMEZONEs were parsed
    /// (10k items: two in five left the scanner 3.0G instructions against the reader's 2.4G;
    /// three in ten, 2.8G against 2.6G); with repeated blocks cut out (`RepeatedCalendarText`)
    /// a resource costs less, and one in sixteen does (10k items: one in eight left the
    /// scanner 2.33G instructions against the reader's 2.04G).
    private static let readAhead = 1
    private static let cycle = 16

    private final class Collected {
        var diagnostics: [Diagnostic] = []
    }

    private let parser: CalendarDataParser
    private let collected = Collected()
    private var seen = 0

    init(formats: [any CalendarFormat], options: ReadOptions, repeated: RepeatedCalendarText?) {
        let collected = self.collected
        // Kept whole: the reader's log bounds them when they are replayed into it.
        let log = DiagnosticLog(keptPerKind: nil) { collected.diagnostics.append($0) }
        self.parser = CalendarDataParser(formats: formats, options: options, log: log, repeated: repeated)
    }

    /// The response's calendar data read now, when `CalDAVReader.handle` would parse it and
    /// this response is one of those read ahead; nil otherwise.
    func read(_ response: DAVResponse) -> Read? {
        if let status = response.status, let code = DAVResponse.code(status), !(200..<300).contains(code) { return nil }
        guard !response.isCalendarCollection, let data = response.properties[DAVNames.calendarData] else { return nil }
        seen += 1
        guard seen % Self.cycle < Self.readAhead else { return nil }
        collected.diagnostics = []
        let result = Result { try parser.parse(data, resource: response.href ?? "") }
        return Read(result: result, diagnostics: collected.diagnostics)
    }
}
