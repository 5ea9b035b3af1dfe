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

    /// The existing output's calendar when it does not allow modifications; nil when it does,
    /// or the file is missing or not a calendar calport can read (then nothing would be
    /// overwritten that calport could judge). Only the first calendar is judged, and reading
    /// stops as soon as detection has typed it (at most its look-ahead of events), so the check
    /// costs the same for a 1 GB output as for a small one; exporters write one calendar a file.
    public func readOnlyCalendar(at path: String, format: String?) -> Calendar? {
        // Only a regular file holds a calendar to judge: reading a FIFO given as the output
        // would wait for a writer that never comes (a device or pipe is written in place).
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let source = try? FileByteSource(path: path) else { return nil }
        // The existing file's own warnings are not this run's business.
        let quiet = DiagnosticLog()
        guard
            let reader = try? converter.makeReader(
                name: path, source: source, request: ConversionRequest(inputs: [path], inputFormat: format), log: quiet)
        else { return nil }
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
