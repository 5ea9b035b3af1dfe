import CalendarModel
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz targets' harness (Fuzz/, `make fuzz`) without libFuzzer: every target replays the
/// findings kept in Fixtures/<target>/ (minimized inputs that once crashed or hung calport,
/// named after what they prove) and a few seeds from the repository, then runs mutations of
/// them for `CALPORT_FUZZ_SMOKE_SECONDS` (default 1) each: byte flips, truncation, giant
/// repetitions, spliced tokens, converting on `CALPORT_FUZZ_JOBS` threads (default 1). A crash
/// stops the test run and leaves its input at `.build/fuzz-smoke/<target>/input`; an input
/// that takes more than 10 s of processor time fails the test, saved under
/// `.build/fuzz-findings/` with the command that reproduces it. Processor time rather than wall
/// time: under a sanitizer on a loaded machine a kept finding that converts in 0.1 s took 28 s of
/// wall time, and a hang burns processor time wherever it runs.
final class FuzzSmokeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let perInputLimit: TimeInterval = 10

    func testEveryTargetSurvivesItsFindingsSeedsAndMutations() throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["CALPORT_FUZZ_SMOKE_SECONDS"].flatMap(Double.init) ?? 1
        let jobs = environment["CALPORT_FUZZ_JOBS"].flatMap { Int($0) } ?? 1
        let seeds = try Self.seeds()
        var report: [String] = []
        for target in FuzzHarness.targets {
            let harness = try FuzzHarness(target: target, jobs: jobs)
            let findings = try Self.files(in: Self.root.appendingPathComponent("Tests/FuzzSmokeTests/Fixtures/\(target)"))
            let corpus = (findings + (seeds[target] ?? [])).map { [UInt8]((try? Data(contentsOf: $0)) ?? Data()) }
            var executions = 0
            for input in corpus {
                try run(harness, input)
                executions += 1
            }
            var random = SplitMix64(seed: UInt64(target.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }.magnitude))
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, !corpus.isEmpty {
                var input = corpus[Int(random.next() % UInt64(corpus.count))]
                for _ in 0...(random.next() % 4) { Self.mutate(&input, &random) }
                if input.count > 1 << 20 { input.removeLast(input.count - (1 << 20)) }
                try run(harness, input)
                executions += 1
            }
            report.append("\(target): \(executions) executions (\(findings.count) findings replayed)")
        }
        print("fuzz smoke: " + report.joined(separator: "; "))
    }

    /// Runs one input, saving it as a finding when it is too slow. The input is written first,
    /// so a crash leaves it behind (the harness itself keeps it only in memory).
    func run(_ harness: FuzzHarness, _ input: [UInt8]) throws {
        let directory = Self.root.appendingPathComponent(".build/fuzz-smoke/\(harness.target)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(input).write(to: directory.appendingPathComponent("input"))
        let started = Self.processorSeconds()
        harness.run(input)
        let elapsed = Self.processorSeconds() - started
        guard elapsed > Self.perInputLimit else { return }
        let folder = Self.root.appendingPathComponent(".build/fuzz-findings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(harness.target)-slow-\(input.count)-\(UUID().uuidString.prefix(8))")
        try Data(input).write(to: file)
        XCTFail(
            "\(harness.target): an input took \(Int(elapsed)) s of processor time; reproduce with "
                + "`calport convert -f \(harness.target) \(file.path) -o /tmp/out.ics` or "
                + "`make fuzz-repro TARGET=\(harness.target) FINDING=\(file.path)`")
    }

    /// The processor time this process has used so far, every thread's, in seconds.
    static func processorSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// A few small files per target from samples/ and the tests' fixtures, told apart by
    /// extension and content as `scripts/fuzz-seeds.sh` does for `make fuzz`.
    static func seeds() throws -> [String: [URL]] {
        var out: [String: [URL]] = [:]
        var files = try self.files(in: root.appendingPathComponent("samples"))
        let tests = root.appendingPathComponent("Tests")
        for folder in try FileManager.default.contentsOfDirectory(atPath: tests.path).sorted() where folder != "FuzzSmokeTests" {
            files += try self.files(in: tests.appendingPathComponent(folder).appendingPathComponent("Fixtures"))
        }
        for file in files {
            guard let data = try? Data(contentsOf: file), data.count < 32 << 10 else { continue }
            for target in targets(of: file, String(decoding: data, as: UTF8.self)) where out[target, default: []].count < 6 {
                out[target, default: []].append(file)
            }
        }
        return out
    }

    static func targets(of file: URL, _ text: String) -> [String] {
        switch file.pathExtension {
        case "ics": return ["ics"]
        case "csv": return ["csv", "csv-outlook", "csv-google"]
        case "jsonl": return ["jsonl"]
        case "json":
            if text.contains("calport-json") { return ["json"] }
            if text.hasPrefix("[\"vcalendar\"") { return ["jcal"] }
            if text.contains("\"@type\"") { return ["jscalendar"] }
            if text.contains("@odata") || text.contains("\"subject\"") { return ["graph"] }
            return []
        case "xml":
            if text.contains("multistatus") { return ["caldav", "caldav-client"] }
            if text.contains("icalendar-2.0") { return ["xcal"] }
            if text.contains("exchange/services") { return ["ews"] }
            return []
        default: return []
        }
    }

    static func files(in folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// One mutation of the kinds the black-box run used.
    static func mutate(_ input: inout [UInt8], _ random: inout SplitMix64) {
        let tokens = [
            "BEGIN:VEVENT\r\n", "RRULE:FREQ=SECONDLY;COUNT=2147483647\r\n", "INTERVAL=9223372036854775807", "P99999999999999999W",
            "{\"", "[[[[", "<a>", "\"duration\":", "9999", "0000", ",,,,", "\"\"\"", "\u{0}",
        ].map { Array($0.utf8) }
        let position = input.isEmpty ? 0 : Int(random.next() % UInt64(input.count))
        switch random.next() % 6 {
        case 0 where !input.isEmpty: input[position] ^= UInt8(1 << (random.next() % 8))
        case 1: input.removeLast(input.count - position)
        case 2:
            let length = min(input.count - position, Int(random.next() % 64) + 1)
            let piece = Array(input[position..<(position + length)])
            var copies: [UInt8] = []
            for _ in 0..<Int(random.next() % 2000) { copies += piece }
            input.insert(contentsOf: copies.prefix(256 << 10), at: position)
        case 3: input.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: position)
        case 4 where input.count > position + 1: input.removeSubrange(position..<min(input.count, position + Int(random.next() % 32) + 1))
        default: input.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
        }
    }
}

/// A small deterministic generator, so a smoke failure repeats.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
