import CalDAVClient
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Must show (issue 22): a push report shows created, updated, unchanged, skipped (with the
/// side that won each conflict) and failed per calendar. The report's `calDAV` data, filled by
/// a real push to Radicale, is what the HTML page renders: the page, read back from headless
/// Chromium's DOM, carries the figures of the JSON report of the same run (`--report` twice).
extension LiveCalDAVTests {
    func testPushReportPageShowsEachCalendarsOutcomeAsTheJSONReportOfTheSameRun() throws {
        let browser = try HeadlessChromium.find()
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        let files = try LiveArchive.write(items: 40, to: work.appendingPathComponent("archive")).map(\.path)
        let url = radicale.base + "/"

        // First run: every item is new.
        let first = try runner.calport(
            ["convert"] + files + ["-o", url, "--report", "push1.json", "--report", "push1.html", "-q"], environment: credentials)
        XCTAssertEqual(first.status, 0, first.stderr)
        let r1 = try report("push1.json")
        XCTAssertEqual(total(r1, \.created), 40)
        XCTAssertEqual(r1.calDAV?.direction, "push")
        try assertCalDAVPage("push1.html", shows: r1, server: url, browser: browser)

        // Item 4 newer on the server, item 8 newer locally (`makeConflicts`); item 12 deleted on the
        // server; in Home, two different events under one UID, which no resource can hold.
        try makeConflicts(url, files)
        let client = CalDAVClient(credentials: .password(user: Self.user, password: Self.password))
        let workCalendar = try XCTUnwrap(try client.discover(URL(string: url)!).calendars.first { $0.displayName == "Work" })
        XCTAssertTrue(try client.delete(workCalendar.url.appendingPathComponent(LiveArchive.uid(12) + ".ics")))
        var home = try String(contentsOfFile: files[1], encoding: .utf8)
        // Also an exact copy of a new event, read twice: sent once.
        let twice = [("twice", "Breakfast"), ("twice", "Brunch"), ("copied", "Lunch"), ("copied", "Lunch")].map {
            "BEGIN:VEVENT\r\nUID:\($0.0)@calport.test\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250301T080000Z\r\nSUMMARY:\($0.1)\r\nEND:VEVENT\r\n"
        }
        home = home.replacingOccurrences(of: "END:VCALENDAR\r\n", with: twice.joined() + "END:VCALENDAR\r\n")
        try Data(home.utf8).write(to: URL(fileURLWithPath: files[1]))

        // Second run, with the password in the URL this time: neither page nor report shows it.
        let withUserinfo = "http://\(Self.user):\(Self.password)@127.0.0.1:\(radicale.port)/"
        let second = try runner.calport(
            ["convert"] + files + ["-o", withUserinfo, "--report", "push2.json", "--report", "push2.html"],
            environment: ["XDG_STATE_HOME": work.appendingPathComponent("state").path])
        XCTAssertEqual(second.status, 65, "the item no resource can hold fails the run: \(second.stderr)")
        XCTAssertFalse(second.stderr.contains(Self.password) || second.stdout.contains(Self.password))
        let r2 = try report("push2.json")
        let calendars = try XCTUnwrap(r2.calDAV?.calendars)
        func figures(_ title: String) -> [Int] {
            guard let c = calendars.first(where: { $0.title == title }) else { return [] }
            return [c.created, c.updated, c.unchanged, c.skipped, c.serverWon, c.localWon, c.failed]
        }
        // created, updated, unchanged, skipped, server won, local won, failed
        XCTAssertEqual(figures("Work"), [1, 1, 7, 1, 1, 1, 0])
        XCTAssertEqual(figures("Home"), [1, 0, 10, 0, 0, 0, 1])
        XCTAssertEqual(figures("Team Café"), [0, 0, 10, 0, 0, 0, 0])
        XCTAssertEqual(figures("Travel"), [0, 0, 10, 0, 0, 0, 0])
        let workExamples = calendars.first { $0.title == "Work" }?.examples ?? []
        XCTAssertEqual(workExamples.first { $0.outcome == "skipped" }?.winner, "server")
        XCTAssertEqual(workExamples.first { $0.outcome == "updated" }?.winner, "local")
        XCTAssertEqual(r2.calDAV?.requests["PUT"], 3, "item 8, item 12 and the copied event, once")
        try assertCalDAVPage("push2.html", shows: r2, server: url, browser: browser)
        let reportText = try String(contentsOf: work.appendingPathComponent("push2.json"), encoding: .utf8)
        XCTAssertFalse(reportText.contains(Self.password), "the password in the JSON report")
    }

    /// The rendered page shows what the JSON report of the same run says, per server calendar
    /// and over all (a push's outcomes, or a pull's pulled, deleted and sync method), the server
    /// without userinfo, each listed example with its place (and the side that won), and no password.
    func assertCalDAVPage(
        _ name: String, shows json: ConversionReport, server: String, browser: HeadlessChromium, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let page = work.appendingPathComponent(name)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertFalse(html.contains(Self.password), "the password in \(name)", file: file, line: line)
        let shown = try browser.renderedPage(page)
        try browser.screenshot(of: page, name: "live-" + page.deletingPathExtension().lastPathComponent, height: 2400)
        let calendars = try XCTUnwrap(json.calDAV?.calendars, file: file, line: line)
        XCTAssertEqual(shown.calDAV.count, calendars.count, "server calendar rows", file: file, line: line)
        XCTAssertEqual(shown.figures["calDAV.server"]?.text, server, file: file, line: line)
        let pull = json.calDAV?.direction == "pull"
        let keys: [(String, KeyPath<ConversionReport.ServerCalendar, Int>)] =
            pull
            ? [("pulled", \.pulled), ("deleted", \.deleted)]
            : [
                ("created", \.created), ("updated", \.updated), ("unchanged", \.unchanged), ("skipped", \.skipped),
                ("serverWon", \.serverWon), ("localWon", \.localWon), ("failed", \.failed),
            ]
        for (i, c) in calendars.enumerated() {
            let row = try XCTUnwrap(shown.calDAV[String(i)], "calendar \(i) missing", file: file, line: line)
            XCTAssertEqual(row["title"]?.text, c.title, file: file, line: line)
            if pull { XCTAssertEqual(row["syncMethod"]?.text, c.syncMethod, file: file, line: line) }
            for (key, path) in keys {
                XCTAssertEqual(row[key]?.number, c[keyPath: path], "\(key) of \(c.title ?? "?")", file: file, line: line)
            }
        }
        for (key, path) in keys {
            XCTAssertEqual(
                shown.figures["calDAV." + key]?.number, calendars.reduce(0) { $0 + $1[keyPath: path] }, "all calendars' \(key)", file: file,
                line: line)
        }
        XCTAssertEqual(shown.figures["totals.calendars"]?.number, json.totals.calendars, file: file, line: line)
        XCTAssertEqual(shown.figures["totals.events"]?.number, json.totals.events, file: file, line: line)
        for example in calendars.flatMap(\.examples) where example.outcome != "created" {
            XCTAssertTrue(
                shown.text.contains(example.place ?? "?"), "\(example.outcome) \(example.uid) without its place", file: file, line: line)
            if let winner = example.winner {
                XCTAssertTrue(shown.text.contains("\(winner) won"), "no '\(winner) won' on the page", file: file, line: line)
            }
        }
        XCTAssertFalse(
            shown.text.contains(Self.password) || shown.text.contains("\(Self.user):"), "credentials on the page", file: file, line: line)
        XCTAssertEqual(shown.external, [], file: file, line: line)
    }
}
