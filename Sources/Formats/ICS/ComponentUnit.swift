import CalendarModel
import ICalendarData

/// A run of an iCalendar stream for a worker thread: whole top-level components as raw content
/// lines with the BEGIN/END structure the reader's sequential pass decided (its repairs
/// included), and, at their places between them, the elements and warnings of that pass.
///
/// Units go back to the reading thread (`Output.unit`), which empties them for reuse: the
/// lines are allocated there by the lexer, and freeing them on a worker made glibc grow and
/// trim the reading thread's arena over and over (a page fault per few KB read, a third more
/// CPU).
///
/// A class so the sequential pass's per-unit log can append its warnings as they are reported;
/// it is handed to one worker after it is sealed and never touched by two threads at once.
final class ComponentUnit: @unchecked Sendable {
    enum Step {
        case begin(String, line: Int)
        /// A logical line (unfolded, without its terminator) inside the open component, as the
        /// lexer made it: `ContentLine.parse` takes it without a copy.
        case line([UInt8], line: Int)
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

    private(set) var steps: [Step] = []
    private(set) var componentCount = 0
    private(set) var byteCount = 0

    func append(_ step: Step) {
        switch step {
        case .line(let bytes, _): byteCount += bytes.count
        case .end: componentCount += 1
        default: break
        }
        steps.append(step)
    }

    /// Empties the unit for reuse, keeping its step buffer unless a huge component grew it.
    func reset() {
        steps.removeAll(keepingCapacity: steps.capacity <= 1 << 16)
        componentCount = 0
        byteCount = 0
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
        let log = DiagnosticLog()
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
                case .line(let bytes, let line): try assembler.add(bytes, line: line)
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
