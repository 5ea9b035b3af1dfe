import CalendarModel
import JSONCoding

// MARK: - Reading a Group's entries with worker threads

extension JSCalendarReader {
    /// Entries for a worker: their bytes and the lines they start on, then the error the scan
    /// met after them, if it did (handed out in turn, after every entry before it). Entries go
    /// in batches: one is parsed in microseconds, and a hand-over per entry cost more than
    /// the second core gave.
    struct EntryJob {
        var entries: [(bytes: [UInt8], line: Int)] = []
        var byteCount = 0
        var failure: Error?
    }

    /// What a worker made of an entry: its elements, the warnings reported on the way (replayed
    /// into the run's log before the elements are handed out, as reading it here would), or
    /// the error that stopped it.
    struct EntryOutput {
        var elements: [CalendarStreamElement] = []
        var diagnostics: [Diagnostic] = []
        var error: Error?
    }

    /// The pool and where the scan of the current `entries` array is. A class, so copies of
    /// the reader share one pool, and dropping the last one stops its threads.
    final class EntryWorkers {
        let pool: OrderedWorkerPool<EntryJob, [EntryOutput]>
        /// Whether the scan has passed the array's `]`, or stopped at an error.
        var entriesEnded = false
        /// The batch being filled by the scan.
        var job = EntryJob()
        /// The outputs of the batch being handed out, and the next one's index.
        var outputs: [EntryOutput] = []
        var next = 0

        init(reading: JSCalendarEntryReading, threads: Int) {
            let sourceName = reading.options.sourceName
            pool = OrderedWorkerPool(threads: threads, name: "calport-jscalendar") { job in
                var outputs: [EntryOutput] = []
                outputs.reserveCapacity(job.entries.count + 1)
                for (bytes, line) in job.entries {
                    let log = DiagnosticLog(keptPerKind: nil)
                    var output = EntryOutput()
                    do {
                        var parser = JSONParser(bytes: bytes, sourceName: sourceName, line: line)
                        let value = try parser.readValue()
                        guard let o = value.objectValue else { throw parser.error("a Group entry must be an Event or Task object") }
                        output.elements = try reading.reporting(to: log).items(o, line: line, path: "/entries")
                    } catch {
                        output.error = error
                    }
                    output.diagnostics = log.diagnostics
                    outputs.append(output)
                    // Reading stops at the first error: what follows it is never handed out.
                    if output.error != nil { return outputs }
                }
                if let failure = job.failure { outputs.append(EntryOutput(error: failure)) }
                return outputs
            }
        }

        /// Hands the batch being filled to the workers, if it holds anything.
        func submit() {
            guard !job.entries.isEmpty || job.failure != nil else { return }
            pool.submit(job)
            job = EntryJob()
        }
    }

    /// Batches scanned ahead per thread: enough to keep the workers busy while this thread
    /// writes, few enough that memory does not grow with the input.
    private static let batchesInFlightPerThread = 2
    /// How far the scan may run ahead per thread while a worker is still on the oldest batch:
    /// scanning is cheap and only this thread can do it, so it does that before it parses.
    private static let batchesAheadPerThread = 4
    /// A batch is this many entries or this many bytes, whichever comes first.
    private static let entriesPerBatch = 32
    private static let bytesPerBatch = 64 << 10

    /// The next entry's elements, its warnings reported first; nil after the array's `]`.
    /// This thread only finds where each entry's bytes end (`JSONParser.readValueBytes`); the
    /// parsing and decoding, most of a JSCalendar read, run on the workers and, while it would
    /// otherwise wait, here.
    mutating func nextFromWorkers() throws -> [CalendarStreamElement]? {
        if workers == nil { workers = EntryWorkers(reading: reading, threads: options.concurrency - 1) }
        let w = workers!
        if w.next == w.outputs.count {
            while !w.entriesEnded && w.pool.pending < Self.batchesInFlightPerThread * options.concurrency { scanBatch(w) }
            guard w.pool.pending > 0 else { return nil }
            var outputs = w.pool.nextIfReady()
            while outputs == nil {
                if !w.entriesEnded && w.pool.pending < Self.batchesAheadPerThread * options.concurrency {
                    scanBatch(w)
                    outputs = w.pool.nextIfReady()
                } else {
                    outputs = w.pool.next()
                }
            }
            w.outputs = outputs!
            w.next = 0
        }
        let output = w.outputs[w.next]
        w.next += 1
        for d in output.diagnostics { log.report(d) }
        if let error = output.error {
            workers = nil
            throw error
        }
        return output.elements
    }

    /// Takes a batch of entries' bytes off the input for the workers, up to the array's end or
    /// the error that reading them here would have met.
    private mutating func scanBatch(_ w: EntryWorkers) {
        while !w.entriesEnded && w.job.entries.count < Self.entriesPerBatch && w.job.byteCount < Self.bytesPerBatch {
            scanEntry(w)
        }
        w.submit()
    }

    /// Takes the next entry's bytes off the input into the batch, or notes the array's end or
    /// the error that reading it here would have met.
    private mutating func scanEntry(_ w: EntryWorkers) {
        do {
            guard try parser.hasNextElement() else {
                w.entriesEnded = true
                return
            }
            let first = try parser.peekSignificantByte()
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                _ = try parser.readValue()
                throw parser.error("a Group entry must be an Event or Task object")
            }
            let (bytes, line) = try parser.readValueBytes()
            w.job.entries.append((bytes, line))
            w.job.byteCount += bytes.count
        } catch {
            w.job.failure = error
            w.entriesEnded = true
        }
    }
}
