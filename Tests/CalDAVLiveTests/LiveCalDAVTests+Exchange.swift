import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Must show (issue 17): EWS and Graph documents push straight to a server
/// (`calport convert mailbox.xml -o URL`, no `-f`), to Radicale and to Xandikos: every item is
/// on the server once, with the occurrences a local conversion to ICS gives, and a second push
/// writes nothing.
extension LiveCalDAVTests {
    /// The Exchange documents pushed: the samples, an EWS series whose zone is a
    /// TimeZoneDefinition without a Windows id (a VTIMEZONE built from Exchange's rules), and a
    /// PowerShell Graph export with a conference link and a room (CONFERENCE;VALUE=URI,
    /// VLOCATION), whose VALUE parameter calport's ICS reader drops on reading it back.
    static var exchangeDocuments: [String] {
        let root = LiveServer.repository
        return [
            "samples/exchange-mailbox.xml", "samples/graph-events.json",
            "Tests/EWSFormatTests/Fixtures/valid/unknown-zone-id-timezonedefinition-builds-vtimezone.xml",
            "Tests/GraphFormatTests/Fixtures/powershell-pascalcase-additionalproperties.json",
        ].map { root.appendingPathComponent($0).path }
    }

    func pushExchangeDocuments(to url: String, environment: [String: String]) throws {
        let documents = Self.exchangeDocuments
        let first = try runner.calport(
            ["convert"] + documents + ["-o", url, "--verify", "--report", "exchange1.json", "-q"], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        let r1 = try report("exchange1.json")
        XCTAssertEqual(r1.calDAV?.calendars.count, documents.count, "one calendar per document")
        XCTAssertEqual(total(r1, \.failed) + total(r1, \.skipped), 0)

        // What a local conversion of the same documents holds, and what the server holds.
        let local = work.appendingPathComponent("local.ics").path
        let converted = try runner.calport(["convert"] + documents + ["-o", local, "-q"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let pulled = work.appendingPathComponent("pulled.ics").path
        XCTAssertEqual(
            try runner.calport(["convert", url, "-o", pulled, "--report", "pulled.json", "-q"], environment: environment).status, 0)
        let (hrefs, _) = try serverItems(url, environment: environment)
        let localComponents = try components(of: local)
        let uids = Set(localComponents.map(\.uid))
        XCTAssertFalse(uids.contains(""), "a local item without UID")
        XCTAssertEqual(total(r1, \.created), uids.count, "one resource per UID")
        let pullReport = try report("pulled.json")
        XCTAssertEqual(pullReport.calDAV?.direction, "pull")
        XCTAssertEqual(total(pullReport, \.pulled), uids.count, "resources pulled")
        XCTAssertEqual(Set(hrefs.keys), uids, "the UIDs on the server")
        XCTAssertTrue(hrefs.values.allSatisfy { $0.count == 1 }, "a UID under two names: \(hrefs.filter { $0.value.count > 1 })")
        // Series and their overrides: the same (UID, RECURRENCE-ID) pairs, each with the same start instant.
        XCTAssertEqual(try components(of: pulled).map(\.key).sorted(), localComponents.map(\.key).sorted())
        // Every occurrence: the same start instants.
        let expected = try components(of: local, expanded: true).map(\.key).sorted()
        XCTAssertGreaterThan(expected.count, localComponents.count, "the series expanded")
        XCTAssertEqual(try components(of: pulled, expanded: true).map(\.key).sorted(), expected)

        // The same push again writes nothing.
        try assertRerunWritesNothing(documents, to: url, unchanged: uids.count, environment: environment)
    }

    func testEWSAndGraphDocumentsPushedToRadicaleOnceWithTheirOccurrencesAndTheRerunWritesNothing() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        try pushExchangeDocuments(to: radicale.base + "/", environment: credentials)
    }

    func testEWSAndGraphDocumentsPushedToXandikosOnceWithTheirOccurrencesAndTheRerunWritesNothing() throws {
        let xandikos = try start(.xandikos, "xandikos")
        try pushExchangeDocuments(to: xandikos.base + "/", environment: ["XDG_STATE_HOME": work.appendingPathComponent("state").path])
    }

    /// An EWS CreateItem request carries no UID: the push names the item by a UID made from its
    /// content (and says so), so the rerun finds it and writes nothing.
    func testAnEWSRequestWithoutUIDIsPushedUnderAUIDFromItsContentAndTheRerunWritesNothing() throws {
        let radicale = try start(.radicale(users: [Self.user: Self.password]), "radicale")
        let request = LiveServer.repository.appendingPathComponent(
            "Tests/EWSFormatTests/Fixtures/valid/createitem-request-timezonecontext-msdocs.xml")
        let url = radicale.base + "/"
        let first = try runner.calport(["convert", request.path, "-o", url, "--report", "request1.json"], environment: credentials)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("the item has no UID; it is pushed as UID calport-"), first.stderr)
        XCTAssertEqual(total(try report("request1.json"), \.created), 1)
        try assertRerunWritesNothing([request.path], to: url, unchanged: 1, environment: credentials)
    }

    /// One component of an iCalendar file: its UID, and "UID RECURRENCE-ID DTSTART" with every
    /// time in UTC, so files that write one instant in different zones compare equal.
    struct ComponentKey: Hashable {
        var uid: String
        var key: String
    }

    /// The events and to-dos of an .ics file after calport moved every time to UTC (`--tz utc`,
    /// through the zones the file itself defines), each occurrence apart when `expanded`.
    func components(of path: String, expanded: Bool = false) throws -> [ComponentKey] {
        let utc = work.appendingPathComponent("utc-\(UUID().uuidString).ics")
        let run = try runner.calport(["convert", path, "--tz", "utc", "-o", utc.path, "-q"] + (expanded ? ["--expand"] : []))
        XCTAssertEqual(run.status, 0, run.stderr)
        var reader = StandardFormats.registry.format(id: "ics")!.makeReader(
            source: MemoryByteSource([UInt8](try Data(contentsOf: utc))), options: ReadOptions(sourceName: utc.path), log: DiagnosticLog())
        var out: [ComponentKey] = []
        while let element = try reader.next() {
            guard case .entry(let entry, _) = element, let item = entry.item else { continue }
            let uid = item.uid ?? ""
            out.append(ComponentKey(uid: uid, key: "\(uid) \(Self.text(item.recurrenceID)) \(Self.text(item.start))"))
        }
        return out
    }

    static func text(_ d: CalendarDateTime?) -> String {
        guard let d else { return "-" }
        let date = String(format: "%04d-%02d-%02d", d.date.year, d.date.month, d.date.day)
        guard let t = d.time else { return date }
        let utc: String
        if case .utc = d.reference { utc = "Z" } else { utc = " (\(d.reference))" }
        return date + String(format: "T%02d:%02d:%02d", t.hour, t.minute, t.second) + utc
    }
}
