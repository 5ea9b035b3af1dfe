import CalendarModel
import ExchangeData
import Foundation
import ICSFormat
import ICalendarData
import JSONCoding
import XCTest

@testable import GraphFormat

/// An event with thousands of generic properties, expanded into occurrences that share them
/// (a make-mutate finding: 25,640 repeated X-MICROSOFT-DISALLOW-COUNTER lines, `--expand` over
/// a century, ran for minutes as Graph). The body check compares such a list in two parts and
/// remembers the second (`GraphBodyCompleter.kept`): the bodies must be the bytes one
/// comparison gives, and an occurrence must cost about what a short event costs.
final class GraphLongPropertyListTests: XCTestCase {
    let mapper = ICalendarMapper(vocabulary: ICalendarVocabulary.vocabulary(formatID: "graph"))
    let vocabulary = ExchangeVocabulary.graph

    /// The events of `lines` (VEVENT content lines), read as the ICS reader reads them.
    func events(_ lines: [String]) throws -> [Event] {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calport//tests//EN"] + lines + ["END:VCALENDAR", ""])
            .joined(separator: "\r\n")
        var reader = ICSReader.componentTreeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "long.ics"), log: DiagnosticLog())
        var events: [Event] = []
        while let e = try reader.next() {
            if case .entry(.other(let c), _) = e, case .event(let event) = mapper.entry(from: c) { events.append(event) }
        }
        return events
    }

    func completer(splittingAt many: Int) -> GraphBodyCompleter {
        var c = GraphBodyCompleter(file: "long.graph", vocabulary: vocabulary, mapper: mapper)
        c.manyProperties = many
        return c
    }

    /// `event`'s occurrences `count` weeks apart: copies sharing its generic properties' storage,
    /// as expansion makes them.
    func occurrences(of event: Event, count: Int) -> [Event] {
        (0..<count).map { week in
            var o = event
            o.start?.date = CalendarDate(daysSinceEpoch: event.start!.date.daysSinceEpoch + 7 * week)
            o.end?.date = CalendarDate(daysSinceEpoch: event.end!.date.daysSinceEpoch + 7 * week)
            return o
        }
    }

    func body(_ e: Event) -> JSONObject {
        GraphEventEncoder(vocabulary: vocabulary).body(e, recurrence: nil)
    }

    func testTwoPartCheckKeepsWhatOneComparisonKeeps() throws {
        let head = ["BEGIN:VEVENT", "UID:long@example.com", "DTSTAMP:20240101T000000Z", "DTSTART:20240101T090000Z",
                    "DTEND:20240101T100000Z", "SUMMARY:Weekly"]
        let cases: [(String, [String])] = [
            // Kept whole: the body says one of them.
            ("repeated", Array(repeating: "X-MICROSOFT-DISALLOW-COUNTER:TRUE", count: 300)),
            // Several names, one the body says as it was (kept by nothing), one it cannot say.
            ("mixed", ["X-MICROSOFT-DISALLOW-COUNTER:FALSE"] + (0..<300).map { "X-NOTE-\($0 % 7);X-P=\($0):v\"\\\\ \($0)" }),
            // A generic property named as a typed field: compared in one part.
            ("colliding", ["DTSTAMP:20240202T000000Z"] + Array(repeating: "X-A:1", count: 300)),
        ]
        for (name, extra) in cases {
            let event = try XCTUnwrap(try events(head + extra + ["END:VEVENT"]).first, name)
            XCTAssertGreaterThanOrEqual(event.properties.count, 300, name)
            let whole = completer(splittingAt: .max)
            let split = completer(splittingAt: 1)
            // The second and third occurrence find the list remembered.
            for (i, o) in occurrences(of: event, count: 3).enumerated() {
                let b = body(o)
                let expected = String(decoding: whole.single(b, original: o), as: UTF8.self)
                XCTAssertEqual(String(decoding: split.single(b, original: o), as: UTF8.self), expected, "\(name) #\(i)")
                XCTAssertTrue(expected.contains("singleValueExtendedProperties"), name)
            }
        }
    }

    func testFourHundredOccurrencesOfFourThousandPropertiesTakeSeconds() throws {
        let lines = ["BEGIN:VEVENT", "UID:long@example.com", "DTSTAMP:20240101T000000Z", "DTSTART:20240101T090000Z",
                     "DTEND:20240101T100000Z", "SUMMARY:Weekly"]
            + Array(repeating: "X-MICROSOFT-DISALLOW-COUNTER:TRUE", count: 4000) + ["END:VEVENT"]
        let event = try XCTUnwrap(try events(lines).first)
        let completer = GraphBodyCompleter(file: "long.graph", vocabulary: vocabulary, mapper: mapper)
        let encoder = GraphEventEncoder(vocabulary: vocabulary)
        var bytes = 0
        // Processor time, not wall time: the bound must not depend on the machine's load.
        let started = clock()
        for o in occurrences(of: event, count: 400) {
            bytes += completer.single(encoder.body(o, recurrence: nil), original: o).count
        }
        let seconds = Double(clock() - started) / Double(CLOCKS_PER_SEC)
        XCTAssertGreaterThan(bytes, 400 * 4000 * 50)
        // Before, each occurrence looked its names up through, compared and rendered its 4,000
        // properties: 1.6 million jCal properties rendered and escaped (tens of seconds in a
        // debug build); now the list is compared and rendered once and each body copies it.
        XCTAssertLessThan(seconds, 10, "400 occurrences of 4,000 properties took \(seconds) s")
    }
}
