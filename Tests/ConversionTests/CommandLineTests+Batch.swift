import CalendarTestSupport
import Foundation
import XCTest

/// Batches through the CLI: a directory holding one unreadable file, under `--strict` and by
/// default, and the dry run.
extension CommandLineTests {
    /// Copies a fixture folder into the work directory and returns its path there.
    func fixture(_ relative: String) throws -> String {
        let source = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/" + relative)
        let target = workDirectory.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        return target.path
    }

    /// Every file under the work directory whose name marks it as a calport temporary file.
    func temporaryLeftovers() -> [String] {
        let walker = FileManager.default.enumerator(atPath: workDirectory.path)
        return (walker?.allObjects as? [String] ?? []).filter { $0.contains(".calport-") }
    }

    func testStrictBatchWithACorruptFileWritesNothingAndNamesTheFile() throws {
        let input = try fixture("batch/directory-with-corrupt-file")
        let output = try write("existing.ics", "precious content\n")
        let run = try calport(["convert", input, "-o", output, "--strict", "--no-progress"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("nested/corrupt.ics:1: error:"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "precious content\n")
        XCTAssertEqual(temporaryLeftovers(), [])
    }

    func testStrictBatchIntoADirectoryLeavesTheDirectoryAsItWas() throws {
        let input = try fixture("batch/directory-with-corrupt-file")
        let outDirectory = workDirectory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDirectory, withIntermediateDirectories: true)
        let kept = try write("out/Team.ics", "an older Team export\n")
        let run = try calport(["convert", input, "-o", outDirectory.path, "--layout", "directory", "-t", "ics", "--strict"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("corrupt.ics"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "an older Team export\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outDirectory.path), ["Team.ics"])
    }

    func testDefaultBatchWritesTheRestAndReportsTheBadFile() throws {
        let input = try fixture("batch/directory-with-corrupt-file")
        let run = try calport(["convert", input, "-o", "all.ics", "--report", "report.json"])
        XCTAssertEqual(run.status, 1, "a batch that skipped an input says so in its status: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("nested/corrupt.ics: error: no VCALENDAR found"), run.stderr)
        XCTAssertTrue(run.stderr.contains("input skipped"), run.stderr)
        let written = try String(contentsOfFile: workDirectory.appendingPathComponent("all.ics").path, encoding: .utf8)
        for uid in ["team-1@example.com", "team-2@example.com", "home-1@example.com"] {
            XCTAssertTrue(written.contains("UID:\(uid)\r\n"), "missing \(uid)")
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: workDirectory.appendingPathComponent("report.json"))) as! [String: Any]
        let inputs = report["inputs"] as! [[String: Any]]
        let failed = inputs.filter { $0["status"] as? String == "failed" }
        XCTAssertEqual(failed.count, 1)
        XCTAssertTrue((failed[0]["file"] as! String).hasSuffix("nested/corrupt.ics"))
        XCTAssertEqual(inputs.filter { $0["status"] as? String == "converted" }.count, 2)
        XCTAssertTrue((report["skippedFiles"] as! [String]).contains { $0.hasSuffix("README.txt") })
        let totals = report["totals"] as! [String: Int]
        XCTAssertEqual(totals["events"], 3)
        XCTAssertEqual(totals["calendars"], 2)
        XCTAssertEqual(temporaryLeftovers(), [])
    }

    func testDefaultBatchIntoADirectoryWritesOneFilePerReadableCalendar() throws {
        let input = try fixture("batch/directory-with-corrupt-file")
        let run = try calport(["convert", input, "-o", "out/", "-t", "jsonl"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: workDirectory.appendingPathComponent("out").path).sorted()
        XCTAssertEqual(names, ["Home.jsonl", "Team.jsonl"])
    }

    func testDryRunShowsTheMergePlanAndWritesNothing() throws {
        let a = try fixture("merge/work-2023.ics")
        let b = try fixture("merge/work-2024.ics")
        let run = try calport(["convert", a, b, "--merge", "--dry-run", "-o", "merged.ics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("would write merged.ics"), run.stdout)
        XCTAssertTrue(run.stdout.contains("calendar Work: 9 events"), run.stdout)
        XCTAssertTrue(run.stdout.contains("15 versions read, 9 items kept, 4 older versions dropped, 1 identical copies dropped, 1 conflicts"), run.stdout)
        XCTAssertTrue(run.stderr.contains("work-2023.ics:59: warning: UID conflict@example.com"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDirectory.appendingPathComponent("merged.ics").path))
        XCTAssertEqual(temporaryLeftovers(), [])
        // A dry run touches no file at all (an earlier version staged to /dev/null and then
        // removed it as if it were a temporary file).
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/null must still be the null device")
    }

    func testProgressIsNotDrawnWhenStandardErrorIsNotATerminal() throws {
        let a = try fixture("merge/work-2023.ics")
        let run = try calport(["convert", a, "-o", "out.ics"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "")
    }
}

extension CommandLineTests {
    func testMergeReadsStandardInputTwiceThroughASpool() throws {
        let older = try fixture("merge/work-2023.ics")
        let newer = try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/merge/work-2024.ics"))
        let run = try calport(["convert", older, "-", "--merge", "-t", "ics"], stdin: newer)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("SUMMARY:Planning v2\r\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("SUMMARY:Planning v1\r\n"))
        XCTAssertTrue(run.stderr.contains("kept -:51"), run.stderr)
    }
}

extension CommandLineTests {
    func testReportNamesWhatOutlookCSVCannotHold() throws {
        let input = try fixture("merge/work-2023.ics")
        let run = try calport(["convert", input, "-o", "work.csv", "-t", "csv-outlook", "--report", "report.json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: workDirectory.appendingPathComponent("report.json"))) as! [String: Any]
        let losses = report["losses"] as! [[String: Any]]
        let fields = Set(losses.map { $0["field"] as! String })
        XCTAssertTrue(fields.contains("recurrenceRules"), "\(losses)")
        XCTAssertTrue(fields.contains("timeZone"), "\(losses)")
        let rule = losses.first { $0["field"] as? String == "recurrenceRules" }!
        XCTAssertEqual(rule["places"] as? [String], ["work.csv:5"])
        XCTAssertEqual((report["totals"] as! [String: Int])["events"], 8)
    }
}
