import CalendarModel
import Recurrence

/// Runs conversions: read → stages → write, streaming one element at a time, with the output
/// written atomically (all or nothing).
public struct Converter: Sendable {
    public let registry: FormatRegistry

    public init(registry: FormatRegistry = StandardFormats.registry) {
        self.registry = registry
    }

    /// Converts the request's inputs into its output(s): files, directories (walked
    /// recursively), vdir collections and standard input, into one file, a directory with one
    /// file per calendar, or a vdir. All outputs are committed together at the end; on any error
    /// none is written and existing files are left as they were. In lenient mode an input that
    /// cannot be read is skipped and listed in `failedInputs` (the run fails only when no input
    /// could be read); under `--strict` the first failure stops the batch.
    @discardableResult
    public func run(_ request: ConversionRequest, log: DiagnosticLog) throws -> ConversionSummary {
        guard !request.inputs.isEmpty else { throw CalendarError(.usage, file: "-", "no input given") }
        if let output = request.output, CalDAVOptions.isURL(output) {
            let push = try CalDAVPush(converter: self, request: request, log: log)
            return try reporting(request, push.run) { push.currentReport }
        }
        if request.outputLayout == .vdir, request.inputs.contains(where: CalDAVOptions.isURL) {
            let sync = CalDAVVdirSync(request: request, log: log)
            return try reporting(request, sync.run) { sync.currentReport }
        }
        try ReadOnlyTarget(converter: self).check(request)
        let batch = try BatchRun(converter: self, request: request, log: log)
        return try reporting(request, batch.run) { batch.summaryReport }
    }

    /// Runs `body` and writes each `--report` file: the summary's report, or, when the run
    /// fails, the report as far as it got.
    private func reporting(
        _ request: ConversionRequest, _ body: () throws -> ConversionSummary, partial: () -> ConversionReport
    ) throws -> ConversionSummary {
        let reports = try request.reportPaths.map { ($0, try ReportFormat.resolve(path: $0, explicit: request.reportFormat)) }
        do {
            let summary = try body()
            if let report = summary.report {
                for (path, format) in reports { try report.write(to: path, format: format) }
            }
            return summary
        } catch {
            if !reports.isEmpty {
                let report = partial()
                for (path, format) in reports { try? report.write(to: path, format: format) }
            }
            throw error
        }
    }

    /// The stages a request asks for, in pipeline order.
    func makeStages(_ request: ConversionRequest, outputFormat: String, log: DiagnosticLog) throws -> [any ConversionStage] {
        var stages: [any ConversionStage] = []
        // Stages see no input boundary, so a diagnostic names the input when there is one.
        let file = request.inputs.count == 1 ? request.inputs[0] : request.inputs.joined(separator: ",")
        if let timeZones = request.timeZones {
            stages.append(try TimeZoneStage(options: timeZones, outputFormat: outputFormat, file: file, log: log))
        }
        if request.recurrence.isActive {
            // Occurrences follow the wall clock of their series' zone. With `--tz keep` the
            // zone stage goes first, so every TZID (Windows names, VTIMEZONE matches) is an
            // IANA id by the time series expand; with `--tz utc|ZONE` it goes after, so series
            // expand in their own zone and each occurrence is then converted at its instant.
            let filter = OccurrenceFilter(query: request.recurrence, log: log, sourceName: file)
            if let timeZones = request.timeZones, timeZones.output != .keep {
                stages.insert(filter, at: 0)
            } else {
                stages.append(filter)
            }
        }
        // Calendar kinds first: birthdays are typed, materialized and given their leap-day rule
        // before any zone or range stage sees their events.
        var kinds: [any ConversionStage] = [
            CalendarKindDetection(), UnknownWordReport(log: log, output: registry.format(id: outputFormat)),
        ]
        if request.birthdays != .keep || request.leapDay != nil {
            var birthdays = BirthdayStage(handling: request.birthdays, leapDay: request.leapDay)
            birthdays.calendarScale = request.birthdayCalendar
            kinds.append(birthdays)
        }
        if request.subscriptions != .keep { kinds.append(SubscriptionStage(handling: request.subscriptions, log: log)) }
        // Lunar and other RFC 7529 rules last: birthdays may have become one, and an expansion
        // before leaves none to lower.
        let support = registry.format(id: outputFormat)?.nonGregorianRules ?? .holds
        if support != .holds || request.lowerRSCALE != nil {
            stages.append(RSCALELowering(window: request.lowerRSCALE ?? .init(), mode: support, targetName: outputFormat, log: log))
        }
        return kinds + stages
    }

    func pass(
        _ element: CalendarStreamElement, through stages: inout [any ConversionStage], from index: Int,
        _ sink: (CalendarStreamElement) throws -> Void
    ) throws {
        guard index < stages.count else {
            try sink(element)
            return
        }
        // The stage runs in place (a copy taken out of the array would share its buffers with
        // the array and copy them on the stage's next change); what it emits is collected,
        // since the next stages live in the same array. Nearly every element comes out as one,
        // so the first needs no array.
        var first: CalendarStreamElement?
        var more: [CalendarStreamElement] = []
        try stages[index].process(element) { out in
            if first == nil { first = out } else { more.append(out) }
        }
        guard let first else { return }
        try pass(first, through: &stages, from: index + 1, sink)
        for e in more { try pass(e, through: &stages, from: index + 1, sink) }
    }

    /// A reader for one input, its format given or inferred, which may use `concurrency` threads.
    public func makeReader(
        name: String, source: FileByteSource, request: ConversionRequest, log: DiagnosticLog, concurrency: Int = 1
    ) throws -> any CalendarReader {
        let format = try resolveInputFormat(name: name, source: source, explicit: request.inputFormat)
        let options = ReadOptions(
            sourceName: name, strict: request.strict, formatSettings: request.formatSettings,
            vocabularyOverrides: request.vocabularyOverrides, concurrency: concurrency)
        return format.makeReader(source: source, options: options, log: log)
    }

    /// The input format: `-f`, else the extension, else what the content looks like.
    public func resolveInputFormat(name: String, source: FileByteSource, explicit: String?) throws -> any CalendarFormat {
        if let explicit {
            guard let format = registry.format(id: explicit) else {
                throw CalendarError(.usage, file: name, "unknown input format '\(explicit)' (see `calport formats`)")
            }
            return format
        }
        if name != "-", let ext = Self.fileExtension(name),
            let format = try registry.format(forExtension: ext, prefix: { try source.peek(Self.sniffedBytes) })
        {
            return format
        }
        // Standard input is often a pipe still being written: a short look lets it start at once.
        if let format = registry.format(sniffing: try source.peek(4096)) { return format }
        throw CalendarError(.data, file: name, "cannot tell the input's format; name it with -f (see `calport formats`)")
    }

    /// The output format: `-t`, else the output's extension; standard output needs `-t`.
    public func resolveOutputFormat(_ request: ConversionRequest) throws -> any CalendarFormat {
        if let id = request.outputFormat {
            guard let format = registry.format(id: id) else {
                throw CalendarError(.usage, file: request.output ?? "-", "unknown output format '\(id)' (see `calport formats`)")
            }
            return format
        }
        if !request.writesToStandardOutput, let ext = Self.fileExtension(request.output!), let format = registry.format(forExtension: ext) {
            return format
        }
        throw CalendarError(.usage, file: request.output ?? "-", "cannot tell the output format; name it with -t (see `calport formats`)")
    }

    /// How much of a named input the sniffers of formats sharing its extension see: enough for
    /// the members a JSON format is told by to come after a long one (a description).
    static let sniffedBytes = 64 * 1024

    static func fileExtension(_ path: String) -> String? {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
