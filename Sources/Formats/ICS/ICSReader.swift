import CalendarModel
import ICalendarData

/// Streams an iCalendar file (RFC 5545) as calendars and entries, one top-level component at
/// a time: memory holds the component being read, never the file.
///
/// Reading is split in two. A sequential pass lexes, joins broken folding and decides the
/// BEGIN/END structure with all its lenient repairs, parsing only the lines that shape it and
/// those at calendar level. The content lines of the top-level components go to a
/// `ComponentAssembler`: inline on one thread, or, with `ReadOptions.concurrency` above 1, in
/// `ComponentUnit`s of a few dozen components on worker threads. Elements, warnings and the
/// error come out in the same order either way.
public struct ICSReader: CalendarReader {
    private var lexer: ContentLineLexer
    /// Types calendar-level lines; writes to `log`.
    private var decoder: PropertyDecoder
    private let mapper: ICalendarMapper
    private let options: ReadOptions
    /// The run's log.
    private let runLog: DiagnosticLog
    /// Where the sequential pass reports: the run's log, or with worker threads the log of the
    /// unit being filled, which puts each warning in the unit at its place.
    private var log: DiagnosticLog

    /// A component open in the sequential pass, with the line that opened it.
    private struct OpenComponent {
        var name: String
        var line: Int
    }

    private var stack: [OpenComponent] = []
    /// How deep components may nest, VCALENDAR included (XML and JSON readers have their own
    /// depth limits: `XMLLimits`, `JSONParser.maximumDepth`).
    public static let maximumDepth = 64
    private static let topLevelComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]
    /// Builds the components of the calendar when reading on one thread.
    private var assembler: ComponentAssembler
    /// The VCALENDAR's own properties, until its first component begins.
    private var calendarProperties: [Property] = []
    private var calendarAnnounced = false
    private var trailingProperties: [Property] = []
    private var pending: [CalendarStreamElement] = []
    private var pendingIndex = 0
    /// Whether the sequential pass has reached the end of the input.
    private var finished = false
    private var sawCalendar = false
    /// Whether the open VCALENDAR was supplied by lenient mode, to be closed at the end.
    private var implicitCalendar = false
    /// Reading with worker threads: set up by the first `next()` when `options.concurrency > 1`.
    private var workers: WorkerState?

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
        self.assembler = ComponentAssembler(options: options, log: log, mapper: mapper, yieldsComponentTrees: yieldsComponentTrees)
        self.mapper = mapper
        self.options = options
        self.runLog = log
        self.log = log
    }

    /// With more than one thread, components are parsed by a worker and by the caller in turn.
    public var readsOnSeveralThreads: Bool { options.concurrency > 1 }

    public mutating func next() throws -> CalendarStreamElement? {
        if options.concurrency > 1 { return try nextFromWorkers() }
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
            try step(into: nil)
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

    /// The next logical line; the lexer joins continuation lines whose leading space was lost,
    /// reporting to the log of the place the line goes to.
    @inline(__always)
    private mutating func nextLine() throws -> RawLine? {
        try lexer.nextLine(log: log)
    }

    /// Whether `ContentLine.parse` names the line BEGIN or END (or fails on it). Only such lines
    /// shape the tree; the other lines of a component are left to the assembler unparsed.
    static func isStructureLine(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isStructureLine($0) }
    }

    @inline(__always)
    static func isStructureLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The name runs to the first ';' or ':', without the NUL bytes parse removes. Masking
        // bit 5 upper-cases a letter and maps no other byte onto B, E, G, I, N or D.
        // Most lines are turned away by their first byte alone.
        if let first = bytes.first, first != 0, first & 0xDF != UInt8(ascii: "B"), first & 0xDF != UInt8(ascii: "E") { return false }
        var name: UInt64 = 0
        var length = 0
        for byte in bytes where byte != 0 {
            if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") { break }
            length += 1
            if length > 5 { return false }
            name = name << 8 | UInt64(byte & 0xDF)
        }
        return (length == 5 && name == 0x42_45_47_49_4E) || (length == 3 && name == 0x45_4E_44)
    }

    /// Reads one logical line and queues whatever it completes; the content lines of
    /// components go to `unit` when worker threads parse them. The unit is handed in unretained
    /// by `fillUnit`, which holds it: a strong reference here was retained and released around
    /// every line.
    private mutating func step(into unit: Unmanaged<ComponentUnit>?) throws {
        guard let raw = try nextLine() else {
            try finishInput()
            return
        }
        let bytes = raw.bytes, lineNumber = raw.line
        if stack.count > 1 && !Self.isStructureLine(bytes) {
            // A content line of a component: parsed by the assembler, here or on a worker.
            if let unit {
                unit._withUnsafeGuaranteedRef { $0.appendLine(bytes, line: lineNumber) }
            } else {
                try assembler.add(bytes, line: lineNumber)
            }
            return
        }
        if let plain = Self.plainStructureLine(bytes) {
            if plain.begin { try begin(plain.name, lineNumber) } else { try end(plain.name, lineNumber) }
            return
        }
        guard let line = try ComponentAssembler.parse(bytes, line: lineNumber, options: options, log: log) else { return }
        switch line.name {
        case "BEGIN": try begin(line.value.uppercased(), lineNumber)
        case "END": try end(line.value.uppercased(), lineNumber)
        default:
            // Lines inside a component went to the assembler above: this one is at calendar level.
            assert(stack.count <= 1, "content line \(line.name) inside a component reached the calendar level")
            if stack.isEmpty { try openImplicitCalendar(lineNumber, "property \(line.name) outside of a VCALENDAR") }
            let property = try decoder.property(from: line)
            if calendarAnnounced { trailingProperties.append(property) } else { calendarProperties.append(property) }
        }
    }

    /// A BEGIN line naming the (upper-cased) component `name`.
    private mutating func begin(_ name: String, _ lineNumber: Int) throws {
        guard !name.isEmpty else {
            try repair(lineNumber, "BEGIN without a component name; line skipped")
            return
        }
        // RFC 5545 nests four levels at most (VCALENDAR, VEVENT, VALARM, RFC 9073's VLOCATION);
        // a bound keeps a hostile file from exhausting the stack of whatever walks the tree.
        guard stack.count < Self.maximumDepth else {
            throw error(lineNumber, "BEGIN:\(name) nests components deeper than \(Self.maximumDepth) levels")
        }
        if stack.isEmpty && name != "VCALENDAR" {
            try openImplicitCalendar(lineNumber, "BEGIN:\(name) outside of a VCALENDAR")
        }
        if stack.count == 1 { announceCalendar() }
        // Components that only stand at the top of a calendar close whatever is still open.
        if stack.count > 1 && Self.topLevelComponents.contains(name) {
            while stack.count > 1, let top = stack.last {
                try repair(lineNumber, "missing END:\(top.name) for BEGIN at line \(top.line); closed before BEGIN:\(name)")
                close()
            }
        }
        if name == "VCALENDAR" && !stack.isEmpty {
            // A new calendar before the last one ended: close what is open.
            try repair(lineNumber, "BEGIN:VCALENDAR inside \(stack.last!.name) (line \(stack.last!.line)); the open components are closed first")
            while !stack.isEmpty { close() }
        }
        stack.append(OpenComponent(name: name, line: lineNumber))
        if stack.count > 1 { beginComponent(name, line: lineNumber) }
    }

    /// An END line naming the (upper-cased) component `name`.
    private mutating func end(_ name: String, _ lineNumber: Int) throws {
        guard let open = stack.last else {
            try repair(lineNumber, "END:\(name) without a matching BEGIN; line skipped")
            return
        }
        if open.name != name {
            // Close what was left open if the END names an enclosing component.
            guard stack.contains(where: { $0.name == name }) else {
                try repair(lineNumber, "END:\(name) does not match BEGIN:\(open.name) at line \(open.line); line skipped")
                return
            }
            while let top = stack.last, top.name != name {
                try repair(lineNumber, "missing END:\(top.name) for BEGIN at line \(top.line); closed here")
                close()
            }
        }
        close()
    }

    /// The plain form of nearly every BEGIN and END line: upper-case "BEGIN:" or "END:" and a
    /// component name of name bytes, upper-cased as `ContentLine.parse` and `uppercased()` would
    /// make it (ASCII only); nil for any other line, which takes the general path.
    static func plainStructureLine(_ b: UnsafeBufferPointer<UInt8>) -> (begin: Bool, name: String)? {
        let start: Int
        let begin: Bool
        if b.count > 6, b[0] == 0x42, b[1] == 0x45, b[2] == 0x47, b[3] == 0x49, b[4] == 0x4E, b[5] == 0x3A {
            (start, begin) = (6, true)
        } else if b.count > 4, b[0] == 0x45, b[1] == 0x4E, b[2] == 0x44, b[3] == 0x3A {
            (start, begin) = (4, false)
        } else {
            return nil
        }
        guard let name = ContentLine.upperCasedName(UnsafeBufferPointer(rebasing: b[start...])) else { return nil }
        return (begin, name)
    }

    /// Lenient mode reads a bare component or property (a fragment, as mail clients and
    /// specification examples have them) as the content of a calendar.
    private mutating func openImplicitCalendar(_ line: Int, _ message: String) throws {
        try repair(line, message + "; read as if inside one")
        stack.append(OpenComponent(name: "VCALENDAR", line: line))
        implicitCalendar = true
    }

    private mutating func announceCalendar() {
        guard !calendarAnnounced else { return }
        calendarAnnounced = true
        if yieldsComponentTrees {
            var calendar = Calendar()
            calendar.properties = calendarProperties
            emit(.beginCalendar(calendar))
        } else {
            emit(.beginCalendar(mapper.calendar(from: calendarProperties)))
        }
        calendarProperties.removeAll()
    }

    /// Closes the innermost open component.
    private mutating func close() {
        stack.removeLast()
        if stack.isEmpty {
            announceCalendar()
            emit(.endCalendar(trailingProperties: trailingProperties))
            trailingProperties.removeAll()
            calendarAnnounced = false
            sawCalendar = true
        } else {
            endComponent()
        }
    }

    private mutating func finishInput() throws {
        finished = true
        if implicitCalendar && stack.count == 1 {
            close()
        } else if !stack.isEmpty {
            let innermost = stack.last!
            try repair(innermost.line, "input ends inside BEGIN:\(innermost.name) at line \(innermost.line) (truncated file?)")
            while !stack.isEmpty { close() }
        } else if !sawCalendar {
            throw error(nil, "no VCALENDAR found (empty input or not iCalendar)")
        }
    }

    // MARK: - Where the structure goes: the inline assembler, or the unit being filled

    /// Queues an element of the sequential pass (a calendar beginning or ending).
    private mutating func emit(_ element: CalendarStreamElement) {
        if let workers { workers.unit.append(.element(element)) } else { pending.append(element) }
    }

    private mutating func beginComponent(_ name: String, line: Int) {
        if let workers { workers.unit.append(.begin(name, line: line)) } else { assembler.begin(name, line: line) }
    }

    private mutating func endComponent() {
        if let workers {
            workers.unit.append(.end)
        } else if let entry = assembler.end() {
            pending.append(entry)
        }
    }
}

// MARK: - Reading with worker threads

extension ICSReader {
    /// The pool, the unit the sequential pass is filling and the output being handed out. A
    /// class, so copies of the reader share one pool, and dropping the last one stops its threads.
    private final class WorkerState {
        var pool: OrderedWorkerPool<ComponentUnit, ComponentUnit.Output>?
        var unit = ComponentUnit()
        /// Units back from the workers, to be filled again.
        var spare: [ComponentUnit] = []
        /// The output being handed out: the next element, and how many of its warnings are in
        /// the run's log already.
        var current = ComponentUnit.Output()
        var index = 0
        var replayed = 0
        /// Whether the sequential pass is done (the input ended, or it failed with `failure`).
        var inputEnded = false
        var failure: Error?

        init(pool: OrderedWorkerPool<ComponentUnit, ComponentUnit.Output>) {
            self.pool = pool
        }

        /// Reports the current output's warnings up to `count` to `log`.
        func replay(upTo count: Int, into log: DiagnosticLog) {
            while replayed < count {
                log.report(current.diagnostics[replayed])
                replayed += 1
            }
        }

        /// Nothing more is handed out; the threads end.
        func stop() {
            pool = nil
            current = ComponentUnit.Output()
            spare = []
            index = 0
            replayed = 0
            inputEnded = true
            failure = nil
        }
    }

    /// Units waiting or being parsed per worker thread: enough to keep each one busy while the
    /// sequential pass fills the next, few enough that memory does not grow with the input.
    private static let unitsInFlightPerWorker = 2
    /// How far the sequential pass may run ahead, per worker, while a worker is still on the
    /// oldest unit: every unit it fills is work a worker can take, and only this thread can
    /// fill them, so it does that before it parses (or waits) itself.
    private static let unitsAheadPerWorker = 8

    private mutating func nextFromWorkers() throws -> CalendarStreamElement? {
        if workers == nil { startWorkers() }
        let state = workers!
        while true {
            if state.index < state.current.elements.count {
                state.replay(upTo: state.current.marks[state.index], into: runLog)
                state.index += 1
                return state.current.elements[state.index - 1]
            }
            state.replay(upTo: state.current.diagnostics.count, into: runLog)
            if let error = state.current.error {
                state.stop()
                throw error
            }
            guard let pool = state.pool else { return nil }
            let limit = Self.unitsInFlightPerWorker * options.concurrency
            while !state.inputEnded && pool.pending < limit { fillUnit(state) }
            guard pool.pending > 0 else {
                let failure = state.failure
                state.stop()
                if let failure { throw failure }
                return nil
            }
            var output = pool.nextIfReady()
            while output == nil {
                if !state.inputEnded && pool.pending < Self.unitsAheadPerWorker * options.concurrency {
                    fillUnit(state)
                    output = pool.nextIfReady()
                } else {
                    output = pool.next()
                }
            }
            state.current = output!
            if let unit = state.current.unit {
                unit.reset()
                state.spare.append(unit)
                state.current.unit = nil
            }
            state.index = 0
            state.replayed = 0
        }
    }

    private mutating func startWorkers() {
        let options = self.options
        let mapper = self.mapper
        let trees = yieldsComponentTrees
        let pool = OrderedWorkerPool<ComponentUnit, ComponentUnit.Output>(threads: options.concurrency - 1, name: "calport-ics") { unit in
            unit.assemble(options: options, mapper: mapper, yieldsComponentTrees: trees)
        }
        let state = WorkerState(pool: pool)
        workers = state
        beginUnit(state)
    }

    /// Starts a new unit, with a log of its own that puts the sequential pass's warnings in it.
    private mutating func beginUnit(_ state: WorkerState) {
        let unit = state.spare.popLast() ?? ComponentUnit()
        state.unit = unit
        log = DiagnosticLog(keptPerKind: nil) { unit.append(.diagnostic($0)) }
        decoder = PropertyDecoder(options: options, log: log)
    }

    /// Runs the sequential pass until the unit is full (between two top-level components), the
    /// input ends or the pass fails, and hands the unit to the workers.
    private mutating func fillUnit(_ state: WorkerState) {
        let unit = state.unit
        var mark = 0
        do {
            repeat {
                mark = unit.steps.count
                try withExtendedLifetime(unit) { try step(into: Unmanaged.passUnretained(unit)) }
            } while !finished && !(stack.count <= 1 && unit.isFull)
        } catch {
            // A sequential read throws out of the step before handing out what that step
            // completed; so the elements it queued are dropped, its warnings kept.
            unit.dropElements(from: mark)
            state.failure = error
            finished = true
        }
        if finished { state.inputEnded = true }
        if !unit.steps.isEmpty { state.pool?.submit(unit) }
        beginUnit(state)
    }
}
