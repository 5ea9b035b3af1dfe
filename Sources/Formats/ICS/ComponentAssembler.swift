import CalendarModel
import ICalendarData

/// Builds the top-level components of a calendar (VEVENT, VTODO, VTIMEZONE, …) from the
/// structure the reader decided: BEGIN and END events and the raw content lines between them.
/// The reader runs it inline when it reads on one thread, and each worker runs one on a
/// `ComponentUnit` when it reads on several; either way the lines are parsed here, in order.
struct ComponentAssembler {
    private let decoder: PropertyDecoder
    private let mapper: ICalendarMapper
    private let options: ReadOptions
    private let log: DiagnosticLog
    /// Yield `.other` trees rather than typed entries (`ICSReader.componentTreeReader`).
    private let yieldsComponentTrees: Bool
    /// The top-level component being built and the components open inside it, with the lines
    /// that opened them.
    private var stack: [(component: Component, line: Int)] = []
    /// Builds the typed entry when the top-level component is a VEVENT or VTODO (`building`):
    /// its properties and sub-components go there as they are made, not into `stack[0]`. One
    /// builder serves every component.
    private var item: ICalendarMapper.ItemBuilder
    private var building = false

    init(options: ReadOptions, log: DiagnosticLog, mapper: ICalendarMapper, yieldsComponentTrees: Bool) {
        self.decoder = PropertyDecoder(options: options, log: log)
        self.mapper = mapper
        self.options = options
        self.log = log
        self.yieldsComponentTrees = yieldsComponentTrees
        self.item = ICalendarMapper.ItemBuilder(mapper: mapper)
    }

    /// Whether no component is open: the place where a run of components can be cut.
    var isIdle: Bool { stack.isEmpty }

    mutating func begin(_ name: String, line: Int) {
        if stack.isEmpty && !yieldsComponentTrees { building = item.begin(componentName: name) }
        stack.append((Component(name: name), line))
    }

    /// Parses a content line of the innermost open component and adds its property.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws {
        guard var parsed = try Self.parse(bytes, line: line, options: options, log: log) else { return }
        let id = parsed.info.id
        guard stack.count == 1 && building else {
            stack[stack.count - 1].component.properties.append(try decoder.property(from: consume parsed))
            return
        }
        // Most of an item's properties go to typed fields: those skip the `Property`.
        if id != .other, let value = decoder.scalar(from: &parsed) {
            var parameters: [Parameter] = []
            swap(&parameters, &parsed.parameters)
            item.add(value, name: parsed.name, parameters: parameters, id: id)
            return
        }
        item.add(try decoder.property(from: consume parsed), id: id)
    }

    /// Closes the innermost open component; returns the entry when it was a top-level one.
    mutating func end() -> CalendarStreamElement? {
        let done = stack.removeLast()
        guard stack.isEmpty else {
            if stack.count == 1 && building {
                item.add(done.component)
            } else {
                stack[stack.count - 1].component.components.append(done.component)
            }
            return nil
        }
        if building {
            building = false
            return .entry(item.finish(), line: done.line)
        }
        return .entry(yieldsComponentTrees ? .other(done.component) : mapper.entry(from: done.component), line: done.line)
    }

    /// Splits a content line; a line that cannot be read is skipped with a warning in lenient
    /// mode (nil) and is an error under `--strict`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, options: ReadOptions, log: DiagnosticLog) throws -> ContentLine? {
        do {
            return try ContentLine.parse(bytes, line: line, options: options, log: log)
        } catch let failure as CalendarError where !options.strict && failure.kind == .data {
            log.report(Diagnostic(severity: .warning, file: options.sourceName, line: line, message: failure.diagnostic.message + "; line skipped"))
            return nil
        }
    }
}
