import CalendarModel

#if canImport(Glibc)
    import Glibc
#endif

/// Refuses to write onto a calendar that does not allow modifications (a birthday or
/// subscription calendar, or one its source marks read-only), as EventKit refuses to save
/// into one, unless the user forces it.
public struct ReadOnlyTarget: Sendable {
    /// Reads existing outputs with the converter's formats.
    public let converter: Converter

    /// A check that reads outputs with `converter`'s registry.
    public init(converter: Converter) {
        self.converter = converter
    }

    /// How much of an existing output the check reads at most: a calendar's header and the
    /// detection's look-ahead of events fit in it many times over. Without it, an output of
    /// another shape (a calport JSON file about to become JSCalendar, whose first object is not
    /// a Group) was read and held whole before being overwritten: 240 MB for a 205 MB file.
    public static let byteBudget = 16 << 20

    /// The existing output's calendar when it does not allow modifications; nil when it does,
    /// or the file is missing or not a calendar calport can read within `byteBudget` bytes
    /// (then nothing would be overwritten that calport could judge). Only the first calendar is
    /// judged, and reading stops as soon as detection has typed it (at most its look-ahead of
    /// events) or at the budget, so the check costs the same for a 1 GB output as for a small
    /// one; exporters write one calendar a file.
    public func readOnlyCalendar(at path: String, format: String?, byteBudget: Int = Self.byteBudget) -> Calendar? {
        // Only a regular file holds a calendar to judge: reading a FIFO given as the output
        // would wait for a writer that never comes (a device or pipe is written in place).
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let file = try? FileByteSource(path: path) else { return nil }
        let source = BudgetedByteSource(file, budget: byteBudget)
        // The existing file's own warnings are not this run's business.
        let quiet = DiagnosticLog()
        // The format is told from the file's first bytes; the reader reads through the budget.
        guard let format = try? converter.resolveInputFormat(name: path, source: file, explicit: format) else { return nil }
        let reader = format.makeReader(source: source, options: ReadOptions(sourceName: path), log: quiet)
        var detect = CalendarKindDetection()
        var first: Calendar?
        var reader0 = reader
        func take(_ out: CalendarStreamElement) {
            if first == nil, case .beginCalendar(let c) = out { first = c }
        }
        do {
            while first == nil, let element = try reader0.next() { try detect.process(element, emit: take) }
            if first == nil { try detect.finish(emit: take) }
        } catch {
            return nil
        }
        guard let first, !first.allowsContentModifications else { return nil }
        return first
    }

    /// Throws when the output exists and holds a calendar that does not allow modifications.
    public func check(_ request: ConversionRequest) throws {
        guard !request.force, !request.writesToStandardOutput, let output = request.output,
            let calendar = readOnlyCalendar(at: output, format: request.outputFormat)
        else { return }
        throw CalendarError(.cannotCreateOutput, file: output, Self.message(for: calendar))
    }

    /// What the user reads when a write is refused.
    public static func message(for calendar: Calendar) -> String {
        let name = calendar.title.map { "'\($0)'" } ?? "an untitled calendar"
        let why: String
        switch calendar.kind {
        case .birthday: why = "a birthday calendar (its events come from contacts)"
        case .subscription: why = "a subscription calendar" + (calendar.subscriptionURL.map { " (\($0))" } ?? "")
        default: why = "marked read-only"
        }
        return "\(name) is \(why) and does not allow modifications; refusing to write onto it (use --force to write anyway)"
    }
}

/// A source that ends after `budget` bytes: past it, the reader sees a truncated document and
/// the check gives up rather than read on.
private final class BudgetedByteSource: ByteSource {
    private let base: ByteSource
    private var left: Int

    init(_ base: ByteSource, budget: Int) {
        self.base = base
        self.left = max(0, budget)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard left > 0, buffer.count > 0 else { return 0 }
        let n = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(left)))
        left -= n
        return n
    }
}
