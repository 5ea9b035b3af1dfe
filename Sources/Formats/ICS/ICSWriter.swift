import CalendarModel
import ICalendarData

/// Writes calendars as iCalendar text: CRLF line ends, lines folded at 75 octets without
/// splitting a UTF-8 sequence (RFC 5545 §3.1), a stable property order.
public struct ICSWriter: CalendarWriter {
    /// What is written for a calendar that does not say who produced it.
    public static let productID = "-//calport//calport 1.0//EN"

    private let sink: ByteSink
    private let mapper: ICalendarMapper
    private var lines: ICSContentLines

    public init(sink: ByteSink, mapper: ICalendarMapper = ICalendarMapper()) {
        self.sink = sink
        self.mapper = mapper
        lines = ICSContentLines()
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let calendar):
            lines.begin("VCALENDAR")
            var properties = mapper.properties(from: calendar)
            // VERSION and PRODID are required (RFC 5545 §3.6); supply them for calendars that
            // came from formats without them.
            if !properties.contains(where: { $0.name == "PRODID" }) {
                properties.insert(Property(name: "PRODID", value: .text([Self.productID])), at: 0)
            }
            if !properties.contains(where: { $0.name == "VERSION" }) {
                properties.insert(Property(name: "VERSION", value: .text(["2.0"])), at: 0)
            }
            for p in properties { lines.property(p) }
        case .entry(let entry, _):
            // Straight from the typed model to bytes: no intermediate component tree.
            mapper.emit(entry, to: &lines)
        case .endCalendar(let trailing):
            for p in trailing { lines.property(p) }
            lines.end("VCALENDAR")
        }
        if lines.out.count >= 1 << 16 { try flush() }
    }

    public mutating func finish() throws {
        try flush()
    }

    private mutating func flush() throws {
        guard lines.out.count > 0 else { return }
        try lines.out.withUnsafeBytes { try sink.write($0) }
        lines.out.removeAll()
    }
}
