import CalendarModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One `convert` run over a batch of inputs: expands them, reads them (in one pass, or two
/// when merging or when a lenient batch into one file must know which inputs are readable
/// before writing), routes the stream into the output layout and commits all outputs at once.
///
/// Memory: the plain pass holds one item at a time. The merge index holds, per
/// (UID, RECURRENCE-ID), a key and a few integers, never the items. The first pass of a
/// two-pass run reads several inputs at once (`jobs`), each with its own item in memory.
final class BatchRun {
    let converter: Converter
    let request: ConversionRequest
    let log: DiagnosticLog
    let outputFormat: any CalendarFormat
    let transaction: OutputTransaction
    private(set) var report: ConversionReport
    private(set) var summary = ConversionSummary()
    private var inputs: [BatchInput] = []
    private var progress: ProgressMeter?
    private var router: (any OutputRouter)!
    private var stages: [any ConversionStage] = []
    /// Same UID from two inputs in one output, for runs of several inputs without `--merge`.
    private var duplicates: DuplicateUIDCheck?
    /// The input being written, for `duplicates`.
    private var currentInput = 0
    /// Temporary copies of standard input, for runs that read their inputs twice.
    private var spools: [String] = []
    /// When the run began, for the report's duration.
    private let started = Date()
    /// Every reader of a CalDAV input opened (by input index; a two-pass run opens each twice),
    /// for the report's `calDAV` section. Passes open readers on several threads.
    private var pulls: [(index: Int, reader: CalDAVPullReader)] = []
    private let pullsLock = NSLock()

    init(converter: Converter, request: ConversionRequest, log: DiagnosticLog) throws {
        self.converter = converter
        self.request = request
        self.log = log
        self.outputFormat = try converter.resolveOutputFormat(request)
        self.transaction = OutputTransaction(dryRun: request.dryRun)
        self.report = ConversionReport(dryRun: request.dryRun, outputFormat: outputFormat.id)
        report.run = ConversionReport.Run(arguments: request.commandLine, start: started)
    }

    deinit {
        for path in spools { unlink(path) }
    }

    /// Runs the batch; on any error every staged output is removed and the error thrown.
    func run() throws -> ConversionSummary {
        let expansion = try BatchInputExpander(registry: converter.registry, explicitFormat: request.inputFormat).expand(request.inputs)
        inputs = expansion.inputs
        report.skippedFiles = expansion.skippedFiles
        guard !inputs.isEmpty else {
            throw CalendarError(.inputMissing, file: request.inputs.joined(separator: " "), "no calendar files found")
        }
        let twoPasses = request.merge || (request.outputLayout == .file && inputs.count > 1 && !request.strict)
        if twoPasses { try spoolStandardInput() }
        if request.showsProgress {
            progress = ProgressMeter.forTerminal(totalBytes: inputs.reduce(0) { $0 + $1.byteCount })
        }
        defer { progress?.finish() }
        do {
            router = try makeRouter()
            stages = try converter.makeStages(request, outputFormat: outputFormat.id, log: log)
            if request.merge {
                try mergedRun()
            } else {
                if inputs.count > 1 { duplicates = DuplicateUIDCheck(inputNames: inputs.map(\.name)) }
                let unreadable = twoPasses ? try checkPass() : []
                try plainPass(skipping: unreadable)
            }
            try finishStages()
            duplicates?.finish(log: log)
            try router.finish()
            if summary.failedInputs.count == inputs.count, let first = summary.failedInputs.first {
                throw first
            }
            try transaction.commit()
        } catch {
            transaction.rollback()
            finishReport()
            throw error
        }
        summary.outputs = transaction.plannedFiles.map { ConversionSummary.OutputFile(path: $0.path, bytes: $0.bytes) }
        finishReport()
        return summary
    }

    /// The report as far as the run got (written even when the run failed).
    var summaryReport: ConversionReport { report }

    private func finishReport() {
        report.run?.durationSeconds = Date().timeIntervalSince(started)
        report.calDAV = pullSection()
        for i in report.inputs.indices {
            report.inputs[i].file = SecretRedaction.text(report.inputs[i].file)
            report.inputs[i].error = report.inputs[i].error.map(SecretRedaction.text)
        }
        report.collect(log.diagnostics, suppressed: log.suppressed)
        summary.warnings = log.warningCount
        summary.report = report
    }

    private func makeRouter() throws -> any OutputRouter {
        let options = WriteOptions(
            destinationName: request.output ?? "-", formatSettings: request.formatSettings, vocabularyOverrides: request.vocabularyOverrides,
            concurrency: request.jobs)
        switch request.outputLayout {
        case .file:
            return try SingleFileRouter(
                format: outputFormat, destination: request.writesToStandardOutput ? nil : request.output, transaction: transaction,
                options: options, log: log)
        case .directory, .vdir:
            guard let directory = request.output, directory != "-" else {
                throw CalendarError(.usage, file: "-", "a \(request.outputLayout.rawValue) output needs -o DIRECTORY")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw CalendarError(.cannotCreateOutput, file: directory, "exists and is not a directory")
            }
            if request.outputLayout == .vdir {
                return try VdirRouter(directory: directory, format: outputFormat, transaction: transaction, log: log)
            }
            return DirectoryRouter(directory: directory, format: outputFormat, transaction: transaction, options: options, log: log)
        }
    }

    /// What the CalDAV inputs gave: per collection the resources of the last pass (the one
    /// that wrote), and the requests of every pass.
    private func pullSection() -> ConversionReport.Server? {
        pullsLock.lock()
        defer { pullsLock.unlock() }
        guard !pulls.isEmpty else { return nil }
        var section = ConversionReport.Server(
            direction: "pull", servers: inputs.compactMap { if case .remote(let location) = $0.kind { location } else { nil } })
        var last: [Int: CalDAVPullReader] = [:]
        for (index, reader) in pulls {
            last[index] = reader
            for (method, n) in reader.requestCounts.byMethod { section.requests[method, default: 0] += n }
            section.retries += reader.requestCounts.retries
        }
        section.calendars = last.sorted { $0.key < $1.key }.flatMap { $0.value.calendarsRead }
        return section
    }

    // MARK: - Reading

    /// A reader for one input and a way to ask how many bytes it has consumed; the reader may
    /// use `concurrency` threads (`ReadOptions.concurrency`).
    private func open(_ index: Int, log: DiagnosticLog, concurrency: Int = 1) throws -> (reader: any CalendarReader, bytesRead: () -> Int) {
        let input = inputs[index]
        switch input.kind {
        case .file(let path):
            let source = try FileByteSource(path: path)
            return (
                try converter.makeReader(name: input.name, source: source, request: request, log: log, concurrency: concurrency),
                { source.bytesRead }
            )
        case .standardInput:
            let source = try FileByteSource(path: "-")
            return (
                try converter.makeReader(name: "-", source: source, request: request, log: log, concurrency: concurrency),
                { source.bytesRead }
            )
        case .collection(_, let items, let title, let color):
            let reader = CollectionReader(items: items, title: title, color: color, converter: converter, request: request, log: log)
            return (reader, { reader.bytesRead })
        case .remote(let location):
            let options = ReadOptions(
                sourceName: input.name, strict: request.strict, formatSettings: request.formatSettings,
                vocabularyOverrides: request.vocabularyOverrides)
            let reader = try CalDAVPullReader(location: location, options: request.calDAV, readOptions: options, log: log)
            pullsLock.lock()
            pulls.append((index, reader))
            pullsLock.unlock()
            return (reader, { 0 })
        }
    }

    /// Copies standard input to a temporary file, so a two-pass run can read it twice.
    private func spoolStandardInput() throws {
        for (index, input) in inputs.enumerated() where input.kind == .standardInput {
            var template = Array("/tmp/calport-stdin-XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw CalendarError(.io, file: "-", "cannot spool standard input: \(String(cString: strerror(errno)))") }
            let path = String(cString: template)
            spools.append(path)
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw CalendarError(.io, file: "-", "read failed: \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                var offset = 0
                while offset < n {
                    let w = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, n - offset) }
                    guard w > 0 else {
                        throw CalendarError(.io, file: "-", "cannot spool standard input: \(String(cString: strerror(errno)))")
                    }
                    offset += w
                }
                total += n
            }
            inputs[index] = BatchInput(name: "-", kind: .file(path), byteCount: total)
        }
    }

    /// Whether a failure of one input may be skipped: lenient mode, a data error.
    private func skippable(_ error: Error) -> CalendarError? {
        guard !request.strict, let failure = error as? CalendarError, failure.kind == .data else { return nil }
        return failure
    }

    private func recordFailure(_ index: Int, _ failure: CalendarError) {
        summary.failedInputs.append(failure)
        report.inputs[index] = ConversionReport.Input(file: inputs[index].name, status: "failed", error: failure.description)
        log.report(
            Diagnostic(
                severity: .error, file: failure.diagnostic.file, line: failure.diagnostic.line,
                message: failure.diagnostic.message + "; input skipped, the other inputs are converted"))
    }

    /// Reads every input once, `jobs` at a time, running `body` on each reader; returns, per
    /// input, the body's result or the error that stopped it. Each worker logs into its own
    /// log, whose warnings are dropped: the pass that writes reports them again.
    private func parallelPass<T>(phase: String, _ body: @escaping (Int, inout any CalendarReader, () -> Int) throws -> T) -> [Result<
        T, Error
    >] {
        progress?.begin(phase: phase)
        var results = [Result<T, Error>?](repeating: nil, count: inputs.count)
        let lock = NSLock()
        var next = 0
        let workers = min(request.jobs, inputs.count)
        // The jobs left over when there are fewer inputs than jobs go to each reader's own threads.
        let concurrency = max(1, request.jobs / workers)
        let progress = self.progress
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < inputs.count else { return }
                let result = Result { () throws -> T in
                    var (reader, bytesRead) = try open(index, log: DiagnosticLog(), concurrency: concurrency)
                    let value = try body(index, &reader, bytesRead)
                    progress?.advance(items: 0, bytes: bytesRead())
                    return value
                }
                lock.lock()
                results[index] = result
                lock.unlock()
            }
        }
        return results.map { $0! }
    }

    /// The first pass of a lenient batch into one file: which inputs cannot be read at all.
    /// Their output cannot be taken back out of a shared file, so they are found first.
    private func checkPass() throws -> Set<Int> {
        let results = parallelPass(phase: "checking") { _, reader, _ -> Void in
            while try reader.next() != nil {}
        }
        var unreadable: Set<Int> = []
        report.inputs = inputs.map { ConversionReport.Input(file: $0.name, status: "converted", error: nil) }
        for (index, result) in results.enumerated() {
            guard case .failure(let error) = result else { continue }
            guard let failure = skippable(error) else { throw error }
            unreadable.insert(index)
            recordFailure(index, failure)
        }
        return unreadable
    }

    // MARK: - Writing

    private func emit(_ element: CalendarStreamElement, unitName: String) throws {
        try converter.pass(element, through: &stages, from: 0) { out in
            try self.deliver(out, unitName: unitName)
        }
    }

    private func deliver(_ element: CalendarStreamElement, unitName: String) throws {
        try router.write(element, unitName: unitName)
        // What the output format leaves out (CSV: to-dos) is reported as a loss, not counted.
        if case .entry(let entry, _) = element, !outputFormat.holds(entry) { return }
        summary.count(element)
        report.count(element, output: router.currentOutput)
        if duplicates != nil, case .entry(let entry, let line) = element {
            duplicates?.see(entry, input: currentInput, line: line, output: router.currentOutput, log: log)
        }
    }

    private func finishStages() throws {
        for index in stages.indices {
            var stage = stages[index]
            var held: [CalendarStreamElement] = []
            try stage.finish { held.append($0) }
            stages[index] = stage
            for out in held {
                try converter.pass(out, through: &stages, from: index + 1) { try self.deliver($0, unitName: "-") }
            }
        }
    }

    /// Converts each input in order, straight through; in lenient mode an input that fails
    /// has its own output files discarded and the others go on.
    private func plainPass(skipping unreadable: Set<Int>) throws {
        progress?.begin(phase: "converting")
        if report.inputs.isEmpty {
            report.inputs = inputs.map { ConversionReport.Input(file: $0.name, status: "converted", error: nil) }
        }
        for index in inputs.indices where !unreadable.contains(index) {
            let mark = transaction.stagedFiles.count
            currentInput = index
            do {
                for stage in stages.indices { stages[stage].beginInput(name: inputs[index].name) }
                // One input at a time: this thread writes and the reader gets every job. A
                // reader that spreads its work over threads (ICS: a worker parses components,
                // and this thread parses the next one itself rather than wait) keeps both cores
                // busy however the work divides; any other is read on a thread of its own.
                var (r, bytesRead) = try open(index, log: log, concurrency: request.jobs)
                if request.jobs > 1 && !r.readsOnSeveralThreads {
                    // Parse on a second core while this one writes.
                    let prefetcher = PrefetchingReader(r, bytesRead: bytesRead)
                    r = prefetcher
                    bytesRead = { prefetcher.bytesRead }
                }
                var items = 0
                var reported = 0
                while let element = try r.next() {
                    try emit(element, unitName: inputs[index].name)
                    items += 1
                    if items & 255 == 0, let progress {
                        let bytes = bytesRead()
                        progress.advance(items: 256, bytes: bytes - reported)
                        reported = bytes
                    }
                }
                progress?.advance(items: items & 255, bytes: bytesRead() - reported)
            } catch {
                guard request.outputLayout != .file, let failure = skippable(error) else { throw error }
                transaction.discard(Array(transaction.stagedFiles[mark...]))
                router.abandonCalendar()
                recordFailure(index, failure)
            }
        }
    }

    /// Merging: a first pass indexes every version of every item, a second writes each item's
    /// newest version. Calendars of the same name from different inputs become one calendar.
    private func mergedRun() throws {
        struct Indexed {
            var versions: [(MergeIndex.Key, MergeIndex.Version)] = []
            /// Each calendar of the input, in order.
            var calendars: [CalendarModel.Calendar] = []
            var trailing: [[Property]] = []
        }
        let results = parallelPass(phase: "indexing") { unit, reader, _ -> Indexed in
            var indexed = Indexed()
            var ordinal = 0
            while let element = try reader.next() {
                switch element {
                case .beginCalendar(let c):
                    indexed.calendars.append(c)
                case .entry(let entry, let line):
                    if indexed.calendars.isEmpty { indexed.calendars.append(CalendarModel.Calendar()) }
                    ordinal += 1
                    if let (key, version) = MergeIndex.version(of: entry, unit: unit, ordinal: ordinal, line: line) {
                        indexed.versions.append((key, version))
                    }
                case .endCalendar(let trailing):
                    if indexed.calendars.isEmpty { indexed.calendars.append(CalendarModel.Calendar()) }
                    indexed.trailing.append(trailing)
                }
            }
            return indexed
        }
        report.inputs = inputs.map { ConversionReport.Input(file: $0.name, status: "converted", error: nil) }
        var index = MergeIndex(unitNames: inputs.map(\.name))
        // Calendars grouped by title, in the order they are first seen.
        var groups: [(header: CalendarModel.Calendar, trailing: [Property], members: [(unit: Int, calendar: Int)])] = []
        var groupOfTitle: [String?: Int] = [:]
        for (unit, result) in results.enumerated() {
            let indexed: Indexed
            switch result {
            case .success(let value): indexed = value
            case .failure(let error):
                guard let failure = skippable(error) else { throw error }
                recordFailure(unit, failure)
                continue
            }
            for (key, version) in indexed.versions { index.add(key, version) }
            for (k, calendar) in indexed.calendars.enumerated() {
                if let g = groupOfTitle[calendar.title] {
                    groups[g].members.append((unit, k))
                } else {
                    groupOfTitle[calendar.title] = groups.count
                    groups.append((calendar, k < indexed.trailing.count ? indexed.trailing[k] : [], [(unit, k)]))
                }
            }
        }
        summary.merge = index.summary
        report.record(index.summary)
        for conflict in index.summary.conflicts {
            let (file, line) = Self.split(conflict.dropped)
            log.warning(
                file: file, line: line,
                "UID \(conflict.uid)\(conflict.recurrenceID.map { " (RECURRENCE-ID \($0))" } ?? ""): \(conflict.reason); kept \(conflict.kept)"
            )
        }
        progress?.begin(phase: "merging")
        for group in groups {
            try emit(.beginCalendar(group.header), unitName: inputs[group.members[0].unit].name)
            var seenZones: Set<String> = []
            var units: [Int] = []
            for member in group.members where units.last != member.unit { units.append(member.unit) }
            for unit in units {
                let wanted = Set(group.members.filter { $0.unit == unit }.map { $0.calendar })
                for stage in stages.indices { stages[stage].beginInput(name: inputs[unit].name) }
                var (reader, bytesRead) = try open(unit, log: log, concurrency: request.jobs)
                var calendar = -1
                var ordinal = 0
                while let element = try reader.next() {
                    switch element {
                    case .beginCalendar:
                        calendar += 1
                    case .entry(let entry, _):
                        if calendar < 0 { calendar = 0 }
                        ordinal += 1
                        guard wanted.contains(calendar), index.keeps(unit: unit, ordinal: ordinal) else { continue }
                        if case .timeZone(let zone) = entry {
                            guard seenZones.insert(Self.zoneKey(zone)).inserted else { continue }
                        }
                        try emit(element, unitName: inputs[unit].name)
                    case .endCalendar:
                        if calendar < 0 { calendar = 0 }
                    }
                }
                progress?.advance(items: ordinal, bytes: bytesRead())
            }
            try emit(.endCalendar(trailingProperties: group.trailing), unitName: inputs[group.members[0].unit].name)
        }
    }

    /// A VTIMEZONE's identity for de-duplication: its TZID.
    private static func zoneKey(_ zone: Component) -> String {
        guard let p = zone.property("TZID") else { return "" }
        switch p.value {
        case .text(let t): return t.first ?? ""
        case .unknown(_, let literal): return literal
        default: return ""
        }
    }

    /// `file:line` back into its parts.
    private static func split(_ place: String) -> (String, Int?) {
        guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) else { return (place, nil) }
        return (String(place[..<colon]), line)
    }
}
