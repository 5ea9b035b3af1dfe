import CalDAVClient
import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// calport against real CalDAV servers on 127.0.0.1: Radicale (with htpasswd authentication)
/// and Xandikos from the virtual environment `make deps` fills, and the fault proxy between
/// calport and Radicale. Every server is started per test with its own storage and stopped in
/// tearDown; every wait is bounded.
final class LiveCalDAVTests: XCTestCase {
    static let user = "alice"
    static let password = "Corr3ct-h0rse-battery"
    var work: URL!
    var servers: [LiveServer] = []
    var runner: CommandRunner!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        runner = CommandRunner(directory: work)
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    func start(_ kind: LiveServer.Kind, _ name: String) throws -> LiveServer {
        let server = try LiveServer(kind, folder: work.appendingPathComponent(name))
        servers.append(server)
        return server
    }

    var credentials: [String: String] {
        ["CALPORT_USERNAME": Self.user, "CALPORT_PASSWORD": Self.password, "XDG_STATE_HOME": work.appendingPathComponent("state").path]
    }

    func report(_ name: String) throws -> ConversionReport {
        try JSONDecoder().decode(ConversionReport.self, from: Data(contentsOf: work.appendingPathComponent(name)))
    }

    func total(_ r: ConversionReport, _ key: KeyPath<ConversionReport.ServerCalendar, Int>) -> Int {
        r.calDAV?.calendars.reduce(0) { $0 + $1[keyPath: key] } ?? 0
    }

    /// Every item on the server, read through calport's own pull: UID → the hrefs holding it.
    func serverItems(_ url: String, environment: [String: String]) throws -> (hrefs: [String: Set<String>], summaries: [String: String]) {
        let out = work.appendingPathComponent("pulled-\(UUID().uuidString).ics")
        let run = try runner.calport(["convert", url, "-o", out.path, "-q"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        var reader = StandardFormats.registry.format(id: "ics")!.makeReader(
            source: MemoryByteSource([UInt8](try Data(contentsOf: out))), options: ReadOptions(sourceName: out.path), log: DiagnosticLog())
        var hrefs: [String: Set<String>] = [:]
        var summaries: [String: String] = [:]
        while let element = try reader.next() {
            guard case .entry(let entry, _) = element, let item = entry.item, let uid = item.uid else { continue }
            if case .unknown(_, let href)? = item.properties.first(where: { $0.name == "X-CALDAV-HREF" })?.value {
                hrefs[uid, default: []].insert(href)
            }
            if item.recurrenceID == nil { summaries[uid] = item.title }
        }
        return (hrefs, summaries)
    }

    // MARK: - inspect URL

    /// `calport inspect URL` on a principal lists every calendar the push created with what the
    /// server says of it: name, type, colour, writability, item count and sync token.
    func testInspectListsEachCalendarWithItsNameColourItemsAndSyncToken() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        func calendar(_ name: String, color: String, events: Int) -> String {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//inspect//EN\r\nX-WR-CALNAME:\(name)\r\n"
            text += "X-APPLE-CALENDAR-COLOR:\(color)\r\n"
            for i in 0..<events {
                text += "BEGIN:VEVENT\r\nUID:\(name)-\(i)@calport.test\r\nDTSTAMP:20250101T000000Z\r\n"
                text += "DTSTART:202503\(String(format: "%02d", i + 1))T090000Z\r\nDURATION:PT1H\r\nSUMMARY:\(name) \(i)\r\nEND:VEVENT\r\n"
            }
            return text + "END:VCALENDAR\r\n"
        }
        let files = [("Garden", "#2E8B57", 3), ("Choir", "#8A2BE2", 5)].map { name, color, events in
            let file = work.appendingPathComponent("\(name).ics")
            try? Data(calendar(name, color: color, events: events).utf8).write(to: file)
            return file.path
        }
        let push = try runner.calport(["convert"] + files + ["-o", radicale.base + "/", "-q"], environment: credentials)
        XCTAssertEqual(push.status, 0, push.stderr)
        let inspect = try runner.calport(["inspect", radicale.base + "/"], environment: credentials)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        let listed = inspect.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }.map { $0.split(separator: " ", maxSplits: 1)[1] }
        XCTAssertEqual(Set(listed), ["Garden", "Choir"], inspect.stdout)
        for (name, color, events) in [("Garden", "#2E8B57", 3), ("Choir", "#8A2BE2", 5)] {
            let start = try XCTUnwrap(inspect.stdout.range(of: ". \(name)\n"), inspect.stdout)
            let block = inspect.stdout[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("   ") }
            let fields = Dictionary(block.map { line -> (String, String) in
                let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }, uniquingKeysWith: { a, _ in a })
            XCTAssertEqual(fields["type"], "calDAV (CalDAV)", name)
            XCTAssertEqual(fields["color"]?.uppercased().hasPrefix(color), true, "\(name): \(fields)")
            XCTAssertEqual(fields["allows modifications"], "yes", name)
            XCTAssertEqual(fields["items"], "\(events)", name)
            XCTAssertTrue(fields["sync token"]?.hasPrefix("http") ?? false, "Radicale has sync tokens: \(fields)")
            XCTAssertFalse(fields["url"]?.contains(Self.password) ?? true)
        }
        XCTAssertFalse(inspect.stdout.contains(Self.password) || inspect.stderr.contains(Self.password))
    }

    // MARK: - Must show: 2,000 items on each server exactly once, equal; the rerun writes nothing

    func pushTwoThousand(to url: String, environment: [String: String]) throws {
        let files = try LiveArchive.write(items: 2000, to: work.appendingPathComponent("archive")).map(\.path)
        let first = try runner.calport(
            ["convert"] + files + ["-o", url, "--verify", "--report", "first.json", "-q"], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        let r1 = try report("first.json")
        XCTAssertEqual(total(r1, \.created), 2000)
        XCTAssertEqual(r1.calDAV?.calendars.compactMap(\.title).sorted(), LiveArchive.calendars.sorted())
        XCTAssertEqual(r1.calDAV?.requests["PUT"], 2000, "one PUT per UID, overrides included")

        let (hrefs, summaries) = try serverItems(url, environment: environment)
        XCTAssertEqual(hrefs.count, 2000)
        XCTAssertTrue(hrefs.values.allSatisfy { $0.count == 1 }, "a UID under two names")
        XCTAssertEqual(summaries[LiveArchive.uid(30)], "Item 30 of calendar 2")

        try assertRerunWritesNothing(files, to: url, unchanged: 2000, environment: environment)
    }

    /// The same push again: every item unchanged, no PUT, no MKCALENDAR.
    func assertRerunWritesNothing(
        _ inputs: [String], to url: String, unchanged: Int, environment: [String: String], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let again = try runner.calport(["convert"] + inputs + ["-o", url, "--report", "again.json", "-q"], environment: environment)
        XCTAssertEqual(again.status, 0, again.stderr, file: file, line: line)
        let r = try report("again.json")
        XCTAssertEqual(total(r, \.unchanged), unchanged, file: file, line: line)
        XCTAssertEqual(total(r, \.created) + total(r, \.updated) + total(r, \.skipped) + total(r, \.failed), 0, file: file, line: line)
        XCTAssertNil(r.calDAV?.requests["PUT"], "the rerun wrote: \(r.calDAV?.requests ?? [:])", file: file, line: line)
        XCTAssertNil(r.calDAV?.requests["MKCALENDAR"], file: file, line: line)
    }

    /// Two conflicts in Work, after a push of `LiveArchive` to `url`: on the server, item 4 edited
    /// with SEQUENCE 3; locally (`files[0]`), item 4 edited with SEQUENCE 1 (older than the
    /// server's) and item 8 with SEQUENCE 2 (newer).
    func makeConflicts(_ url: String, _ files: [String]) throws {
        let client = CalDAVClient(credentials: .password(user: Self.user, password: Self.password))
        let workCalendar = try XCTUnwrap(try client.discover(URL(string: url)!).calendars.first { $0.displayName == "Work" })
        let resource4 = try XCTUnwrap(client.get(workCalendar.url.appendingPathComponent(LiveArchive.uid(4) + ".ics")))
        let edited = resource4.calendarData!.replacingOccurrences(of: "SUMMARY:Item 4 of calendar 0", with: "SUMMARY:Edited on the server")
            .replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:3")
        guard case .stored = try client.put(resource4.url, calendarData: Array(edited.utf8), ifMatch: resource4.etag) else {
            return XCTFail("server edit refused")
        }
        var text = try String(contentsOf: URL(fileURLWithPath: files[0]), encoding: .utf8)
        for (i, sequence) in [(4, 1), (8, 2)] {
            let original = LiveArchive.item(i, calendar: 0, sequence: 0).0
            let changed = original.replacingOccurrences(of: "SUMMARY:Item \(i) of calendar 0", with: "SUMMARY:Edited locally")
                .replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:\(sequence)")
            text = text.replacingOccurrences(of: original, with: changed)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: files[0]))
    }

    func testTwoThousandItemsPushedToRadicaleExactlyOnceAndTheRerunWritesNothing() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        try pushTwoThousand(to: radicale.base + "/", environment: credentials)
    }

    func testTwoThousandItemsPushedToXandikosExactlyOnceAndTheRerunWritesNothing() throws {
        let xandikos = try start(.xandikos, "xandikos")
        try pushTwoThousand(to: xandikos.base + "/", environment: ["XDG_STATE_HOME": work.appendingPathComponent("state").path])
    }

    // MARK: - Must show: through the fault proxy; killed at ~40% and resumed

    func testPushThroughFaultProxyKilledAndResumedEndsWithEveryItemOnce() throws {
        let radicale = try start(.radicale(users: [:]), "radicale")
        let proxy = try start(.faultProxy(upstream: radicale.port, arguments: ["--every", "6"]), "proxy")
        let items = 200
        let files = try LiveArchive.write(items: items, to: work.appendingPathComponent("archive")).map(\.path)
        let journal = work.appendingPathComponent("push.journal").path
        let arguments =
            ["convert"] + files + [
                "-o", proxy.base + "/alice/", "--calendar", "Migrated", "--journal", journal, "--retries", "8", "--retry-delay", "0.05",
                "--timeout", "10", "-j", "2", "-q",
            ]
        let environment = ["CALPORT_USERNAME": "alice", "CALPORT_PASSWORD": "unused"]

        // First run, killed once ~40% of the items are in the journal.
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = work
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(180)
        var done = 0
        while process.isRunning && Date() < deadline {
            done = ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").split(separator: "\n").count
            if done >= items * 4 / 10 { break }
            usleep(20_000)
        }
        XCTAssertTrue(process.isRunning, "the push ended before it could be killed (\(done) done)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertLessThan(done, items)

        // The same command again, through the same faults: it finishes and sends only the rest.
        let resumed = try runner.calport(arguments + ["--report", "resumed.json"], environment: environment)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let r = try report("resumed.json")
        XCTAssertGreaterThan(r.calDAV?.retries ?? 0, 0, "the proxy injected no fault")
        // A full run sends at least one PUT per item (more with retries); the resumed one only the rest.
        XCTAssertLessThan(r.calDAV?.requests["PUT"] ?? 0, items, "a resumed run sends fewer PUTs than a full run (≥ \(items))")
        XCTAssertEqual(total(r, \.created) + total(r, \.unchanged) + total(r, \.updated), items)
        XCTAssertEqual(total(r, \.failed), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "a complete push removes its journal")

        let (hrefs, _) = try serverItems(radicale.base + "/alice/", environment: environment)
        XCTAssertEqual(hrefs.count, items)
        XCTAssertTrue(hrefs.values.allSatisfy { $0.count == 1 })
        let log = try String(contentsOf: proxy.folder.appendingPathComponent("proxy.log"), encoding: .utf8)
        for fault in ["503", "429", "drop", "drop-after"] { XCTAssertTrue(log.contains(" \(fault)\n"), "no \(fault) injected") }
    }

    func testServerThatKeepsFailingEndsWithExit75AndKeepsTheJournal() throws {
        let radicale = try start(.radicale(users: [:]), "radicale")
        let files = try LiveArchive.write(items: 8, to: work.appendingPathComponent("archive")).map(\.path)
        let journal = work.appendingPathComponent("push.journal").path
        // Discovery directly, then the proxy answers 503 to everything: retries run out.
        let proxy = try start(.faultProxy(upstream: radicale.port, arguments: ["--always-503"]), "proxy")
        let run = try runner.calport(
            ["convert"] + files + ["-o", proxy.base + "/alice/", "--journal", journal, "--retries", "2", "--retry-delay", "0.05", "-q"],
            environment: ["CALPORT_USERNAME": "alice"])
        XCTAssertEqual(run.status, 75, run.stderr)
        XCTAssertTrue(run.stderr.contains("after 3 attempts"), run.stderr)
    }

    func testNothingListeningEndsWithExit69AfterBoundedRetries() throws {
        let port = try LiveServer.freePort()
        let started = Date()
        let run = try runner.calport(["inspect", "http://127.0.0.1:\(port)/", "--retries", "2"])
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("nothing is listening"), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    }

    // MARK: - Must show: wrong password → 77, the password nowhere

    func testWrongPasswordExits77AndThePasswordAppearsNowhere() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        let files = try LiveArchive.write(items: 4, to: work.appendingPathComponent("archive")).map(\.path)
        let wrong = "Wr0ng-Secret-4711"
        let run = try runner.calport(
            ["convert"] + files + ["-o", radicale.base + "/", "--report", "refused.json"],
            environment: ["CALPORT_USERNAME": Self.user, "CALPORT_PASSWORD": wrong])
        XCTAssertEqual(run.status, 77, run.stderr)
        XCTAssertTrue(run.stderr.contains(radicale.base), "the message names the URL: \(run.stderr)")
        let reportText = try String(contentsOf: work.appendingPathComponent("refused.json"), encoding: .utf8)
        for text in [run.stdout, run.stderr, reportText] { XCTAssertFalse(text.contains(wrong)) }

        // Userinfo in the URL: warned about, never shown.
        let inURL = "Pa55-in-the-URL"
        let userinfo = try runner.calport(["inspect", "http://\(Self.user):\(inURL)@127.0.0.1:\(radicale.port)/"])
        XCTAssertEqual(userinfo.status, 77, userinfo.stderr)
        XCTAssertTrue(userinfo.stderr.contains("visible to other users"), userinfo.stderr)
        XCTAssertFalse(userinfo.stderr.contains(inURL) || userinfo.stdout.contains(inURL))

        // The right password from ~/.netrc works.
        let home = work.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("machine 127.0.0.1 login \(Self.user) password \(Self.password)\n".utf8).write(to: home.appendingPathComponent(".netrc"))
        let netrc = try runner.calport(["inspect", radicale.base + "/"], environment: ["HOME": home.path])
        XCTAssertEqual(netrc.status, 0, netrc.stderr)
        XCTAssertFalse(netrc.stdout.contains(Self.password) || netrc.stderr.contains(Self.password))
    }

    // MARK: - Must show: conflicts

    func testConflictsKeepTheNewerAndSkipAndDryRunChangeNothing() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        let folder = work.appendingPathComponent("archive")
        let files = try LiveArchive.write(items: 40, to: folder).map(\.path)
        let url = radicale.base + "/"
        XCTAssertEqual(try runner.calport(["convert"] + files + ["-o", url, "-q"], environment: credentials).status, 0)

        try makeConflicts(url, files)
        let before = try serverItems(url, environment: credentials).summaries

        let skip = try runner.calport(
            ["convert"] + files + ["-o", url, "--on-conflict", "skip", "--report", "skip.json"], environment: credentials)
        XCTAssertEqual(skip.status, 0, skip.stderr)
        XCTAssertEqual(total(try report("skip.json"), \.skipped), 2)
        XCTAssertNil(try report("skip.json").calDAV?.requests["PUT"])
        let dry = try runner.calport(["convert"] + files + ["-o", url, "--dry-run"], environment: credentials)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("would-update \(LiveArchive.uid(8))"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("skipped \(LiveArchive.uid(4))"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("SEQUENCE 3 > 1"), dry.stdout)
        XCTAssertEqual(
            try serverItems(url, environment: credentials).summaries, before, "--on-conflict skip or --dry-run changed the server")

        let newer = try runner.calport(["convert"] + files + ["-o", url, "--report", "newer.json"], environment: credentials)
        XCTAssertEqual(newer.status, 0, newer.stderr)
        XCTAssertTrue(newer.stderr.contains("UID \(LiveArchive.uid(4)) skipped: the server's copy is newer (SEQUENCE 3 > 1)"), newer.stderr)
        let r = try report("newer.json")
        XCTAssertEqual(total(r, \.updated), 1)
        XCTAssertEqual(total(r, \.skipped), 1)
        XCTAssertEqual(r.calDAV?.requests["PUT"], 1)
        let after = try serverItems(url, environment: credentials).summaries
        XCTAssertEqual(after[LiveArchive.uid(4)], "Edited on the server")
        XCTAssertEqual(after[LiveArchive.uid(8)], "Edited locally")
    }

    // MARK: - Must show: pull with --state

    func testPullWithStateBringsTheVdirUpToDateBySyncCollectionThenByETags() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        let files = try LiveArchive.write(items: 60, to: work.appendingPathComponent("archive")).map(\.path)
        let url = radicale.base + "/"
        XCTAssertEqual(try runner.calport(["convert"] + files + ["-o", url, "-q"], environment: credentials).status, 0)
        let vdir = work.appendingPathComponent("vdir").path, state = work.appendingPathComponent("sync.state").path
        let pull = ["convert", url, "-o", vdir, "--layout", "vdir", "--state", state]
        let first = try runner.calport(pull + ["--report", "pull1.json"], environment: credentials)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try report("pull1.json").calDAV?.calendars.compactMap(\.syncMethod), ["full", "full", "full", "full"])
        try assertVdirEqualsServer(vdir, url)

        // On the server: an edit, a deletion and an addition.
        let client = CalDAVClient(credentials: .password(user: Self.user, password: Self.password))
        let workCalendar = try client.discover(URL(string: url)!).calendars.first { $0.displayName == "Work" }!
        func change(_ round: Int) throws {
            // Round 1 edits item 4 and deletes item 8, round 2 edits 12 and deletes 16 (all in Work).
            let edit = 8 * round - 4, remove = 8 * round
            let edited = try XCTUnwrap(client.get(workCalendar.url.appendingPathComponent(LiveArchive.uid(edit) + ".ics")))
            let text = edited.calendarData!.replacingOccurrences(of: "SUMMARY:Item \(edit) of calendar 0", with: "SUMMARY:Edited \(round)")
            _ = try client.put(edited.url, calendarData: Array(text.utf8), ifMatch: edited.etag)
            XCTAssertTrue(try client.delete(workCalendar.url.appendingPathComponent(LiveArchive.uid(remove) + ".ics")))
            let added =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:added-\(round)@calport.test\r\n"
                + "DTSTAMP:20250101T000000Z\r\nDTSTART:20250301T100000Z\r\nSUMMARY:Added \(round)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            _ = try client.put(workCalendar.url.appendingPathComponent("added-\(round).ics"), calendarData: Array(added.utf8), ifMatch: nil)
        }
        try change(1)
        let second = try runner.calport(pull + ["--report", "pull2.json", "--report", "pull2.html"], environment: credentials)
        XCTAssertEqual(second.status, 0, second.stderr)
        let r2 = try report("pull2.json")
        // The page of the same run shows each calendar's pulled, deleted and sync method.
        try assertCalDAVPage("pull2.html", shows: r2, server: url, browser: try HeadlessChromium.find())
        let work2 = try XCTUnwrap(r2.calDAV?.calendars.first { $0.title == "Work" })
        XCTAssertEqual(work2.syncMethod, "sync-collection")
        XCTAssertEqual(work2.pulled, 2)
        XCTAssertEqual(work2.deleted, 1)
        XCTAssertEqual(r2.calDAV?.calendars.filter { $0.title != "Work" }.map(\.pulled), [0, 0, 0])
        try assertVdirEqualsServer(vdir, url)

        // A token the server no longer knows: entity tags decide instead.
        var saved = try String(contentsOfFile: state, encoding: .utf8)
        saved = saved.replacingOccurrences(of: "http://radicale.org/ns/sync/", with: "http://radicale.org/ns/sync/0000")
        try Data(saved.utf8).write(to: URL(fileURLWithPath: state))
        try change(2)
        let third = try runner.calport(pull + ["--report", "pull3.json"], environment: credentials)
        XCTAssertEqual(third.status, 0, third.stderr)
        let work3 = try XCTUnwrap(try report("pull3.json").calDAV?.calendars.first { $0.title == "Work" })
        XCTAssertEqual(work3.syncMethod, "etag")
        XCTAssertEqual(work3.pulled, 2)
        XCTAssertEqual(work3.deleted, 1)
        try assertVdirEqualsServer(vdir, url)
    }

    /// Every vdir file is a server resource with the same UID and summary, and the other way round.
    func assertVdirEqualsServer(_ vdir: String, _ url: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, server) = try serverItems(url, environment: credentials)
        var local: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: vdir) where path.hasSuffix(".ics") {
            let text = try String(contentsOfFile: vdir + "/" + path, encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("END:VCALENDAR\r\n"), "\(path) does not end in CRLF", file: file, line: line)
            let lines = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
            let uid = lines.first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? "?"
            XCTAssertNil(local[uid], "\(uid) twice in the vdir", file: file, line: line)
            local[uid] = lines.first { $0.hasPrefix("SUMMARY:") }.map { String($0.dropFirst(8)) }
        }
        XCTAssertEqual(local, server, file: file, line: line)
    }
}
