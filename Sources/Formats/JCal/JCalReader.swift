import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// Reads jCal (RFC 7265) one top-level component at a time: the pull parser walks the
/// calendar's arrays and parses one component at a time, which the iCalendar mapper types.
/// Accepts one `["vcalendar", …]`, an array of them, or several one after another; in lenient
/// mode a bare component (`["vevent", …]`) is read as the content of a calendar, with a warning.
public struct JCalReader: CalendarReader {
    private var parser: JSONParser
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let mapper: ICalendarMapper

    private enum State {
        /// Before a top-level value (or inside an outer array of calendars).
        case between(inOuterArray: Bool)
        /// Inside a calendar's component array.
        case components(inOuterArray: Bool, trailing: [Property])
        case done
    }

    private var state = State.between(inOuterArray: false)
    private var sawCalendar = false
    private var pending: [CalendarStreamElement] = []

    /// A reader over `source`.
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper) {
        self.parser = JSONParser(source: source, sourceName: options.sourceName)
        self.options = options
        self.log = log
        self.mapper = mapper
    }

    private func decoder(_ line: Int) -> JCalValueDecoder {
        JCalValueDecoder(file: options.sourceName, line: line, strict: options.strict, log: log)
    }

    public mutating func next() throws -> CalendarStreamElement? {
        if !pending.isEmpty { return pending.removeFirst() }
        while true {
            switch state {
            case .done:
                return nil
            case .between(let inOuter):
                if inOuter {
                    guard try parser.hasNextElement() else {
                        state = .between(inOuterArray: false)
                        continue
                    }
                } else if try parser.isAtEnd() {
                    guard sawCalendar else { throw parser.error("no jCal calendar found (empty input)") }
                    state = .done
                    return nil
                }
                let line = parser.line
                try parser.beginArray()
                guard try parser.hasNextElement() else { throw parser.error("empty array where a jCal component was expected") }
                if try parser.peekSignificantByte() == UInt8(ascii: "[") {
                    // An array of calendars (several roots, as ical.js writes them).
                    guard !inOuter else { throw parser.error("jCal calendars nest only one array deep") }
                    state = .between(inOuterArray: true)
                    // The first calendar begins at the element just found.
                    return try beginCalendar(inOuter: true)
                }
                return try beginNamed(line: line, inOuter: inOuter)
            case .components(let inOuter, let trailing):
                guard try parser.hasNextElement() else {
                    // The calendar's own array closes after its components.
                    guard try !parser.hasNextElement() else { throw parser.error("a jCal calendar has exactly three elements") }
                    state = .between(inOuterArray: inOuter)
                    return .endCalendar(trailingProperties: trailing)
                }
                _ = try parser.peekSignificantByte()
                let line = parser.line
                let component = try decoder(line).component(try parser.readValue(), "/2")
                if component.name == JCalWriter.trailingComponentName {
                    state = .components(inOuterArray: inOuter, trailing: trailing + component.properties)
                    continue
                }
                return .entry(mapper.entry(from: component), line: line)
            }
        }
    }

    /// Reads `[name, [properties], [` of the calendar at the current element of an outer array.
    private mutating func beginCalendar(inOuter: Bool) throws -> CalendarStreamElement {
        let line = parser.line
        try parser.beginArray()
        guard try parser.hasNextElement() else { throw parser.error("empty array where a jCal component was expected") }
        return try beginNamed(line: line, inOuter: inOuter)
    }

    /// With the component's `[` consumed: reads its name and properties and opens its components.
    private mutating func beginNamed(line: Int, inOuter: Bool) throws -> CalendarStreamElement {
        guard let name = try parser.readValue().stringValue else { throw parser.error("a jCal component starts with its name") }
        guard name.lowercased() == "vcalendar" else {
            // A bare component: read it whole, as the content of a calendar.
            try decoder(line).repair("", "jCal root is '\(name)', not 'vcalendar'; read as if inside one")
            guard try parser.hasNextElement() else { throw parser.error("a jCal component has three elements") }
            let props = try parser.readValue()
            guard try parser.hasNextElement() else { throw parser.error("a jCal component has three elements") }
            let comps = try parser.readValue()
            guard try !parser.hasNextElement() else { throw parser.error("a jCal component has exactly three elements") }
            let component = try decoder(line).component(.array([.string(name), props, comps]), "")
            sawCalendar = true
            state = .between(inOuterArray: inOuter)
            pending = [.entry(mapper.entry(from: component), line: line), .endCalendar(trailingProperties: [])]
            return .beginCalendar(CalendarModel.Calendar())
        }
        guard try parser.hasNextElement() else { throw parser.error("a jCal calendar has three elements") }
        let propsLine = parser.line
        guard let props = try parser.readValue().arrayValue else { throw parser.error("the calendar's properties must be an array") }
        let d = decoder(propsLine)
        let properties = try props.enumerated().map { try d.property($1, "/1/\($0)") }
        guard try parser.hasNextElement() else { throw parser.error("a jCal calendar has three elements") }
        try parser.beginArray()
        sawCalendar = true
        state = .components(inOuterArray: inOuter, trailing: [])
        return .beginCalendar(mapper.calendar(from: properties))
    }
}
