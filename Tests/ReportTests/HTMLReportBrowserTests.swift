import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// The HTML report as a person sees it: rendered by headless Chromium, its figures read back
/// from the DOM and compared with the JSON report of the same run; a screenshot is kept.
final class HTMLReportBrowserTests: XCTestCase {
    var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// Real-world files with warnings (ical4j's and ical.js's samples: Lord of the Rings and
    /// its updated copy, a Google birthday calendar, a blank TZID, malformed RDATEs), merged,
    /// into Outlook's CSV, which cannot hold recurrence rules or zones.
    static var corpusBatch: [String] {
        let corpus = RoundTripCheck.corpusRoot
        let ical4j = corpus.appendingPathComponent("ical4j/src/test/resources/samples/valid")
        let icaljs = corpus.appendingPathComponent("icaljs/samples")
        let merge = RoundTripCheck.repositoryRoot.appendingPathComponent("Tests/ConversionTests/Fixtures/merge")
        return [
            ical4j.appendingPathComponent("lotr.ics"), ical4j.appendingPathComponent("lotr-updated.ics"),
            ical4j.appendingPathComponent("Packers.ics"), ical4j.appendingPathComponent("SwedishHolidays2003-2006.ics"),
            ical4j.appendingPathComponent("korganizer_sample.ics"), ical4j.appendingPathComponent("evolution.ics"),
            ical4j.appendingPathComponent("blankTzid.ics"), icaljs.appendingPathComponent("google_birthday.ics"),
            icaljs.appendingPathComponent("forced_types.ics"), merge.appendingPathComponent("work-2023.ics"),
            merge.appendingPathComponent("work-2024.ics"),
        ].map(\.path)
    }

    func testTheRenderedPageOfAMergedLossyCorpusBatchShowsTheJSONReportsFigures() throws {
        let browser = try HeadlessChromium.find()
        let runner = CommandRunner(directory: workDirectory)
        let arguments = ["convert"] + Self.corpusBatch + ["--merge", "-o", "all.csv", "-t", "csv-outlook", "--no-progress"]
        let jsonRun = try runner.calport(arguments + ["--report", "report.json"])
        let htmlRun = try runner.calport(arguments + ["--report", "report.html"])
        XCTAssertEqual(jsonRun.status, 0, jsonRun.stderr)
        XCTAssertEqual(htmlRun.status, 0, htmlRun.stderr)
        let json = try JSONDecoder().decode(
            ConversionReport.self, from: Data(contentsOf: workDirectory.appendingPathComponent("report.json")))
        // The batch is what the issue asks for: warnings, losses, and every kind of merge decision.
        XCTAssertFalse(json.warnings.isEmpty)
        XCTAssertFalse(json.losses.isEmpty)
        let merge = try XCTUnwrap(json.merge)
        XCTAssertGreaterThan(merge.superseded, 0)
        XCTAssertGreaterThan(merge.identicalCopies, 0)
        XCTAssertFalse(merge.conflicts.isEmpty)
        XCTAssertTrue(json.outputs.flatMap(\.calendars).contains { $0.kind == "birthday" && $0.readOnly })

        let page = workDirectory.appendingPathComponent("report.html")
        let shown = try browser.renderedPage(page)
        try browser.screenshot(of: page, name: "corpus-merge-csv-outlook")
        Self.assertPage(shown, shows: json)
        XCTAssertEqual(shown.figures["merge.versionsRead"]?.number, merge.versionsRead)
        XCTAssertEqual(shown.figures["merge.distinctItems"]?.number, merge.distinctItems)
        XCTAssertEqual(shown.figures["merge.superseded"]?.number, merge.superseded)
        XCTAssertEqual(shown.figures["merge.identicalCopies"]?.number, merge.identicalCopies)
        XCTAssertEqual(shown.figures["merge.conflicts"]?.number, merge.conflicts.count)
        // Both places of each conflict are on the page.
        for conflict in merge.conflicts {
            XCTAssertTrue(
                shown.text.contains(conflict.kept) && shown.text.contains(conflict.dropped), "conflict \(conflict.uid) without its places")
        }
    }

    /// The sample report in docs/ (`make sample-report`: samples/ merged into Outlook's CSV)
    /// renders with the figures of its JSON twin, and a fresh run of the same command shows
    /// the same totals (so the sample is not out of date).
    func testTheSampleReportInDocsRendersItsFiguresAndIsCurrent() throws {
        let browser = try HeadlessChromium.find()
        let docs = RoundTripCheck.repositoryRoot.appendingPathComponent("docs")
        let sampleJSON = try JSONDecoder().decode(
            ConversionReport.self, from: Data(contentsOf: docs.appendingPathComponent("sample-report.json")))
        let sample = try browser.renderedPage(docs.appendingPathComponent("sample-report.html"))
        try browser.screenshot(of: docs.appendingPathComponent("sample-report.html"), name: "sample-report", height: 2600)
        Self.assertPage(sample, shows: sampleJSON)
        XCTAssertNotNil(sample.figures["merge.versionsRead"])

        let runner = CommandRunner(directory: RoundTripCheck.repositoryRoot)
        let html = workDirectory.appendingPathComponent("samples.html")
        let arguments = [
            "convert", "samples/apple-personal.ics", "samples/google-family.ics", "samples/outlook-team-meetings.ics", "--merge", "-t",
            "csv-outlook",
            "-o", workDirectory.appendingPathComponent("samples.csv").path, "--no-progress", "--report", html.path,
        ]
        XCTAssertEqual(try runner.calport(arguments).status, 0)
        let fresh = try browser.renderedPage(html)
        XCTAssertEqual(
            fresh.figures.filter { $0.key.hasPrefix("totals.") || $0.key.hasPrefix("merge.") },
            sample.figures.filter { $0.key.hasPrefix("totals.") || $0.key.hasPrefix("merge.") },
            "docs/sample-report.html is out of date: `make sample-report`")
        XCTAssertEqual(fresh.marks.map(\.month), sample.marks.map(\.month))
    }

    /// A push section renders from the report's `calDAV` data (what `CalDAVPush` fills): per
    /// calendar, created, updated, unchanged, skipped, which side won each conflict, failed,
    /// the first examples with their places, and the server without its userinfo.
    func testAPushSectionShowsEachCalendarsOutcome() throws {
        let browser = try HeadlessChromium.find()
        var report = ConversionReport(dryRun: false, outputFormat: "caldav-server")
        var work = ConversionReport.ServerCalendar(url: "https://alice:hunter2@dav.example.com/cal/alice/work/", title: "Work")
        work.created = 1200
        work.updated = 35
        work.unchanged = 18_004
        work.skipped = 3
        work.serverWon = 3
        work.localWon = 35
        work.failed = 1
        work.examples = [
            .init(
                outcome: "skipped", uid: "meeting-1@example.com", href: "/cal/alice/work/meeting-1.ics", place: "work.ics:120",
                winner: "server",
                reason: "the server's copy is newer (SEQUENCE 3 > 1)"),
            .init(
                outcome: "updated", uid: "meeting-2@example.com", href: "/cal/alice/work/meeting-2.ics", place: "work.ics:340",
                winner: "local",
                reason: "newer than the server's copy (SEQUENCE 2 vs 0)"),
            .init(outcome: "failed", uid: "huge@example.com", href: nil, place: "work.ics:900", reason: "the server refused it (HTTP 413)"),
        ]
        var home = ConversionReport.ServerCalendar(url: "/cal/alice/home/", title: "Home")
        home.created = 7
        var server = ConversionReport.Server(direction: "push", servers: ["https://alice:hunter2@dav.example.com/"])
        server.calendars = [work, home]
        server.requests = ["PUT": 1243, "PROPFIND": 4]
        report.calDAV = server
        let page = workDirectory.appendingPathComponent("push.html")
        try report.write(to: page.path, format: .html)

        let shown = try browser.renderedPage(page)
        try browser.screenshot(of: page, name: "push", height: 1600)
        XCTAssertEqual(shown.figures["calDAV.server"]?.text, "https://dav.example.com/")
        for (i, c) in [work, home].enumerated() {
            let row = try XCTUnwrap(shown.calDAV[String(i)])
            XCTAssertEqual(row["title"]?.text, c.title)
            XCTAssertEqual(row["created"]?.number, c.created)
            XCTAssertEqual(row["updated"]?.number, c.updated)
            XCTAssertEqual(row["unchanged"]?.number, c.unchanged)
            XCTAssertEqual(row["skipped"]?.number, c.skipped)
            XCTAssertEqual(row["serverWon"]?.number, c.serverWon)
            XCTAssertEqual(row["localWon"]?.number, c.localWon)
            XCTAssertEqual(row["failed"]?.number, c.failed)
        }
        XCTAssertEqual(shown.figures["calDAV.created"]?.number, 1207)
        XCTAssertTrue(shown.text.contains("server won") && shown.text.contains("local won"), "no winner shown")
        for place in ["work.ics:120", "work.ics:340", "work.ics:900"] { XCTAssertTrue(shown.text.contains(place), "no \(place)") }
        XCTAssertTrue(shown.text.contains("HTTP 413"))
        XCTAssertFalse(shown.text.contains("hunter2") || shown.text.contains("alice:"), "userinfo on the page")
        XCTAssertEqual(shown.external, [])
    }

    /// A pull (into a vdir) shows per calendar what was pulled and deleted, and how changes were found.
    func testAPullSectionShowsEachCalendarsChangesAndSyncMethod() throws {
        let browser = try HeadlessChromium.find()
        var report = ConversionReport(dryRun: false, outputFormat: "ics")
        var work = ConversionReport.ServerCalendar(url: "https://dav.example.com/cal/alice/work/", title: "Work")
        work.pulled = 2
        work.deleted = 1
        work.syncMethod = "sync-collection"
        work.examples = [
            .init(
                outcome: "deleted", uid: "", href: "/cal/alice/work/gone.ics", place: "vdir/work/gone.ics", reason: "removed on the server")
        ]
        var home = ConversionReport.ServerCalendar(url: "https://dav.example.com/cal/alice/home/", title: "Home")
        home.syncMethod = "etag"
        var server = ConversionReport.Server(direction: "pull", servers: ["https://bob:s3cret@dav.example.com/"])
        server.calendars = [work, home]
        report.calDAV = server
        let page = workDirectory.appendingPathComponent("pull.html")
        try report.write(to: page.path, format: .html)

        let shown = try browser.renderedPage(page)
        XCTAssertTrue(shown.text.contains("Pull from the CalDAV server"))
        for (i, c) in [work, home].enumerated() {
            let row = try XCTUnwrap(shown.calDAV[String(i)])
            XCTAssertEqual(row["pulled"]?.number, c.pulled)
            XCTAssertEqual(row["deleted"]?.number, c.deleted)
            XCTAssertEqual(row["syncMethod"]?.text, c.syncMethod)
        }
        XCTAssertTrue(shown.text.contains("vdir/work/gone.ics"))
        XCTAssertFalse(shown.text.contains("s3cret") || shown.text.contains("bob:"), "userinfo on the page")
    }

    /// What every rendered report must show of its JSON twin: the totals, each calendar's
    /// counts and type, each loss's count, one timeline mark per month with events (with its
    /// month, calendar and count), and nothing that reaches outside the page.
    static func assertPage(_ shown: HeadlessChromium.Page, shows json: ConversionReport, file: StaticString = #filePath, line: UInt = #line)
    {
        let t = json.totals
        let expected: [String: Int] = [
            "totals.calendars": t.calendars, "totals.events": t.events, "totals.reminders": t.reminders, "totals.timeZones": t.timeZones,
            "totals.occurrences": t.occurrences, "totals.otherComponents": t.otherComponents,
            "totals.warnings": json.warnings.filter { $0.severity == "warning" }.count,
            "totals.errors": json.warnings.filter { $0.severity != "warning" }.count,
            "totals.losses": json.losses.reduce(0) { $0 + $1.count },
        ]
        for (key, value) in expected {
            XCTAssertEqual(shown.figures[key]?.number, value, key, file: file, line: line)
        }
        let calendars = json.outputs.flatMap(\.calendars)
        XCTAssertEqual(shown.calendars.count, calendars.count, "calendar rows", file: file, line: line)
        for (i, c) in calendars.enumerated() {
            guard let row = shown.calendars[String(i)] else {
                XCTFail("calendar \(i) missing", file: file, line: line)
                continue
            }
            XCTAssertEqual(row["title"]?.text, c.title ?? "(untitled calendar)", file: file, line: line)
            XCTAssertEqual(row["kind"]?.text, ["calDAV": "CalDAV", "exchange": "Exchange"][c.kind] ?? c.kind, file: file, line: line)
            XCTAssertEqual(row["readOnly"] != nil, c.readOnly, "read-only of \(i)", file: file, line: line)
            XCTAssertEqual(row["events"]?.number, c.events, "events of \(i)", file: file, line: line)
            XCTAssertEqual(row["reminders"]?.number, c.reminders, file: file, line: line)
            XCTAssertEqual(row["timeZones"]?.number, c.timeZones, file: file, line: line)
            XCTAssertEqual(row["occurrences"]?.number, c.occurrences, file: file, line: line)
            XCTAssertEqual(row["otherComponents"]?.number, c.otherComponents, file: file, line: line)
            // One mark per month with events, carrying the month's count, month and calendar.
            let marks = shown.marks.filter { $0.cal == String(i) }
            let months = c.eventsByMonth.months.map { (MonthlyCounts.label(year: $0.year, month: $0.month), $0.count) }
            XCTAssertEqual(marks.map(\.month), months.map(\.0), "timeline months of \(i)", file: file, line: line)
            XCTAssertEqual(marks.map(\.count), months.map(\.1), "timeline counts of \(i)", file: file, line: line)
            for mark in marks {
                XCTAssertEqual(mark.calendar, c.title ?? "(untitled calendar)", file: file, line: line)
                XCTAssertTrue(
                    mark.title.contains(mark.month) && mark.title.contains(c.title ?? "(untitled calendar)"), mark.title, file: file,
                    line: line)
            }
        }
        XCTAssertEqual(
            shown.losses.mapValues { $0["count"]?.number ?? -1 },
            Dictionary(uniqueKeysWithValues: json.losses.map { ($0.field, $0.count) }),
            "losses", file: file, line: line)
        XCTAssertEqual(shown.external, [], "references outside the page", file: file, line: line)
    }
}
