import CalendarModel
import Conversion
import Foundation
import XCTest

/// The Graph writer completes its bodies on worker threads, and the Graph reader decodes a
/// collection's events on them, when they may (`--jobs` above 1). Whatever the threads, a
/// conversion gives the bytes, the diagnostics in their order and the error that one thread
/// gives, in both directions, for whole documents and for documents cut off or broken in the
/// middle.
final class ParallelGraphTests: ThreadCountTestCase {
    /// `ParallelXMLReadTests`' archive of `count` events (zoned times, attendees, alarms, weekly
    /// series with a moved occurrence) and a quarter as many more of what Graph treats apart:
    /// floating times (a reported loss), all-day events, X- properties (kept in the extended
    /// property), a rule Graph cannot hold (written as its occurrences).
    static func archive(_ count: Int) -> String {
        var extra = ""
        for i in 0..<count / 4 {
            let day = String(format: "202606%02d", 1 + i % 28)
            extra += "BEGIN:VEVENT\r\nUID:graph-\(i)@calport.test\r\nDTSTAMP:20260101T000000Z\r\n"
            switch i % 3 {
            case 0: extra += "DTSTART:\(day)T090000\r\nDTEND:\(day)T100000\r\n"
            case 1: extra += "DTSTART;VALUE=DATE:\(day)\r\nRRULE:FREQ=DAILY;COUNT=3;BYHOUR=9,15\r\n"
            default: extra += "DTSTART;VALUE=DATE:\(day)\r\n"
            }
            extra += "SUMMARY:Graph \(i) \"quoted\"\r\nX-CALPORT-TEST:value \(i)\r\nSTATUS:TENTATIVE\r\nEND:VEVENT\r\n"
        }
        let base = ParallelXMLReadTests.archive(count)
        return String(base.dropLast("END:VCALENDAR\r\n".count)) + extra + "END:VCALENDAR\r\n"
    }

    func archiveFile(events: Int) throws -> URL {
        let ics = directory.appendingPathComponent("archive.ics")
        try Data(Self.archive(events).utf8).write(to: ics)
        return ics
    }

    /// The archive as Graph JSON (one thread), with elements that warn put in front: a
    /// deletion, an unknown type, a master whose exceptions warn as they are read and as they
    /// are grouped (in that order, one exception after the other).
    func graphDocument(events: Int) throws -> String {
        let out = directory.appendingPathComponent("archive.graph.json")
        try Converter().run(
            ConversionRequest(inputs: [try archiveFile(events: events).path], output: out.path, outputFormat: "graph", jobs: 1),
            log: DiagnosticLog())
        let text = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\"value\":[\n"))
        let warning = """
            {"@removed":{"reason":"deleted"},"id":"gone-1"},
            {"type":"strange","subject":"odd","start":{"dateTime":"2026-05-01T09:00:00","timeZone":"UTC"}},
            {"type":"seriesMaster","id":"master-1","subject":"daily","start":{"dateTime":"2026-05-04T09:00:00","timeZone":"UTC"},
             "end":{"dateTime":"2026-05-04T10:00:00","timeZone":"UTC"},
             "recurrence":{"pattern":{"type":"daily","interval":1},"range":{"type":"numbered","startDate":"2026-05-04","numberOfOccurrences":5}},
             "exceptionOccurrences":[{"subject":"no time"},
              {"type":"stranger","subject":"moved","originalStart":"2026-05-05T09:00:00Z",
               "start":{"dateTime":"2026-05-05T11:00:00","timeZone":"UTC"},"end":{"dateTime":"2026-05-05T12:00:00","timeZone":"UTC"}}]},

            """
        return "{\"value\":[\n" + warning + text.dropFirst("{\"value\":[\n".count)
    }

    func testGraphWritesTheSameOnEveryThreadCount() throws {
        let ics = try archiveFile(events: 600)
        let plain = assertSameOnEveryThreadCount(ics, from: "ics", to: "graph")
        XCTAssertNil(plain.error)
        XCTAssertGreaterThan(plain.output?.count ?? 0, 4 * 65_536)
        XCTAssertTrue(plain.diagnostics.contains { $0.contains("floating time") })
        XCTAssertTrue(plain.diagnostics.contains { $0.contains("separate events") })
        let batch = assertSameOnEveryThreadCount(ics, from: "ics", to: "graph", settings: ["graph-batch": ""])
        XCTAssertNil(batch.error)
    }

    /// An archive that fails in its middle (components nested too deep) while body jobs wait
    /// on the writer's workers: the same error, after the same diagnostics, on every thread
    /// count, and no worker left behind.
    func testABrokenArchiveFailsAlikeWhileWritingGraph() throws {
        let text = ParallelGraphTests.archive(600)
        // Among the events Graph treats apart, after some with floating times (reported).
        let eventStart = text.range(of: "BEGIN:VEVENT\r\nUID:graph-120@")!.lowerBound
        let nested = String(repeating: "BEGIN:X-DEEP\r\n", count: 70)
        let broken = directory.appendingPathComponent("broken.ics")
        try Data((String(text[..<eventStart]) + nested + String(text[eventStart...])).utf8).write(to: broken)
        let outcome = assertSameOnEveryThreadCount(broken, from: "ics", to: "graph")
        XCTAssertNotNil(outcome.error)
        XCTAssertTrue(outcome.diagnostics.contains { $0.contains("floating time") })
    }

    func testGraphReadsTheSameOnEveryThreadCount() throws {
        let document = directory.appendingPathComponent("read.json")
        try Data(try graphDocument(events: 600).utf8).write(to: document)
        let one = assertSameOnEveryThreadCount(document, from: "graph", to: "ics")
        XCTAssertNil(one.error)
        XCTAssertTrue(one.diagnostics.contains { $0.contains("deletion reported") })
        XCTAssertTrue(one.diagnostics.contains { $0.contains("unknown event type") })
        let noTime = one.diagnostics.firstIndex { $0.contains("series master-1 has neither originalStart nor start") }
        let stranger = one.diagnostics.firstIndex { $0.contains("unknown event type \"stranger\"") }
        XCTAssertNotNil(noTime)
        XCTAssertLessThan(noTime ?? .max, stranger ?? -1)
        XCTAssertTrue(String(decoding: one.output ?? [], as: UTF8.self).contains("SUMMARY:moved"))
        XCTAssertTrue(String(decoding: one.output ?? [], as: UTF8.self).contains("X-CALPORT-TEST:value 149"))
    }

    /// A document cut off, or broken, in its middle: the same error after the same output.
    func testABrokenGraphDocumentFailsAlikeOnEveryThreadCount() throws {
        let text = try graphDocument(events: 300)
        let cut = directory.appendingPathComponent("cut.json")
        try Data(text.utf8.prefix(text.utf8.count * 3 / 5)).write(to: cut)
        XCTAssertNotNil(assertSameOnEveryThreadCount(cut, from: "graph", to: "ics").error)
        // A bad literal inside an event, and a separator missing between two events.
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        let eventStart = text[middle...].range(of: "\n{")!.upperBound
        for broken in ["\"isAllDay\":tru,", "]"] {
            let bad = directory.appendingPathComponent("bad.json")
            try Data((String(text[..<eventStart]) + broken + String(text[eventStart...])).utf8).write(to: bad)
            XCTAssertNotNil(assertSameOnEveryThreadCount(bad, from: "graph", to: "ics").error, broken)
        }
    }
}
