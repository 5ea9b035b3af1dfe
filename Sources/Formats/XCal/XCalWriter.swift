import CalendarModel
import ICalendarData
import XMLSupport

/// Writes calendars as xCal (RFC 6321): one `<icalendar>` root holding a `<vcalendar>` per
/// calendar, each component written as soon as it arrives.
public struct XCalWriter: CalendarWriter {
    /// What is written for a calendar that does not say who produced it (as the ICS writer does).
    public static let productID = "-//calport//calport 1.0//EN"

    private let sink: ByteSink
    private let mapper: ICalendarMapper
    private let log: DiagnosticLog
    private let destination: String
    /// The XML writer and the xCal encoder, in the emitter that `ICalendarMapper.emit` writes
    /// items to.
    private var out: XCalEmitter
    private var started = false
    private var inComponents = false

    /// A writer onto `sink`, turning typed entries into components with `mapper`.
    public init(sink: ByteSink, mapper: ICalendarMapper, log: DiagnosticLog, destination: String) {
        self.sink = sink
        self.mapper = mapper
        self.log = log
        self.destination = destination
        out = XCalEmitter(xml: XMLByteWriter(namespaces: [("", XCalNames.namespace)]))
    }

    private mutating func startDocument() {
        guard !started else { return }
        started = true
        out.xml.declaration()
        out.xml.start(XCalNames.icalendar)
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        startDocument()
        switch element {
        case .beginCalendar(let calendar):
            out.xml.start(XCalNames.vcalendar)
            var properties = mapper.properties(from: calendar)
            // VERSION and PRODID are required (RFC 5545 §3.6), as the ICS writer supplies them.
            if !properties.contains(where: { $0.name == "PRODID" }) {
                properties.insert(Property(name: "PRODID", value: .text([Self.productID])), at: 0)
            }
            if !properties.contains(where: { $0.name == "VERSION" }) {
                properties.insert(Property(name: "VERSION", value: .text(["2.0"])), at: 0)
            }
            out.xml.start(XCalNames.properties)
            for p in properties { out.encoder.write(p, to: &out.xml) }
            out.xml.end()
        case .entry(let entry, _):
            if !inComponents {
                inComponents = true
                out.xml.start(XCalNames.components)
            }
            // Straight from the typed model to elements, as the ICS writer does.
            mapper.emit(entry, to: &out)
        case .endCalendar(let trailing):
            if inComponents {
                inComponents = false
                out.xml.end()
            }
            if !trailing.isEmpty {
                out.xml.start(XCalNames.properties)
                for p in trailing { out.encoder.write(p, to: &out.xml) }
                out.xml.end()
            }
            out.xml.end()
        }
        if out.xml.bufferedByteCount >= 1 << 16 { try flush() }
    }

    public mutating func finish() throws {
        startDocument()
        out.xml.end()
        try flush()
        if out.xml.replacedCharacters > 0 {
            log.warning(file: destination, "\(out.xml.replacedCharacters) characters XML cannot carry were replaced with U+FFFD")
        }
    }

    private mutating func flush() throws {
        guard out.xml.bufferedByteCount > 0 else { return }
        let sink = self.sink
        try out.xml.takeBytes { try sink.write($0) }
    }
}
