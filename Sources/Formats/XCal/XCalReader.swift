import CalendarModel
import ICalendarData
import XMLSupport

/// Streams an xCal document (RFC 6321) as calendars and entries: the XML is pulled event by
/// event, and only one top-level component at a time is held as a tree, so memory does not
/// grow with the document.
public struct XCalReader: CalendarReader {
    private let source: ByteSource
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let mapper: ICalendarMapper
    private let decoder: XCalDecoder
    private var xml: XMLPullReader?

    private enum State {
        case start
        /// Inside `<icalendar>`, between calendars.
        case between
        /// Inside a `<vcalendar>`; `announced` once its beginCalendar has gone out.
        case calendar(announced: Bool, properties: [Property], trailing: [Property])
        case components(trailing: [Property])
        case done
    }

    private var state = State.start
    /// Whether the root is a bare `<vcalendar>` (lenient), so its end ends the document.
    private var bareRoot = false
    private var sawCalendar = false
    private var pending: [CalendarStreamElement] = []

    /// A reader over `source`, typing components with `mapper`.
    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper) {
        self.source = source
        self.options = options
        self.log = log
        self.mapper = mapper
        self.decoder = XCalDecoder(options: options, log: log)
    }

    public mutating func next() throws -> CalendarStreamElement? {
        do {
            return try step()
        } catch let e as XMLError {
            throw CalendarError(.data, file: e.file, line: e.line, location: e.path, e.message)
        }
    }

    private mutating func open() throws -> XMLPullReader {
        if let xml { return xml }
        let source = self.source
        let made = try XMLPullReader(name: options.sourceName) { try source.read(into: $0) }
        xml = made
        return made
    }

    private func error(_ xml: XMLPullReader, _ message: String) -> CalendarError {
        CalendarError(.data, file: options.sourceName, line: xml.line, location: xml.path, message)
    }

    private mutating func step() throws -> CalendarStreamElement? {
        if !pending.isEmpty { return pending.removeFirst() }
        let xml = try open()
        while true {
            if case .done = state { return nil }
            guard let event = try xml.next() else {
                guard case .done = state else { throw error(xml, "the document ends before </icalendar>") }
                return nil
            }
            switch (state, event) {
            case (_, .text(let t)) where t.allSatisfy(\.isWhitespace):
                continue
            case (.start, .start(let name, _)):
                if name == XCalNames.icalendar {
                    state = .between
                } else if name == XCalNames.vcalendar {
                    try decoder.repair(
                        XMLElement(name: name, line: xml.line, path: xml.path),
                        "the root element is vcalendar, not icalendar; read as if inside one")
                    bareRoot = true
                    sawCalendar = true
                    state = .calendar(announced: false, properties: [], trailing: [])
                } else if name.namespace == XCalNames.vCardNamespace {
                    throw error(xml, "this is xCard (RFC 6351, vCard in XML), not xCal")
                } else {
                    throw error(xml, "not xCal: the root element is \(name), not {\(XCalNames.namespace)}icalendar")
                }
            case (.between, .start(let name, _)) where name == XCalNames.vcalendar:
                sawCalendar = true
                state = .calendar(announced: false, properties: [], trailing: [])
            case (.between, .start(let name, let attributes)):
                let skipped = try xml.readElement(start: name, attributes: attributes)
                try decoder.repair(skipped, "icalendar holds \(name), not vcalendar; skipped")
            case (.between, .end):
                guard sawCalendar else { throw error(xml, "no vcalendar in the document") }
                state = .done
                return nil
            case (.calendar(let announced, let properties, let trailing), .start(let name, _)) where name == XCalNames.components:
                // Components stream one at a time; the calendar is announced before the first.
                state = .components(trailing: trailing)
                if !announced { return .beginCalendar(mapper.calendar(from: properties)) }
            case (.calendar(let announced, let properties, let trailing), .start(let name, let attributes)):
                let element = try xml.readElement(start: name, attributes: attributes)
                if name == XCalNames.properties {
                    let read = try decoder.properties(element)
                    // Properties after the components are the calendar's trailing properties.
                    state =
                        announced
                        ? .calendar(announced: true, properties: [], trailing: trailing + read)
                        : .calendar(announced: false, properties: properties + read, trailing: trailing)
                } else {
                    try decoder.repair(element, "vcalendar holds \(name.local), which is neither properties nor components; skipped")
                }
            case (.calendar(let announced, let properties, let trailing), .end):
                state = bareRoot ? .done : .between
                if announced { return .endCalendar(trailingProperties: trailing) }
                pending = [.endCalendar(trailingProperties: trailing)]
                return .beginCalendar(mapper.calendar(from: properties))
            case (.components, .start(let name, let attributes)):
                let element = try xml.readElement(start: name, attributes: attributes)
                guard let component = XCalDecoder.resolved(element) else {
                    try decoder.repair(element, "element \(name) is not in the xCal namespace; skipped")
                    continue
                }
                return .entry(mapper.entry(from: try decoder.component(component)), line: element.line)
            case (.components(let trailing), .end):
                state = .calendar(announced: true, properties: [], trailing: trailing)
            case (_, .text(let t)):
                throw error(xml, "unexpected text \"\(t.prefix(40))\" between elements")
            default:
                throw error(xml, "unexpected \(event)")
            }
        }
    }
}
