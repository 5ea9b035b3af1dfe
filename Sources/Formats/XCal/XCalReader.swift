import CalendarModel
import ICalendarData
import XMLSupport

/// Streams an xCal document (RFC 6321) as calendars and entries: the XML is pulled event by
/// event, and only one top-level component at a time is held as a tree, so memory does not
/// grow with the document.
public struct XCalReader: CalendarReader {
    private let options: ReadOptions
    private let log: DiagnosticLog
    private let mapper: ICalendarMapper
    private let decoder: XCalDecoder
    /// The document's units, read on this thread or, with `ReadOptions.concurrency` above 1,
    /// on a thread of its own (libxml2 and the component trees), while this one decodes.
    private let units: Prefetcher<XCalScanner.Unit>

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
        self.options = options
        self.log = log
        self.mapper = mapper
        self.decoder = XCalDecoder(options: options, log: log)
        let scanner = XCalScanner(source: source, sourceName: options.sourceName, parsesAhead: options.concurrency > 1)
        self.units = Prefetcher(concurrently: options.concurrency > 1) { scanner.next() }
    }

    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    public mutating func next() throws -> CalendarStreamElement? {
        do {
            return try step()
        } catch let e as XMLError {
            throw CalendarError(.data, file: e.file, line: e.line, location: e.path, e.message)
        }
    }

    private func error(_ line: Int, _ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: options.sourceName, line: line, location: path, message)
    }

    private mutating func step() throws -> CalendarStreamElement? {
        if !pending.isEmpty { return pending.removeFirst() }
        while true {
            if case .done = state { return nil }
            let event: XMLEvent
            let line: Int
            let path: String
            switch units.next() {
            case nil:
                return nil
            case .failure(let failure)?:
                throw failure
            case .documentEnd(let endLine, let endPath)?:
                guard case .done = state else { throw error(endLine, endPath, "the document ends before </icalendar>") }
                return nil
            case .tree(let tree)?:
                // The tree's elements do not keep it: it is kept until they are done with.
                if let element = try withExtendedLifetime(tree, { try take(tree.root) }) { return element }
                continue
            case .event(let e, let l, let p)?:
                (event, line, path) = (e, l, p)
            }
            switch (state, event) {
            case (.start, .start(let name, _)):
                if name == XCalNames.icalendar {
                    state = .between
                } else if name == XCalNames.vcalendar {
                    try decoder.repair(line: line, path: path, "the root element is vcalendar, not icalendar; read as if inside one")
                    bareRoot = true
                    sawCalendar = true
                    state = .calendar(announced: false, properties: [], trailing: [])
                } else if name.namespace == XCalNames.vCardNamespace {
                    throw error(line, path, "this is xCard (RFC 6351, vCard in XML), not xCal")
                } else {
                    throw error(line, path, "not xCal: the root element is \(name), not {\(XCalNames.namespace)}icalendar")
                }
            case (.between, .start(let name, _)) where name == XCalNames.vcalendar:
                sawCalendar = true
                state = .calendar(announced: false, properties: [], trailing: [])
            case (.between, .end):
                guard sawCalendar else { throw error(line, path, "no vcalendar in the document") }
                state = .done
                return nil
            case (.calendar(let announced, let properties, let trailing), .start(let name, _)) where name == XCalNames.components:
                // Components stream one at a time; the calendar is announced before the first.
                state = .components(trailing: trailing)
                if !announced { return .beginCalendar(mapper.calendar(from: properties)) }
            case (.calendar(let announced, let properties, let trailing), .end):
                state = bareRoot ? .done : .between
                if announced { return .endCalendar(trailingProperties: trailing) }
                pending = [.endCalendar(trailingProperties: trailing)]
                return .beginCalendar(mapper.calendar(from: properties))
            case (.components(let trailing), .end):
                state = .calendar(announced: true, properties: [], trailing: trailing)
            case (_, .text(let t)):
                throw error(line, path, "unexpected text \"\(t.prefix(40))\" between elements")
            default:
                throw error(line, path, "unexpected \(event)")
            }
        }
    }

    /// An element the scanner read whole, in the state that asked for it (a misplaced one is
    /// skipped with a warning); the entry it makes, if any.
    private mutating func take(_ element: XCalElement) throws -> CalendarStreamElement? {
        let name = element.name
        switch state {
        case .between:
            try decoder.repair(element, "icalendar holds \(name), not vcalendar; skipped")
        case .calendar(let announced, let properties, let trailing):
            if name == XCalNames.properties {
                let read = try decoder.properties(element)
                // Properties after the components are the calendar's trailing properties.
                state =
                    announced
                    ? .calendar(announced: true, properties: [], trailing: trailing + read)
                    : .calendar(announced: false, properties: properties + read, trailing: trailing)
            } else {
                try decoder.repair(element, "vcalendar holds \(element.local), which is neither properties nor components; skipped")
            }
        case .components:
            guard let component = XCalDecoder.resolved(element) else {
                try decoder.repair(element, "element \(name) is not in the xCal namespace; skipped")
                return nil
            }
            return .entry(mapper.entry(from: try decoder.component(component)), line: element.line)
        case .start, .done:
            break
        }
        return nil
    }
}
