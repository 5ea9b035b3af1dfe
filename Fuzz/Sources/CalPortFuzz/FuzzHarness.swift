import CalDAVClient
import CalendarModel
import Conversion
import Foundation
import Recurrence
import TimeZones

#if canImport(Glibc)
    import Glibc
#endif

/// Drives one input through what `calport convert` does with it: read → normalize → write ICS
/// and calport's JSON, and, for input that may recur, a bounded expansion. Errors are the
/// expected answer to most inputs and are dropped; only a crash, a hang or a blow-up is a
/// finding. Shared by the libFuzzer targets (`make fuzz`) and the test suite's smoke
/// (Tests/FuzzSmokeTests links this file).
///
/// Nothing touches a file system: the input is held in an anonymous memory file, which the
/// converter opens by its `/proc/self/fd` path as it opens any input (so the run is the CLI's,
/// down to reading the file again for a warning's line), and the outputs are a dry run's to
/// standard output, whose writers write every byte into a sink that drops them. (Writing real
/// files made each run read the previous input's output back first, as `convert` checks that
/// an existing output is not a read-only calendar, and once a read-only calendar had been
/// written every later run stopped there.) The requests are made once: making one reads the
/// whole environment (the CalDAV options), 12% of the time.
///
/// Each run makes its own time-zone resolver, as the CLI does. One shared by many inputs would
/// save a few percent, but its caches keep every VTIMEZONE they matched: they grow with every
/// input, and LeakSanitizer reports some of what they hold as leaked (a pointer it cannot see,
/// hidden by an enum's tag bits; freed with the resolver).
public final class FuzzHarness {
    /// What a harness can fuzz: every registered format's reader, and the CalDAV client's
    /// reading of a server's multistatus answers.
    public static let targets = StandardFormats.all.map(\.id) + ["caldav-client"]

    /// The target: a format id or `caldav-client`.
    public let target: String
    /// Threads each conversion may use (`calport convert -j`): 1 follows one thread's path;
    /// 2 or more the worker threads' (readers and writers that spread items over threads, the
    /// prefetching reader).
    public let jobs: Int
    private let converter = Converter()
    private let input: InputFile
    /// `convert -f FORMAT INPUT --dry-run -t ics`, then `-t json` (FORMAT is the target's, or
    /// ICS for the client's calendar data).
    private let conversions: [ConversionRequest]
    /// `-t jsonl --start 1950-01-01 --end 2050-01-01 --expand --max-occurrences 500`, for input
    /// that may recur: a century around now, as a user would bound a runaway rule.
    private let expansion: ConversionRequest

    /// A harness for `target` whose conversions use `jobs` threads.
    public init(target: String, jobs: Int = 1) throws {
        guard Self.targets.contains(target) else {
            throw CalendarError(.usage, file: target, "no fuzz target '\(target)' (targets: \(Self.targets.joined(separator: ", ")))")
        }
        self.target = target
        self.jobs = max(1, jobs)
        input = try InputFile()
        let format = target == "caldav-client" ? "ics" : target
        let path = input.path
        func request(_ output: String) -> ConversionRequest {
            ConversionRequest(
                inputs: [path], output: "-", inputFormat: format, outputFormat: output, dryRun: true, jobs: jobs,
                timeZones: TimeZoneOptions())
        }
        conversions = [request("ics"), request("json")]
        var expansion = request("jsonl")
        expansion.recurrence = try RecurrenceQuery(
            startText: "1950-01-01", endText: "2050-01-01", expand: true, maxOccurrences: 500)
        self.expansion = expansion
    }

    /// Runs one input.
    public func run(_ bytes: [UInt8]) {
        if target == "caldav-client" {
            runClient(bytes)
        } else {
            convert(bytes)
        }
    }

    /// The client reads collections, resources and sync changes from the body; the calendar data
    /// it finds goes on to the ICS reader, as a pull does.
    private func runClient(_ bytes: [UInt8]) {
        guard let base = URL(string: "http://127.0.0.1:5232/alice/calendar/"),
            let answers = try? CalDAVClient.answers(inMultistatus: bytes, base: base)
        else { return }
        for resource in answers.resources.prefix(3) {
            if let data = resource.calendarData { convert(Array(data.utf8)) }
        }
    }

    private func convert(_ bytes: [UInt8]) {
        guard input.replaceContents(with: bytes) else { return }
        for request in conversions + (Self.mayRecur(bytes) ? [expansion] : []) {
            _ = try? converter.run(request, log: DiagnosticLog())
        }
    }

    /// Whether the input names a rule or recurrence in any format's spelling.
    static func mayRecur(_ bytes: [UInt8]) -> Bool {
        let needles: [[UInt8]] = ["RRULE", "rrule", "recurrence", "Recurrence", "FREQ", "freq", "Pattern"].map { Array($0.utf8) }
        return bytes.withUnsafeBufferPointer { b in
            needles.contains { n in
                guard b.count >= n.count else { return false }
                return (0...(b.count - n.count)).contains { i in n.indices.allSatisfy { b[i + $0] == n[$0] } }
            }
        }
    }

    /// The input as a file only in memory (memfd_create(2)): no directory entry, nothing left
    /// behind; opened again by path, as the converter opens a file it is given.
    private final class InputFile {
        let descriptor: Int32
        let path: String

        init() throws {
            descriptor = memfd_create("calport-fuzz-input", memfdCloseOnExec)
            guard descriptor >= 0 else {
                throw CalendarError(.io, file: "memfd", "cannot make the in-memory input: \(String(cString: strerror(errno)))")
            }
            path = "/proc/self/fd/\(descriptor)"
        }

        deinit { close(descriptor) }

        /// Makes the file hold `bytes` alone.
        func replaceContents(with bytes: [UInt8]) -> Bool {
            guard ftruncate(descriptor, 0) == 0 else { return false }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + offset, bytes.count - offset, off_t(offset)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}

/// memfd_create(2), which Glibc's Swift module leaves out (it is declared under _GNU_SOURCE).
@_silgen_name("memfd_create")
private func memfd_create(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> Int32
/// MFD_CLOEXEC.
private let memfdCloseOnExec: UInt32 = 1
