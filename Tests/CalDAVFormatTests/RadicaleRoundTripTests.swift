import CalDAVFormat
import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A real CalDAV server: Radicale (installed by `make deps`) runs on 127.0.0.1 on a free port
/// with a throw-away storage folder and no authentication. A few hundred events are PUT to it
/// over plain HTTP, its REPORT and PROPFIND answers are converted with the calport binary,
/// and every event comes back with the same UID, instants, title, attendees and recurrence;
/// the subscribed collection comes back as a subscription calendar. The server is stopped in
/// tearDown, which runs whether the test passed or failed.
final class RadicaleRoundTripTests: XCTestCase {
    static let eventCount = 300
    var server: Process?
    var work: URL!

    override func tearDown() {
        if let server, server.isRunning {
            server.terminate()
            let deadline = Date().addingTimeInterval(5)
            while server.isRunning && Date() < deadline { usleep(50_000) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            server.waitUntilExit()
        }
        server = nil
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    /// A TCP port nobody listens on now: bind port 0 and read what the kernel chose.
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CalendarError(.io, file: "socket", "no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw CalendarError(.io, file: "socket", "bind failed") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the port.
    func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    func python(_ arguments: [String]) throws -> CalportProcess.Run {
        try CalportProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
    }

    func startRadicale() throws -> Int {
        let check = try python(["-c", "import radicale"])
        guard check.status == 0 else {
            throw CalendarError(.usage, file: "radicale", "Radicale is not installed: run `make deps` (python3 -m pip install radicale)")
        }
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "radicale", "--storage-filesystem-folder", work.appendingPathComponent("storage").path,
            "--auth-type", "none", "--rights-type", "owner_only", "--server-hosts", "127.0.0.1:\(port)", "--logging-level", "warning",
        ]
        let log = FileManager.default.createFile(atPath: work.appendingPathComponent("radicale.log").path, contents: nil)
        XCTAssertTrue(log)
        let handle = try FileHandle(forWritingTo: work.appendingPathComponent("radicale.log"))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        server = process
        let deadline = Date().addingTimeInterval(30)
        while !listening(port) {
            guard process.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: work.appendingPathComponent("radicale.log"), encoding: .utf8)) ?? ""
                throw CalendarError(.io, file: "radicale", "Radicale did not start on port \(port): \(text)")
            }
            usleep(100_000)
        }
        return port
    }

    /// What must survive for one event (a master or a moved occurrence).
    struct Essentials: Equatable, CustomStringConvertible {
        var uid: String?
        var recurrenceID: CalendarDateTime?
        var start: CalendarDateTime?
        var end: CalendarDateTime?
        var title: String?
        var attendees: [String]
        var organizer: String?
        var rules: [RecurrenceRule]
        var exceptions: [CalendarDateTime]

        var description: String { "\(uid ?? "-") \(recurrenceID.map { "\($0)" } ?? "") \(title ?? "")" }

        init(_ e: Event) {
            uid = e.uid
            recurrenceID = e.recurrenceID
            start = e.start
            end = e.effectiveEnd
            title = e.title
            organizer = e.organizer.map { "\($0)" }
            attendees = e.attendees.map { "\($0)" }
            rules = e.recurrenceRules
            exceptions = e.exceptionDates.flatMap(\.dates)
        }
    }

    func events(_ elements: [CalendarStreamElement]) -> [Event] {
        elements.compactMap { e in
            if case .entry(.event(let event), _) = e { return event }
            return nil
        }
    }

    func testEveryEventComesBackThroughCalport() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-radicale-\(UUID().uuidString)")
        let eventsFolder = work.appendingPathComponent("events"), answers = work.appendingPathComponent("answers")
        try FileManager.default.createDirectory(at: eventsFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: answers, withIntermediateDirectories: true)
        let generated = GeneratedEvents.make(count: Self.eventCount)
        for (name, ics) in generated { try Data(ics.utf8).write(to: eventsFolder.appendingPathComponent(name)) }

        let port = try startRadicale()
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Radicale/radicale_harness.py")
        let put = try python([harness.path, "--port", "\(port)", "--events", eventsFolder.path, "--out", answers.path])
        XCTAssertEqual(put.status, 0, put.stderr)
        XCTAssertEqual(put.stdout, "put \(Self.eventCount) events\n")

        // What was PUT, read by the library's ICS reader: the truth to compare with.
        var expected: [String: Essentials] = [:]
        var expectedHref: [String: String] = [:]
        for (name, ics) in generated {
            for event in events(try CalDAVTestSupport.read(Array(ics.utf8), format: "ics", name: name).elements) {
                let e = Essentials(event)
                expected[e.description] = e
                expectedHref[e.description] = "/alice/work/\(name)"
            }
        }
        XCTAssertGreaterThan(expected.count, Self.eventCount)

        // The REPORT answers through the calport binary, to ICS, read back.
        for (answer, count) in [
            ("report-calendar-query.xml", expected.count), ("report-sync-collection.xml", expected.count),
            ("report-calendar-multiget.xml", -1),
        ] {
            let run = try CalportProcess.run(
                ["convert", answers.appendingPathComponent(answer).path, "-t", "ics", "-o", "\(answer).ics"], in: work)
            XCTAssertEqual(run.status, 0, "\(answer): \(run.stderr)")
            let converted = try CalDAVTestSupport.read(
                try CalDAVTestSupport.bytes(work.appendingPathComponent("\(answer).ics")), format: "ics"
            ).elements
            let got = events(converted)
            if count >= 0 { XCTAssertEqual(got.count, count, answer) }
            var seen = Set<String>()
            for event in got {
                let e = Essentials(event)
                XCTAssertTrue(seen.insert(e.description).inserted, "\(answer): \(e) twice")
                guard let want = expected[e.description] else {
                    XCTFail("\(answer): \(e) was never PUT")
                    continue
                }
                XCTAssertEqual(e, want, answer)
                let href = event.properties.first { $0.name == CalDAVProperty.href }?.value
                XCTAssertEqual(href, .unknown(type: nil, literal: expectedHref[e.description]!), "\(answer): \(e)")
                XCTAssertNotNil(event.properties.first { $0.name == CalDAVProperty.etag }, "\(answer): \(e) has no etag")
            }
            if answer == "report-calendar-multiget.xml" {
                XCTAssertTrue(run.stderr.contains("/alice/work/missing.ics: HTTP/1.1 404 Not Found"), run.stderr)
                XCTAssertEqual(Set(got.compactMap(\.uid)).count, 25)
            }
            if answer == "report-sync-collection.xml" {
                let ics = try String(contentsOf: work.appendingPathComponent("\(answer).ics"), encoding: .utf8)
                XCTAssertTrue(ics.contains("X-CALDAV-SYNC-TOKEN:http://radicale.org/ns/sync/"), "no sync token")
            }
        }

        // PROPFIND on the home: calport inspect lists the calendar and the subscription.
        let propfind = answers.appendingPathComponent("propfind-home.xml").path
        let inspect = try CalportProcess.run(["inspect", propfind, "-f", "caldav"], in: work)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(
            inspect.stdout.contains("1. Work – Team Café\n   type: calDAV\n   color: #1BADF8FF\n   allows modifications: yes"),
            inspect.stdout)
        XCTAssertTrue(
            inspect.stdout.contains(
                "2. Holidays\n   type: subscription\n   color: #1C4587FF\n   allows modifications: no\n   subscription: webcal://www.example.org/holidays.ics"
            ), inspect.stdout)
        let home = CalDAVTestSupport.calendars(
            try CalDAVTestSupport.read(try CalDAVTestSupport.bytes(URL(fileURLWithPath: propfind))).elements)
        XCTAssertEqual(home.map(\.kind), [.calDAV, .subscription])
        XCTAssertEqual(home.first?.description, "Meetings & deadlines")
        XCTAssertEqual(home.first.flatMap { CalDAVTestSupport.literal($0, CalDAVProperty.order) }, "3")
        XCTAssertEqual(home.first.flatMap { CalDAVTestSupport.literal($0, CalDAVProperty.components) }, "VTODO,VEVENT,VJOURNAL")

        // The server's answer archived and read again: the same calendars.
        let query = try CalDAVTestSupport.read(try CalDAVTestSupport.bytes(answers.appendingPathComponent("report-calendar-query.xml")))
            .elements
        let archive = try CalDAVTestSupport.write(query, format: "caldav")
        XCTAssertEqual(
            CalDAVTestSupport.comparable(try CalDAVTestSupport.read(archive).elements, original: query),
            CalDAVTestSupport.withoutLines(query))
    }
}
