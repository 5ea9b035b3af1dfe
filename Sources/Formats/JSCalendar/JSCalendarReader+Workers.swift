import CalendarModel
import JSONCoding

// MARK: - Reading a Group's entries with worker threads

extension JSCalendarReader {
    /// One entry for a worker: its bytes and the line they start on, or the error the scan
    /// met at that place (handed out in turn, after every entry before it).
    enum EntryJob {
        case bytes([UInt8], line: Int)
        case failure(Error)
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
        let pool: OrderedWorkerPool<EntryJob, EntryOutput>
        /// Whether the scan has passed the array's `]`, or stopped at an error.
        var entriesEnded = false

        init(reading: JSCalendarEntryReading, threads: Int) {
            let sourceName = reading.options.sourceName
            pool = OrderedWorkerPool(threads: threads, name: "calport-jscalendar") { job in
                switch job {
                case .failure(let error):
                    return EntryOutput(error: error)
                case .bytes(let bytes, let line):
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
                    return output
                }
            }
        }
    }

    /// Entries scanned ahead per thread: enough to keep the workers busy while this thread
    /// writes, few enough that memory does not grow with the input (an entry is a few KB).
    private static let entriesInFlightPerThread = 4
    /// How far the scan may run ahead per thread while a worker is still on the oldest entry:
    /// scanning is cheap and only this thread can do it, so it does that before it parses.
    private static let entriesAheadPerThread = 16

    /// The next entry's elements, its warnings reported first; nil after the array's `]`.
    /// This thread only finds where each entry's bytes end (`JSONParser.readValueBytes`); the
    /// parsing and decoding, most of a JSCalendar read, run on the workers and, while it would
    /// otherwise wait, here.
    mutating func nextFromWorkers() throws -> [CalendarStreamElement]? {
        if workers == nil { workers = EntryWorkers(reading: reading, threads: options.concurrency - 1) }
        let w = workers!
        while !w.entriesEnded && w.pool.pending < Self.entriesInFlightPerThread * options.concurrency { scanEntry(w) }
        guard w.pool.pending > 0 else { return nil }
        var output = w.pool.nextIfReady()
        while output == nil {
            if !w.entriesEnded && w.pool.pending < Self.entriesAheadPerThread * options.concurrency {
                scanEntry(w)
                output = w.pool.nextIfReady()
            } else {
                output = w.pool.next()
            }
        }
        for d in output!.diagnostics { log.report(d) }
        if let error = output!.error {
            workers = nil
            throw error
        }
        return output!.elements
    }

    /// Takes the next entry's bytes off the input for the workers, or notes the array's end or
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
            w.pool.submit(.bytes(bytes, line: line))
        } catch {
            w.pool.submit(.failure(error))
            w.entriesEnded = true
        }
    }
}
