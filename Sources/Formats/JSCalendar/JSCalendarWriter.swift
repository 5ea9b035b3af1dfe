import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Writes JSCalendar (RFC 8984): each calendar as a Group whose `entries` stream one Event or
/// Task per line. What JSCalendar cannot hold travels in `calport:` vendor members (see
/// `ICalendarRemainder` and docs/jscalendar.md): per item `calport:iCalendar`; per Group
/// `calport:iCalendar` for calendar properties, `calport:components` for time zones and other
/// components that came before the first item, `calport:componentsAfter` for those after the
/// last (held until the Group closes), and `calport:trailingProperties`. Components between
/// items ride on the next item as its `calport:componentsBefore`, so their order is kept.
/// Several calendars are written as several Groups one after another.
public struct JSCalendarWriter: CalendarWriter {
    /// What an item or Group cannot say in JSCalendar, as jCal (`ICalendarRemainder`).
    public static let remainderMember = "calport:iCalendar"
    /// A Group's components that came before its first item.
    public static let componentsMember = "calport:components"
    /// A Group's components that came after its last item.
    public static let componentsAfterMember = "calport:componentsAfter"
    /// An item's preceding components, so their place between items is kept.
    public static let componentsBeforeItemMember = "calport:componentsBefore"
    /// Calendar properties that stood after the components in the source.
    public static let trailingMember = "calport:trailingProperties"

    private var out: JSONOutput
    private let mapper: ICalendarMapper
    private var encoder = JSCalendarEncoder()
    private var calendar: CalendarModel.Calendar?
    private var entriesOpen = false
    /// Components waiting for the next item (or the Group's header, or its end).
    private var before: [Component] = []

    /// A writer sending bytes to `sink`.
    public init(sink: ByteSink, mapper: ICalendarMapper) {
        self.out = JSONOutput(sink: sink)
        self.mapper = mapper
    }

    /// A decoder for checking what was written; its warnings are not the user's concern.
    private var checker: JSCalendarDecoder {
        JSCalendarDecoder(file: "jscalendar", line: 0, strict: false, log: DiagnosticLog())
    }

    private mutating func openEntries() {
        guard let c = calendar, !entriesOpen else { return }
        entriesOpen = true
        let group = encoder.group(c)
        out.beginObject()
        for m in group.members {
            out.key(m.key)
            out.value(m.value)
        }
        var remainder = ICalendarRemainder()
        if let decoded = try? checker.calendar(group, "") {
            remainder = .between(original: mapper.properties(from: c), reconstructed: mapper.properties(from: decoded))
        } else {
            remainder.properties = mapper.properties(from: c)
        }
        if !remainder.isEmpty {
            out.key(Self.remainderMember)
            out.remainder(remainder)
        }
        if !before.isEmpty {
            out.key(Self.componentsMember)
            out.beginArray()
            for comp in before { out.jcalComponent(comp) }
            out.endArray()
            before.removeAll()
        }
        out.key("entries")
        out.beginArray()
    }

    private mutating func close(_ trailing: [Property]) {
        openEntries()
        out.softNewline()
        out.endArray()
        if !before.isEmpty {
            out.key(Self.componentsAfterMember)
            out.beginArray()
            for comp in before { out.jcalComponent(comp) }
            out.endArray()
            before.removeAll()
        }
        if !trailing.isEmpty {
            out.key(Self.trailingMember)
            out.beginArray()
            for p in trailing { out.jcalProperty(p) }
            out.endArray()
        }
        out.endObject()
        out.newline()
        calendar = nil
        entriesOpen = false
    }

    /// The item's JSCalendar object and what it cannot hold.
    private mutating func item(_ entry: CalendarEntry) -> (JSONObject, ICalendarRemainder) {
        let fields: JSONObject
        switch entry {
        case .event(let e): fields = encoder.event(e)
        case .reminder(let r): fields = encoder.task(r)
        default: return (JSONObject(), ICalendarRemainder())
        }
        let original = mapper.component(from: entry)
        var check = checker
        guard let decoded = try? check.entry(fields, "") else {
            var all = ICalendarRemainder()
            all.properties = original.properties
            all.components = original.components
            all.replaces = ["*"]
            return (fields, all)
        }
        return (fields, .between(original: original, reconstructed: mapper.component(from: decoded)))
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let c):
            if calendar != nil { close([]) }
            calendar = c
        case .entry(let entry, _):
            if calendar == nil { calendar = CalendarModel.Calendar() }
            switch entry {
            case .timeZone(let c), .other(let c):
                before.append(c)
            case .event, .reminder:
                openEntries()
                let (fields, remainder) = item(entry)
                out.lineBreak()
                out.beginObject()
                for m in fields.members {
                    out.key(m.key)
                    out.value(m.value)
                }
                if !remainder.isEmpty {
                    out.key(Self.remainderMember)
                    out.remainder(remainder)
                }
                if !before.isEmpty {
                    out.key(Self.componentsBeforeItemMember)
                    out.beginArray()
                    for comp in before { out.jcalComponent(comp) }
                    out.endArray()
                    before.removeAll()
                }
                out.endObject()
            }
        case .endCalendar(let trailing):
            if calendar == nil { calendar = CalendarModel.Calendar() }
            close(trailing)
        }
        try out.flushIfFull()
    }

    public mutating func finish() throws {
        if calendar != nil { close([]) }
        try out.flush()
    }
}
