import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Writes jCal (RFC 7265) as elements arrive: the calendar's properties, then one component
/// per line. A stream with several calendars becomes several top-level jCal values, one after
/// another (what `jq` and the jCal reader accept), because wrapping them in an outer array
/// would need to know the count in advance.
///
/// jCal puts a calendar's properties before its components, so properties that stood after
/// the components in the source (`endCalendar`'s trailing properties) cannot go back to where
/// they were: they are written in an extra `x-calport-trailing` component at the end of the
/// calendar, which the reader turns back into trailing properties. Nothing is dropped.
public struct JCalWriter: CalendarWriter {
    /// The component that carries properties which came after the components in the source.
    public static let trailingComponentName = "X-CALPORT-TRAILING"

    private var out: JSONOutput
    private let mapper: ICalendarMapper
    private var calendarOpen = false

    /// A writer sending bytes to `sink`, mapping the model through `mapper`.
    public init(sink: ByteSink, mapper: ICalendarMapper) {
        self.out = JSONOutput(sink: sink)
        self.mapper = mapper
    }

    private mutating func begin(_ calendar: CalendarModel.Calendar) {
        calendarOpen = true
        out.beginArray()
        out.string("vcalendar")
        out.beginArray()
        for p in mapper.properties(from: calendar) { out.jcalProperty(p) }
        out.endArray()
        out.beginArray()
    }

    private mutating func end(_ trailing: [Property]) {
        if !trailing.isEmpty {
            out.lineBreak()
            out.jcalComponent(Component(name: Self.trailingComponentName, properties: trailing))
        }
        out.softNewline()
        out.endArray()
        out.endArray()
        out.newline()
        calendarOpen = false
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let c):
            if calendarOpen { end([]) }
            begin(c)
        case .entry(let entry, _):
            if !calendarOpen { begin(CalendarModel.Calendar()) }
            out.lineBreak()
            out.jcalComponent(mapper.component(from: entry))
        case .endCalendar(let trailing):
            if !calendarOpen { begin(CalendarModel.Calendar()) }
            end(trailing)
        }
        try out.flushIfFull()
    }

    public mutating func finish() throws {
        if calendarOpen { end([]) }
        try out.flush()
    }
}
