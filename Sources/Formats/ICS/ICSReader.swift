import CalendarModel
import ICalendarData

/// Streams an iCalendar file (RFC 5545) as calendars and entries, one top-level component at
/// a time: memory holds the component being read, never the file.
public struct ICSReader: CalendarReader {
    private var lexer: ContentLineLexer
    private let decoder: PropertyDecoder
    private let mapper: ICalendarMapper
    private let options: ReadOptions
    private let log: DiagnosticLog

    /// A component being assembled, with the line that opened it.
    private struct OpenComponent {
        var component: Component
        var line: Int
    }

    private var stack: [OpenComponent] = []
    private static let topLevelComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]
    /// The VCALENDAR's own properties, until its first component begins.
    private var calendarProperties: [Property] = []
    private var calendarAnnounced = false
    private var trailingProperties: [Property] = []
    private var pending: [CalendarStreamElement] = []
    private var pendingIndex = 0
    private var finished = false
    private var sawCalendar = false
    /// Whether the open VCALENDAR was supplied by lenient mode, to be closed at the end.
    private var implicitCalendar = false
    /// The line read ahead, so a following line without ':' (broken folding) can be joined
    /// to it in lenient mode.
    private var heldLine: (bytes: [UInt8], line: Int)?

    /// When set, entries are the untyped component trees and calendars hold all their
    /// properties untyped: what round-trip checks compare against.
    let yieldsComponentTrees: Bool

    public init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper = ICalendarMapper()) {
        self.init(source: source, options: options, log: log, mapper: mapper, yieldsComponentTrees: false)
    }

    /// A reader that yields untyped component trees (`.other`) and untyped calendar properties:
    /// the reference that round-trip checks compare a conversion against.
    public static func componentTreeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> ICSReader {
        ICSReader(source: source, options: options, log: log, mapper: ICalendarMapper(), yieldsComponentTrees: true)
    }

    private init(source: ByteSource, options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper, yieldsComponentTrees: Bool) {
        self.yieldsComponentTrees = yieldsComponentTrees
        self.lexer = ContentLineLexer(source: source, options: options, log: log)
        self.decoder = PropertyDecoder(options: options, log: log)
        self.mapper = mapper
        self.options = options
        self.log = log
    }

    public mutating func next() throws -> CalendarStreamElement? {
        while true {
            if pendingIndex < pending.count {
                let element = pending[pendingIndex]
                pendingIndex += 1
                if pendingIndex == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingIndex = 0
                }
                return element
            }
            if finished { return nil }
            try step()
        }
    }

    private func error(_ line: Int?, _ message: String) -> CalendarError {
        CalendarError(.data, file: options.sourceName, line: line, message)
    }

    /// Repairs in lenient mode with a warning; fails under `--strict`.
    private func repair(_ line: Int?, _ message: String) throws {
        if options.strict { throw error(line, message) }
        log.warning(file: options.sourceName, line: line, message)
    }

    /// The next logical line, joining continuation lines whose leading space was lost.
    private mutating func nextLine() throws -> (bytes: [UInt8], line: Int)? {
        var current = heldLine
        heldLine = nil
        if current == nil { current = try lexer.nextRawLine() }
        guard var line = current else { return nil }
        while let next = try lexer.nextRawLine() {
            if next.bytes.contains(UInt8(ascii: ":")) || options.strict {
                heldLine = next
                break
            }
            log.warning(file: options.sourceName, line: next.line,
                "line has no ':'; joined to the line \(line.line) above it (folding without a leading space)")
            line.bytes += next.bytes
        }
        return line
    }

    /// Reads one content line and queues whatever it completes.
    private mutating func step() throws {
        guard let (bytes, lineNumber) = try nextLine() else {
            try finishInput()
            return
        }
        let line: ContentLine
        do {
            line = try ContentLine.parse(bytes, line: lineNumber, options: options, log: log)
        } catch let failure as CalendarError where !options.strict && failure.kind == .data {
            log.report(Diagnostic(severity: .warning, file: options.sourceName, line: lineNumber, message: failure.diagnostic.message + "; line skipped"))
            return
        }
        switch line.name {
        case "BEGIN":
            let name = line.value.uppercased()
            guard !name.isEmpty else {
                try repair(lineNumber, "BEGIN without a component name; line skipped")
                return
            }
            if stack.isEmpty && name != "VCALENDAR" {
                try openImplicitCalendar(lineNumber, "BEGIN:\(name) outside of a VCALENDAR")
            }
            if stack.count == 1 { announceCalendar() }
            // Components that only stand at the top of a calendar close whatever is still open.
            if stack.count > 1 && Self.topLevelComponents.contains(name) {
                while stack.count > 1, let top = stack.last {
                    try repair(lineNumber, "missing END:\(top.component.name) for BEGIN at line \(top.line); closed before BEGIN:\(name)")
                    try close()
                }
            }
            if name == "VCALENDAR" && !stack.isEmpty {
                // A new calendar before the last one ended: close what is open.
                try repair(lineNumber, "BEGIN:VCALENDAR inside \(stack.last!.component.name) (line \(stack.last!.line)); the open components are closed first")
                while !stack.isEmpty { try close() }
            }
            stack.append(OpenComponent(component: Component(name: name), line: lineNumber))
        case "END":
            let name = line.value.uppercased()
            guard let open = stack.last else {
                try repair(lineNumber, "END:\(name) without a matching BEGIN; line skipped")
                return
            }
            if open.component.name != name {
                // Close what was left open if the END names an enclosing component.
                guard stack.contains(where: { $0.component.name == name }) else {
                    try repair(lineNumber, "END:\(name) does not match BEGIN:\(open.component.name) at line \(open.line); line skipped")
                    return
                }
                while let top = stack.last, top.component.name != name {
                    try repair(lineNumber, "missing END:\(top.component.name) for BEGIN at line \(top.line); closed here")
                    try close()
                }
            }
            try close()
        default:
            if stack.isEmpty { try openImplicitCalendar(lineNumber, "property \(line.name) outside of a VCALENDAR") }
            let property = try decoder.property(from: line)
            if stack.count == 1 {
                if calendarAnnounced { trailingProperties.append(property) } else { calendarProperties.append(property) }
            } else {
                stack[stack.count - 1].component.properties.append(property)
            }
        }
    }

    /// Lenient mode reads a bare component or property (a fragment, as mail clients and
    /// specification examples have them) as the content of a calendar.
    private mutating func openImplicitCalendar(_ line: Int, _ message: String) throws {
        try repair(line, message + "; read as if inside one")
        stack.append(OpenComponent(component: Component(name: "VCALENDAR"), line: line))
        implicitCalendar = true
    }

    private mutating func announceCalendar() {
        guard !calendarAnnounced else { return }
        calendarAnnounced = true
        if yieldsComponentTrees {
            var calendar = Calendar()
            calendar.properties = calendarProperties
            pending.append(.beginCalendar(calendar))
        } else {
            pending.append(.beginCalendar(mapper.calendar(from: calendarProperties)))
        }
        calendarProperties.removeAll()
    }

    /// Closes the innermost open component.
    private mutating func close() throws {
        let done = stack.removeLast()
        switch stack.count {
        case 0:
            announceCalendar()
            pending.append(.endCalendar(trailingProperties: trailingProperties))
            trailingProperties.removeAll()
            calendarAnnounced = false
            sawCalendar = true
        case 1:
            pending.append(.entry(yieldsComponentTrees ? .other(done.component) : mapper.entry(from: done.component), line: done.line))
        default:
            stack[stack.count - 1].component.components.append(done.component)
        }
    }

    private mutating func finishInput() throws {
        finished = true
        if implicitCalendar && stack.count == 1 {
            try close()
        } else if !stack.isEmpty {
            let innermost = stack.last!
            try repair(innermost.line, "input ends inside BEGIN:\(innermost.component.name) at line \(innermost.line) (truncated file?)")
            while !stack.isEmpty { try close() }
        } else if !sawCalendar {
            throw error(nil, "no VCALENDAR found (empty input or not iCalendar)")
        }
    }
}
