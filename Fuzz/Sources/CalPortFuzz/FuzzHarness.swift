import CalDAVClient
import CalendarModel
import Conversion
import Foundation
import Recurrence
import TimeZones

/// Drives one input through what `calport convert` does with it: read → normalize → write ICS
/// and calport's JSON, and, for input that may recur, a bounded expansion. Errors are the
/// expected answer to most inputs and are dropped; only a crash, a hang or a blow-up is a
/// finding. Shared by the libFuzzer targets (`make fuzz`) and the test suite's smoke
/// (Tests/FuzzSmokeTests links this file).
public struct FuzzHarness {
    /// What a harness can fuzz: every registered format's reader, and the CalDAV client's
    /// reading of a server's multistatus answers.
    public static let targets = StandardFormats.all.map(\.id) + ["caldav-client"]

    /// The target: a format id or `caldav-client`.
    public let target: String
    /// Where the input and outputs are written; a crash leaves its input here as `input`.
    public let directory: String
    private let converter = Converter()
    private let window: RecurrenceQuery?

    /// - Parameter directory: the working directory; by default one per process under the
    ///   system's temporary directory.
    public init(target: String, directory: String? = nil) throws {
        guard Self.targets.contains(target) else {
            throw CalendarError(.usage, file: target, "no fuzz target '\(target)' (targets: \(Self.targets.joined(separator: ", ")))")
        }
        self.target = target
        let dir = directory ?? NSTemporaryDirectory() + "calport-fuzz-\(getpid())-\(target)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.directory = dir
        // A century around now, at most 500 occurrences a series: `--start --end --expand
        // --max-occurrences` as a user would bound a runaway rule.
        window = try? RecurrenceQuery(startText: "1950-01-01", endText: "2050-01-01", expand: true, maxOccurrences: 500)
    }

    /// Runs one input.
    public func run(_ bytes: [UInt8]) {
        if target == "caldav-client" {
            runClient(bytes)
        } else {
            convert(bytes, format: target)
        }
    }

    /// The client reads collections, resources and sync changes from the body; the calendar data
    /// it finds goes on to the ICS reader, as a pull does.
    private func runClient(_ bytes: [UInt8]) {
        guard let base = URL(string: "http://127.0.0.1:5232/alice/calendar/"),
            let answers = try? CalDAVClient.answers(inMultistatus: bytes, base: base)
        else { return }
        for resource in answers.resources.prefix(3) {
            if let data = resource.calendarData { convert(Array(data.utf8), format: "ics") }
        }
    }

    private func convert(_ bytes: [UInt8], format: String) {
        let input = directory + "/input"
        guard FileManager.default.createFile(atPath: input, contents: Data(bytes)) else { return }
        for (output, expands) in [("out.ics", false), ("out.json", false), ("expanded.jsonl", true)] {
            if expands && !Self.mayRecur(bytes) { continue }
            var request = ConversionRequest(
                inputs: [input], output: directory + "/" + output, inputFormat: format, jobs: 1, timeZones: TimeZoneOptions())
            if expands, let window { request.recurrence = window }
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
}
