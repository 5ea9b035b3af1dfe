import CalendarModel

/// What `calport inspect` shows about one calendar, as an EventKit calendar list does.
public struct CalendarOverview: Sendable, Equatable {
    public var title: String?
    public var kind: Calendar.Kind
    public var color: String?
    public var allowsContentModifications: Bool
    public var source: CalendarSource?
    public var subscriptionURL: String?
    public var refreshInterval: CalendarDuration?
    /// Events that recall a contact's date (birthday calendars).
    public var birthdays = 0
    public var events = 0
    public var reminders = 0
    public var timeZones = 0
    public var otherComponents = 0
    public var recurringItems = 0
}

/// Reads inputs to the end and tallies their calendars.
public struct CalendarInspector: Sendable {
    public let converter: Converter

    public init(converter: Converter = Converter()) {
        self.converter = converter
    }

    public func inspect(
        path: String, format: String?, strict: Bool, vocabularyOverrides: VocabularyOverrides = .none, log: DiagnosticLog
    ) throws -> [CalendarOverview] {
        let source = try FileByteSource(path: path)
        var reader = try converter.makeReader(
            name: path, source: source,
            request: ConversionRequest(inputs: [path], inputFormat: format, strict: strict, vocabularyOverrides: vocabularyOverrides),
            log: log)
        var result: [CalendarOverview] = []
        var current: CalendarOverview?
        // Birthday and subscription calendars are told apart as a conversion tells them.
        var detection = CalendarKindDetection()
        func tally(_ element: CalendarStreamElement) {
            switch element {
            case .beginCalendar(let c):
                current = CalendarOverview(
                    title: c.title, kind: c.kind, color: c.color, allowsContentModifications: c.allowsContentModifications,
                    source: c.source, subscriptionURL: c.subscriptionURL, refreshInterval: c.refreshInterval)
            case .entry(let entry, _):
                switch entry {
                case .event(let e):
                    current?.events += 1
                    if e.birthday != nil { current?.birthdays += 1 }
                case .reminder: current?.reminders += 1
                case .timeZone: current?.timeZones += 1
                case .other: current?.otherComponents += 1
                }
                if entry.item?.hasRecurrenceRules == true { current?.recurringItems += 1 }
            case .endCalendar:
                if let c = current { result.append(c) }
                current = nil
            }
        }
        while let element = try reader.next() {
            try detection.process(element) { tally($0) }
        }
        try detection.finish { tally($0) }
        return result
    }
}
