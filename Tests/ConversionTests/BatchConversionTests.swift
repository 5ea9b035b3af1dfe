import CalendarModel
import CalendarTestSupport
@testable import Conversion
import Foundation
import ICSFormat
import XCTest

/// Batches through the library: merging, layouts, the transaction and the report.
final class BatchConversionTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func fixture(_ relative: String) -> String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/" + relative).path
    }

    func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    /// The events of an ICS file by UID and RECURRENCE-ID, with their summaries.
    func events(in file: String) throws -> [String: String] {
        var reader = ICSReader(source: try FileByteSource(path: file), options: ReadOptions(sourceName: file), log: DiagnosticLog())
        var result: [String: String] = [:]
        while let element = try reader.next() {
            guard case .entry(.event(let e), _) = element else { continue }
            let key = e.uid! + (e.recurrenceID.map { "@\($0.date.day)" } ?? "")
            XCTAssertNil(result[key], "\(key) written twice")
            result[key] = e.title
        }
        return result
    }

    func testMergeOfTwoOverlappingArchivesKeepsTheNewerVersionOfEachItem() throws {
        let output = path("merged.ics")
        let summary = try Converter().run(
            ConversionRequest(inputs: [fixture("merge/work-2023.ics"), fixture("merge/work-2024.ics")], output: output, merge: true),
            log: DiagnosticLog())
        XCTAssertEqual(try events(in: output), [
            "seq@example.com": "Planning v2",  // higher SEQUENCE, though LAST-MODIFIED is older
            "lastmod@example.com": "Review (newer edit)",  // same SEQUENCE, later LAST-MODIFIED
            "only-old@example.com": "Only in the 2023 export",
            "only-new@example.com": "Only in the 2024 export",
            "series@example.com": "Weekly",
            "series@example.com@12": "Weekly (moved, new)",  // overrides merge by RECURRENCE-ID
            "same@example.com": "Identical in both",
            "newer-in-first@example.com": "Kept from 2023: higher SEQUENCE",  // the first input can win
            "conflict@example.com": "Budget (phone copy)",  // a tie: the later input, reported
        ])
        let merge = try XCTUnwrap(summary.merge)
        XCTAssertEqual(merge.versionsRead, 15)
        XCTAssertEqual(merge.superseded, 4)
        XCTAssertEqual(merge.identicalCopies, 1)
        XCTAssertEqual(merge.conflicts.map(\.uid), ["conflict@example.com"])
        XCTAssertEqual(merge.conflicts.first?.kept.hasSuffix("work-2024.ics:51"), true)
        // One calendar, since both inputs are "Work": the golden file shows the whole result.
        let expected = try String(contentsOfFile: fixture("merge/work-merged.expected.ics"), encoding: .utf8)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), expected)
    }

    func testMergeWinnersDoNotDependOnInputOrderExceptForTies() throws {
        let forward = path("forward.ics"), backward = path("backward.ics")
        try Converter().run(ConversionRequest(inputs: [fixture("merge/work-2023.ics"), fixture("merge/work-2024.ics")], output: forward, merge: true), log: DiagnosticLog())
        try Converter().run(ConversionRequest(inputs: [fixture("merge/work-2024.ics"), fixture("merge/work-2023.ics")], output: backward, merge: true), log: DiagnosticLog())
        var a = try events(in: forward), b = try events(in: backward)
        XCTAssertEqual(a.removeValue(forKey: "conflict@example.com"), "Budget (phone copy)")
        XCTAssertEqual(b.removeValue(forKey: "conflict@example.com"), "Budget (laptop copy)")
        XCTAssertEqual(a, b)
    }

    func testMergeReadsTheSameInputsWithOneJobOrTwo() throws {
        let one = path("one.ics"), two = path("two.ics")
        let inputs = [fixture("merge/work-2023.ics"), fixture("merge/work-2024.ics")]
        try Converter().run(ConversionRequest(inputs: inputs, output: one, merge: true, jobs: 1), log: DiagnosticLog())
        try Converter().run(ConversionRequest(inputs: inputs, output: two, merge: true, jobs: 2), log: DiagnosticLog())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: one)), try Data(contentsOf: URL(fileURLWithPath: two)))
    }

    /// One input of many components, with repairs here and there: converting it with worker
    /// threads for its reader (`-j 4`) writes the same bytes and reports the same warnings, in
    /// the same order, as with one job; under `--strict` it fails with the same error.
    func testOneLargeInputConvertsTheSameWhenItsReaderUsesWorkerThreads() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport//tests//EN\r\n"
        for i in 0..<300 {
            text += "BEGIN:VEVENT\r\nUID:e\(i)@example.com\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240\(1 + i % 9)01T090000Z\r\n"
            text += i % 37 == 5 ? "SUMMARY:broken\r\nfolding\r\n" : "SUMMARY:Event \(i)\r\n"
            if i % 41 == 7 { text += "DTEND:2024-99-99\r\n" }
            if i % 53 != 11 { text += "END:VEVENT\r\n" }
        }
        text += "END:VCALENDAR\r\n"
        let input = path("large.ics")
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        func convert(jobs: Int, strict: Bool) -> (bytes: Data?, diagnostics: [Diagnostic], error: String?) {
            let log = DiagnosticLog()
            let output = path("out-\(jobs)-\(strict).ics")
            do {
                try Converter().run(ConversionRequest(inputs: [input], output: output, strict: strict, jobs: jobs), log: log)
                return (FileManager.default.contents(atPath: output), log.diagnostics, nil)
            } catch {
                return (nil, log.diagnostics, "\(error)")
            }
        }
        let one = convert(jobs: 1, strict: false)
        XCTAssertGreaterThan(one.diagnostics.count, 10)
        for jobs in [3, 4] {
            let many = convert(jobs: jobs, strict: false)
            XCTAssertNotNil(many.bytes)
            XCTAssertEqual(many.bytes, one.bytes, "-j \(jobs)")
            XCTAssertEqual(many.diagnostics, one.diagnostics, "-j \(jobs)")
            let strict = convert(jobs: jobs, strict: true)
            XCTAssertEqual(strict.error, convert(jobs: 1, strict: true).error, "-j \(jobs) --strict")
            XCTAssertNotNil(strict.error)
        }
    }

    func testVdirOutputHoldsOneFilePerUIDAndReadsBackAsOneCalendar() throws {
        let vdir = path("vdir")
        try Converter().run(
            ConversionRequest(inputs: [fixture("merge/work-2023.ics")], output: vdir, outputFormat: "ics", outputLayout: .vdir), log: DiagnosticLog())
        let folder = vdir + "/Work"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(names.count, 8)  // 7 UIDs + displayname: the override shares its series' file
        XCTAssertTrue(names.contains("displayname"))
        XCTAssertEqual(try String(contentsOfFile: folder + "/displayname", encoding: .utf8), "Work\n")
        let series = try String(contentsOfFile: folder + "/series@example.com.ics", encoding: .utf8)
        XCTAssertEqual(series.components(separatedBy: "BEGIN:VEVENT").count - 1, 2)
        XCTAssertTrue(series.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
        // Reading the vdir back gives the same events as the source, in one calendar.
        let back = path("back.ics")
        let summary = try Converter().run(ConversionRequest(inputs: [vdir], output: back), log: DiagnosticLog())
        XCTAssertEqual(summary.calendars, 1)
        XCTAssertEqual(try events(in: back), try events(in: fixture("merge/work-2023.ics")))
    }

    func testDirectoryInputsAreWalkedRecursivelyInSortedOrder() throws {
        let expansion = try BatchInputExpander(registry: StandardFormats.registry).expand([fixture("batch/directory-with-corrupt-file")])
        XCTAssertEqual(expansion.inputs.map { URL(fileURLWithPath: $0.name).lastPathComponent }, ["corrupt.ics", "home.ics", "team.ics"])
        XCTAssertEqual(expansion.skippedFiles.map { URL(fileURLWithPath: $0).lastPathComponent }, ["README.txt"])
    }

    func testAFailureLeavesNoStagedFileAndNoCreatedDirectory() throws {
        let target = path("new/deeper")
        XCTAssertThrowsError(try Converter().run(
            ConversionRequest(inputs: [fixture("batch/directory-with-corrupt-file")], output: target, outputFormat: "ics", strict: true,
                              outputLayout: .directory), log: DiagnosticLog()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new")), "directories created for the output are removed again")
    }

    func testReportNamesEveryLossWithItsPlaces() throws {
        let log = DiagnosticLog()
        log.warning(file: "a.ics", line: 3, "DTSTART holds a DATE without VALUE=DATE; read as a date")
        log.loss(file: "a.ics", line: 10, field: "attendees.role", "CSV cannot hold an attendee's role; dropped")
        log.loss(file: "b.ics", line: 4, field: "attendees.role", "CSV cannot hold an attendee's role; dropped")
        log.loss(file: "b.ics", line: 9, field: "alarms", "CSV cannot hold alarms; dropped")
        var report = ConversionReport(dryRun: false, outputFormat: "csv")
        report.collect(log.diagnostics)
        XCTAssertEqual(report.warnings.map(\.line), [3])
        XCTAssertEqual(report.losses.map(\.field), ["attendees.role", "alarms"])
        XCTAssertEqual(report.losses[0].count, 2)
        XCTAssertEqual(report.losses[0].places, ["a.ics:10", "b.ics:4"])
    }

    func testProgressMeterShowsItemsBytesRateAndTimeLeft() {
        var drawn: [String] = []
        let meter = ProgressMeter(totalBytes: 2_000_000) { drawn.append($0) }
        meter.advance(items: 500, bytes: 1_000_000)
        let line = drawn.last ?? ""
        XCTAssertTrue(line.contains("50%"), line)
        XCTAssertTrue(line.contains("500 items"), line)
        XCTAssertTrue(line.contains("1.0 MB/2.0 MB"), line)
        XCTAssertTrue(line.contains("MB/s"), line)
        XCTAssertTrue(line.contains("ETA"), line)
        meter.finish()
        XCTAssertEqual(drawn.last, "\r\u{1B}[K")
    }
}

/// The reader thread hands out exactly what the reader produced, in order, then its error.
final class PrefetchingReaderTests: XCTestCase {
    /// A reader of numbered entries that fails after `count` of them when told to.
    struct CountingReader: CalendarReader {
        var count: Int
        var failsAtEnd: Bool
        var produced = 0

        mutating func next() throws -> CalendarStreamElement? {
            guard produced < count else {
                if failsAtEnd { throw CalendarError(.data, file: "numbers.ics", line: count + 1, "broken at the end") }
                return nil
            }
            produced += 1
            return .entry(.event(Event(item: CalendarItem(uid: "\(produced)"))), line: produced)
        }
    }

    func drain(_ reader: PrefetchingReader) -> (uids: [String], error: CalendarError?) {
        var uids: [String] = []
        do {
            while let element = try reader.next() {
                if case .entry(let entry, _) = element { uids.append(entry.item!.uid!) }
            }
        } catch {
            return (uids, error as? CalendarError)
        }
        return (uids, nil)
    }

    func testElementsComeOutInOrderAcrossManyBatches() {
        let reader = PrefetchingReader(CountingReader(count: 1000, failsAtEnd: false), bytesRead: { 0 }, batchSize: 7, depth: 2)
        let (uids, error) = drain(reader)
        XCTAssertNil(error)
        XCTAssertEqual(uids, (1...1000).map(String.init))
    }

    func testTheErrorComesAfterEveryElementReadBeforeIt() {
        let reader = PrefetchingReader(CountingReader(count: 100, failsAtEnd: true), bytesRead: { 0 }, batchSize: 16, depth: 2)
        let (uids, error) = drain(reader)
        XCTAssertEqual(uids.count, 100)
        XCTAssertEqual(error?.diagnostic.line, 101)
    }

    func testAbandoningTheReaderEarlyStopsItsThread() {
        // Dropping the reader after one element must not hang or crash: deinit stops the thread.
        var reader: PrefetchingReader? = PrefetchingReader(CountingReader(count: 100_000, failsAtEnd: false), bytesRead: { 0 }, batchSize: 4, depth: 1)
        XCTAssertNotNil(try reader?.next())
        reader = nil
    }
}
