import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

@testable import Conversion

/// What the HTML page holds and what it must never hold, checked on the file itself: no
/// reference outside the page, no secret, the format chosen by extension or option, and a
/// page that stays small for a 100,000-item archive.
final class HTMLReportContentTests: XCTestCase {
    var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    func calport(_ arguments: [String]) throws -> CommandRunner.Run {
        try CommandRunner(directory: workDirectory).calport(arguments)
    }

    /// `rendered_figures.py` on a page's own text (no browser): its outside references.
    func outsideReferences(_ html: String) throws -> [String] {
        try HeadlessChromium.figures(ofPage: html).external
    }

    func testTheReaderOfOutsideReferencesFindsThem() throws {
        // The check below is only worth something if it can fail.
        let page =
            "<html><head><link rel=stylesheet href=x.css><style>body{background:url(a.png)}</style></head><body><img src=a.png><a href=\"https://x\">x</a><a href=\"#ok\">ok</a><svg><image href=\"b.svg\"/></svg></body></html>"
        XCTAssertEqual(try outsideReferences(page).count, 8)  // link (tag, href), style url(), img (tag, src), a href, image (tag, href)
    }

    func testNoSecretAndNoOutsideReferenceReachTheReport() throws {
        let calendar = workDirectory.appendingPathComponent("family.ics")
        try Data(contentsOf: RoundTripCheck.repositoryRoot.appendingPathComponent("samples/google-family.ics")).write(to: calendar)
        let secretInput = "https://alice:hunter2@127.0.0.1/cal/alice.ics?access_token=s3cr3t&view=week"
        for report in ["report.html", "report.json"] {
            let run = try calport(["convert", secretInput, calendar.path, "-o", "out.csv", "--report", report, "--retries", "0"])
            // The URL is a CalDAV server and nothing listens there: the run fails (69), the report is still written.
            XCTAssertEqual(run.status, 69, run.stderr)
            let text = try String(contentsOf: workDirectory.appendingPathComponent(report), encoding: .utf8)
            for secret in ["hunter2", "alice:", "s3cr3t"] {
                XCTAssertFalse(text.contains(secret), "\(report) shows '\(secret)'")
            }
            XCTAssertTrue(
                text.contains("https://127.0.0.1/cal/alice.ics?access_token=***&amp;view=week")
                    || text.contains("https://127.0.0.1/cal/alice.ics?access_token=***&view=week"), text)
        }
        let html = try String(contentsOf: workDirectory.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertEqual(try outsideReferences(html), [])

        // Every text of the page passes the same filter: a warning about a URL loses its userinfo.
        var report = ConversionReport(dryRun: false, outputFormat: "ics")
        report.run = .init(
            arguments: ["/usr/bin/calport", "convert", "--password", "pw-1", "--token=tok-2", "in.ics"],
            start: .init(timeIntervalSince1970: 0))
        report.warnings = [
            .init(
                file: "https://bob:pw-3@dav.example.com/cal/", line: nil, location: nil, severity: "warning",
                message: "see https://bob:pw-4@dav.example.com/x")
        ]
        report.losses = [.init(field: "alarms", count: 1, places: ["https://bob:pw-5@dav.example.com/a.ics:3"], message: "x")]
        let page = HTMLReport(report).render()
        for secret in ["pw-1", "tok-2", "pw-3", "pw-4", "pw-5", "bob:"] { XCTAssertFalse(page.contains(secret), secret) }
        XCTAssertEqual(try outsideReferences(page), [])
    }

    func testSecretOptionsAndURLUserinfoAreMaskedOnTheCommandLine() {
        let typed = [
            "/usr/local/bin/calport", "push", "--password", "pw", "--token=tok", "--api-key", "k", "--user", "bob", "--bearer-token", "b",
            "https://bob:pw@dav.example.com/cal/?sig=abc&x=1", "--client-secret=cs", "-o", "out.ics", "--passwordless-flag", "in.ics",
        ]
        XCTAssertEqual(
            SecretRedaction.commandLine(typed),
            [
                "calport", "push", "--password", "***", "--token=***", "--api-key", "***", "--user", "bob", "--bearer-token", "***",
                "https://dav.example.com/cal/?sig=***&x=1", "--client-secret=***", "-o", "out.ics", "--passwordless-flag", "in.ics",
            ])
        XCTAssertEqual(
            SecretRedaction.text("GET http://u@h:8080/p failed; retry https://h/"), "GET http://h:8080/p failed; retry https://h/")
    }

    func testTheFormatFollowsTheExtensionThenReportFormat() throws {
        let input = RoundTripCheck.repositoryRoot.appendingPathComponent("samples/google-family.ics").path
        let cases: [([String], String?)] = [
            (["--report", "a.html"], "<!DOCTYPE html>"), (["--report", "B.HTM"], "<!DOCTYPE html>"), (["--report", "c.json"], "{"),
            (["--report", "d.report", "--report-format", "html"], "<!DOCTYPE html>"), (["--report", "e.report"], "{"),
            (["--report", "f.html", "--report-format", "json"], nil), (["--report-format", "html"], nil),
        ]
        for (options, start) in cases {
            let run = try calport(["convert", input, "-o", "out.ics"] + options)
            guard let start else {
                XCTAssertEqual(run.status, 2, "\(options): \(run.stderr)")
                continue
            }
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try String(contentsOf: workDirectory.appendingPathComponent(options[1]), encoding: .utf8)
            XCTAssertTrue(text.hasPrefix(start), "\(options): \(text.prefix(40))")
        }
    }

    /// `--report` twice writes both files of one run (the page and its JSON twin); the same
    /// file twice is a usage error.
    func testReportGivenTwiceWritesBothFilesOfTheSameRun() throws {
        let input = RoundTripCheck.repositoryRoot.appendingPathComponent("samples/google-family.ics").path
        let run = try calport(["convert", input, "-o", "out.ics", "--report", "run.json", "--report", "run.html"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try JSONDecoder().decode(ConversionReport.self, from: Data(contentsOf: workDirectory.appendingPathComponent("run.json")))
        let html = try String(contentsOf: workDirectory.appendingPathComponent("run.html"), encoding: .utf8)
        let started = try XCTUnwrap(json.run?.startedAt)
        XCTAssertTrue(html.contains("datetime=\"\(started)\""), "the page is of another run than the JSON")
        XCTAssertEqual(try calport(["convert", input, "-o", "out.ics", "--report", "x.json", "--report", "x.json"]).status, 2)
    }

    /// The worst a 100,000-item migration can give: every item a warning and a conflict,
    /// 1,000 superseded examples, 40 lossy fields with 20 places each, 300 calendars over a
    /// century of months, 2,000 failed inputs. The page summarizes and stays under 2 MB.
    func testThePageOfA100kItemRunStaysUnder2MB() throws {
        var report = ConversionReport(dryRun: false, outputFormat: "csv-outlook")
        report.run = .init(arguments: ["calport", "convert", "archive/", "--merge", "-o", "all.csv"], start: .init(), durationSeconds: 42)
        let longPath = "exports/2015-2024/mailbox-export-of-a-long-name/calendar-with-a-long-file-name"
        report.inputs = (0..<2000).map {
            .init(file: "\(longPath)-\($0).ics", status: "failed", error: "\(longPath)-\($0).ics:12: error: input ends inside BEGIN:VEVENT")
        }
        report.warnings = (0..<100_000).map {
            .init(
                file: "\(longPath)-\($0 % 3000).ics", line: $0, location: nil, severity: "warning",
                message: "DTSTART: '2024013' is not a valid DATE-TIME; kept as text (item \($0))")
        }
        report.losses = (0..<40).map { f in
            .init(
                field: "field\(f)", count: 2500, places: (0..<20).map { "\(longPath).ics:\($0 * 31)" },
                message: "csv-outlook has no column for field\(f); left out")
        }
        let conflicts = (0..<100_000).map {
            ConversionReport.Choice(
                uid: "\(UUID().uuidString)@example.com", recurrenceID: "20240101T090000Z", kept: "\(longPath)-2.ics:\($0)",
                dropped: "\(longPath)-1.ics:\($0)", reason: "same SEQUENCE and LAST-MODIFIED but different content; the later input wins")
        }
        report.merge = .init(
            versionsRead: 200_000, distinctItems: 100_000, superseded: 50_000, identicalCopies: 50_000, conflicts: conflicts,
            supersededExamples: Array(conflicts.prefix(1000)))
        var output = ConversionReport.Output(path: "all.csv")
        for c in 0..<300 {
            var counts = ConversionReport.CalendarCounts(
                title: "Calendar number \(c) of a shared mailbox", kind: c % 7 == 0 ? "birthday" : "local", readOnly: c % 7 == 0)
            counts.events = 333
            for month in 0..<1200 where (month + c) % 3 != 0 { counts.eventsByMonth.add(year: 1930 + month / 12, month: month % 12 + 1) }
            output.calendars.append(counts)
        }
        report.outputs = [output]
        report.totals = .init(calendars: 300, events: 100_000, reminders: 0, timeZones: 40, otherComponents: 0, occurrences: 5000)
        var server = ConversionReport.Server(direction: "push", servers: ["https://dav.example.com/"])
        for c in 0..<300 {
            var calendar = ConversionReport.ServerCalendar(url: "/calendars/user/calendar-\(c)/", title: "Calendar number \(c)")
            calendar.skipped = 5000
            calendar.failed = 5000
            // The push keeps the first 20 examples of each outcome.
            calendar.examples = ["skipped", "failed", "created", "updated"].flatMap { outcome in
                (0..<20).map {
                    .init(
                        outcome: outcome, uid: "uid-\($0)@example.com", href: "/calendars/user/calendar-\(c)/uid-\($0).ics",
                        place: "\(longPath).ics:\($0)", winner: outcome == "skipped" ? "server" : nil, reason: "changed on both sides")
                }
            }
            server.calendars.append(calendar)
        }
        report.calDAV = server

        let page = Array(HTMLReport(report).render().utf8)
        print("page for a 100k-item worst case: \(page.count) bytes")
        XCTAssertLessThan(page.count, 2_000_000)
        let text = String(decoding: page, as: UTF8.self)
        // Summarized, not dropped: the counts of what is not listed are on the page.
        XCTAssertTrue(text.contains("The first 100 of 100\u{202F}000 messages"))
        XCTAssertTrue(text.contains("the first 50 of 100\u{202F}000"))
        XCTAssertTrue(text.contains("other calendars together"))
    }

    /// Per-month counts come from the stream: an event counts in its start's month, one
    /// with no start in none, and reminders and occurrences are counted apart.
    func testMonthsAreCountedByStartAsItemsStream() {
        var report = ConversionReport(dryRun: false, outputFormat: "ics")
        func event(_ y: Int, _ m: Int, occurrence: Bool = false) -> CalendarStreamElement {
            var e = Event()
            e.item.start = CalendarDateTime(
                date: CalendarDate(year: y, month: m, day: 28), time: TimeOfDay(hour: 23, minute: 30, second: 0),
                reference: .zone("Europe/Berlin"))
            if occurrence { e.item.recurrenceID = e.item.start }
            return .entry(.event(e), line: 1)
        }
        var birthdays = CalendarModel.Calendar(title: "Birthdays", kind: .birthday, allowsContentModifications: false)
        birthdays.color = "#FF2968"
        for element in [
            .beginCalendar(birthdays), event(2019, 1), event(2019, 1), event(2021, 12, occurrence: true), .entry(.event(Event()), line: 9),
            .entry(.reminder(Reminder()), line: 10), .endCalendar(trailingProperties: []),
        ] {
            report.count(element, output: "out.ics")
        }
        let c = report.outputs[0].calendars[0]
        XCTAssertEqual(c.kind, "birthday")
        XCTAssertTrue(c.readOnly)
        XCTAssertEqual(c.events, 4)
        XCTAssertEqual(c.occurrences, 1)
        XCTAssertEqual(
            c.eventsByMonth.months.map { "\(MonthlyCounts.label(year: $0.year, month: $0.month))=\($0.count)" }, ["2019-01=2", "2021-12=1"])
        XCTAssertEqual(report.totals.occurrences, 1)
    }
}
