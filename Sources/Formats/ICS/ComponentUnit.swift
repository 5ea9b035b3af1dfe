import CalendarModel
import ICalendarData

/// A run of an iCalendar stream for a worker thread: whole top-level components as raw content
/// lines with the BEGIN/END structure the reader's sequential pass decided (its repairs
/// included), and, at their places between them, the elements and warnings of that pass.
///
/// The lines' bytes are copied one after the other into the unit's own buffer, rather than
/// each into an allocation of its own: the lexer's line is only valid until it reads the next.
/// Units go back to the reading thread (`Output.unit`), which empties them for reuse, so the
/// buffer is allocated once and not freed on another thread.
///
/// A class so the sequential pass's per-unit log can append its warnings as they are reported;
/// it is handed to one worker after it is sealed and never touched by two threads at once.
final class ComponentUnit: @unchecked Sendable {
    enum Step {
        case begin(String, line: Int)
        /// A logical line (unfolded, without its terminator) inside the open component: `count`
        /// bytes from `offset` in the unit's text.
        case line(offset: Int, count: Int, line: Int)
        /// Closes the innermost open component.
        case end
        /// An element of the sequential pass (a calendar beginning or ending). Boxed, since it
        /// is rare and large.
        indirect case element(CalendarStreamElement)
        /// A warning of the sequential pass.
        indirect case diagnostic(Diagnostic)
    }

    /// What a worker made of a unit, in the order a sequential read makes it.
    struct Output {
        var elements: [CalendarStreamElement] = []
        /// How many of `diagnostics` a sequential read would have reported before each element.
        var marks: [Int] = []
        var diagnostics: [Diagnostic] = []
        /// The failure (under `--strict`) that stopped the unit after `elements`.
        var error: Error?
        /// The unit, to be emptied (on the reading thread) and filled again.
        var unit: ComponentUnit?
    }

    // Unchecked exclusivity: the unit is used by one thread at a time (the reading thread
    // fills it, then one worker parses it) and no access to these overlaps another, while the
    // run-time check cost more than the append it guarded, on every line.
    @exclusivity(unchecked) private(set) var steps: [Step] = []
    @exclusivity(unchecked) private(set) var componentCount = 0
    /// The bytes of the unit's lines, one after the other.
    private let text = ByteStore(capacity: 1 << 17)

    private var byteCount: Int { text.count }

    func append(_ step: Step) {
        if case .end = step { componentCount += 1 }
        steps.append(step)
    }

    /// Queues a line of the open component, copying its bytes.
    @inline(__always)
    func appendLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        steps.append(.line(offset: text.count, count: bytes.count, line: line))
        text.append(bytes)
    }

    /// Empties the unit for reuse, keeping its buffers unless a huge component grew them.
    func reset() {
        steps.removeAll(keepingCapacity: steps.capacity <= 1 << 16)
        componentCount = 0
        text.clear(shrinkingAbove: 1 << 20, to: 1 << 17)
    }

    /// Removes the elements and component ends queued from step `index` on, keeping the warnings.
    func dropElements(from index: Int) {
        var kept = Array(steps[..<index])
        for step in steps[index...] {
            switch step {
            case .element, .end: continue
            default: kept.append(step)
            }
        }
        steps = kept
    }

    /// Whether the unit is worth a hand-off: enough components or bytes that the work outweighs
    /// the thread hand-over, few enough that the units in flight stay small.
    var isFull: Bool { componentCount >= 32 || byteCount >= 128 << 10 || steps.count >= 8192 }

    /// Parses and maps the unit's components; what the sequential pass reported is put back at
    /// its place among the workers' own warnings.
    func assemble(options: ReadOptions, mapper: ICalendarMapper, yieldsComponentTrees: Bool) -> Output {
        // Unbounded: what it holds is replayed into the run's log, which bounds it.
        let log = DiagnosticLog(keptPerKind: nil)
        var assembler = ComponentAssembler(options: options, log: log, mapper: mapper, yieldsComponentTrees: yieldsComponentTrees)
        var output = Output()
        var reported = 0
        func yield(_ element: CalendarStreamElement) {
            output.elements.append(element)
            output.marks.append(reported)
        }
        // Counting reports here is cheaper than asking the log for its count at every element.
        log.onReport = { _ in reported += 1 }
        do {
            for step in steps {
                switch step {
                case .begin(let name, let line): assembler.begin(name, line: line)
                case .line(let offset, let count, let line):
                    // The offsets were taken as the text grew, so the piece lies within it.
                    try assembler.add(UnsafeBufferPointer(start: text.base + offset, count: count), line: line)
                case .end: if let element = assembler.end() { yield(element) }
                case .element(let element): yield(element)
                case .diagnostic(let diagnostic): log.report(diagnostic)
                }
            }
        } catch {
            output.error = error
        }
        log.onReport = nil
        output.diagnostics = log.diagnostics
        output.unit = self
        return output
    }
}
