import CalendarModel
import Conversion
import Foundation
import JSCalendarFormat
import XCTest

/// The JSCalendar reader's streaming, shapes and errors.
final class JSCalendarReaderTests: XCTestCase {
    func read(_ text: String, strict: Bool = false, log: DiagnosticLog = DiagnosticLog()) throws -> [CalendarStreamElement] {
        var reader = JSCalendarFormat().makeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "t.json", strict: strict), log: log)
        var out: [CalendarStreamElement] = []
        while let e = try reader.next() { out.append(e) }
        return out
    }

    func testGroupEntriesStreamOneAtATime() throws {
        var text = #"{"@type":"Group","title":"Big","entries":["# + "\n"
        for i in 0..<4000 {
            text +=
                (i > 0 ? ",\n" : "")
                + #"{"@type":"Event","uid":"e\#(i)","title":"\#(String(repeating: "x", count: 100))","start":"2024-01-01T09:00:00","timeZone":"Europe/Berlin","duration":"PT1H"}"#
        }
        text += "\n]}\n"
        final class CountingSource: ByteSource {
            let inner: MemoryByteSource
            var consumed = 0
            init(_ b: [UInt8]) { inner = MemoryByteSource(b) }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                let n = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, 4096)]))
                consumed += n
                return n
            }
        }
        let bytes = Array(text.utf8)
        let source = CountingSource(bytes)
        var reader = JSCalendarFormat().makeReader(source: source, options: ReadOptions(sourceName: "big"), log: DiagnosticLog())
        guard case .beginCalendar(let c) = try reader.next(), case .entry(.event(let first), let line) = try reader.next() else {
            return XCTFail("expected a calendar and its first event")
        }
        XCTAssertEqual(c.title, "Big")
        XCTAssertEqual(first.uid, "e0")
        XCTAssertEqual(line, 2)
        XCTAssertGreaterThan(bytes.count, 500_000)
        XCTAssertLessThanOrEqual(source.consumed, 64 * 1024)
        var count = 1
        while let e = try reader.next() { if case .entry = e { count += 1 } }
        XCTAssertEqual(count, 4000)
    }

    /// A location's `coordinates` is a geo: URI (RFC 5870): "lat,lon" before any ";" parameters. Forms without two
    /// numbers there (a fuzzed "geo:" with nothing before ";" once trapped) give no GEO, never a crash.
    func testLocationCoordinatesGeoURIForms() throws {
        func geo(_ coordinates: String) throws -> GeoCoordinate? {
            let text =
                #"{"@type":"Event","uid":"e","start":"2024-01-01T09:00:00","locations":{"1":{"@type":"Location","name":"Here","coordinates":"#
                + "\"\(coordinates)\"}}}"
            let items = try read(text).compactMap { e -> CalendarItem? in
                if case .entry(let x, _) = e { return x.item } else { return nil }
            }
            XCTAssertEqual(items.count, 1, coordinates)
            XCTAssertEqual(items.first?.location, "Here", coordinates)
            return items.first?.geo
        }
        XCTAssertEqual(try geo("geo:48.198634,16.371648"), GeoCoordinate(latitude: 48.198634, longitude: 16.371648))
        XCTAssertEqual(try geo("GEO:-33.5,151.25;u=40"), GeoCoordinate(latitude: -33.5, longitude: 151.25))
        XCTAssertEqual(try geo("geo:1,2,30;crs=wgs84"), GeoCoordinate(latitude: 1, longitude: 2))
        for noGeo in ["geo:", "geo:;", "geo:;u=5", "geo:;1,2", "geo:1", "geo:1;2", "geo:a,b", "geo:,", "https://example.com/1,2"] {
            XCTAssertNil(try geo(noGeo), noGeo)
        }
    }

    /// Rule values outside RFC 5545's ranges were written into RRULEs no ICS reader takes (BYDAY=-9223372036854775808MO):
    /// they are data errors naming the rule, in the words of the RRULE text's own parser.
    func testRuleValuesOutOfRangeAreErrorsNamingTheRule() throws {
        let cases = [
            (#""byMonthDay":[9223372036854775807]"#, "BYMONTHDAY value 9223372036854775807 is out of range -31...31"),
            (#""byMonth":["999999999999999L"]"#, "BYMONTH value 999999999999999 is out of range 1...13"),
            (#""byDay":[{"@type":"NDay","day":"mo","nthOfPeriod":-54}]"#, "BYDAY ordinal value -54 is out of range -53...53"),
            (#""bySetPosition":[0],"byDay":[{"@type":"NDay","day":"mo"}]"#, "BYSETPOS value 0 is out of range -366...366"),
            (#""byHour":[24]"#, "BYHOUR value 24 is out of range 0...23"),
            (#""byYearDay":[367]"#, "BYYEARDAY value 367 is out of range -366...366"),
            (#""byWeekNo":[-54]"#, "BYWEEKNO value -54 is out of range -53...53"),
            (#""interval":0"#, "INTERVAL must be a positive integer"),
            (#""count":-1"#, "COUNT must be a positive integer"),
        ]
        for (members, message) in cases {
            let text =
                #"{"@type":"Event","uid":"e","start":"2024-01-01T09:00:00","recurrenceRules":[{"@type":"RecurrenceRule","frequency":"yearly","#
                + members + "}]}"
            XCTAssertThrowsError(try read(text), members) { error in
                XCTAssertEqual("\(error)", "t.json:1:/recurrenceRules/0: error: \(message)", members)
            }
        }
        XCTAssertEqual(
            try read(
                #"{"@type":"Event","uid":"e","start":"2024-01-01T09:00:00","recurrenceRules":[{"@type":"RecurrenceRule","frequency":"yearly","byYearDay":[-366],"byHour":[0],"bySecond":[60]}]}"#
            ).count, 3)
    }

    func testSeveralGroupsAndBareObjects() throws {
        let text = #"{"@type":"Group","title":"A","entries":[{"@type":"Task","uid":"t"}]}"# + "\n" + #"{"@type":"Event","uid":"e"}"#
        let elements = try read(text)
        XCTAssertEqual(elements.count, 6)
        let uids = elements.compactMap { e -> String? in if case .entry(let x, _) = e { return x.item?.uid } else { return nil } }
        XCTAssertEqual(uids, ["t", "e"])
        XCTAssertEqual(try read("[\(#"{"@type":"Event","uid":"e"}"#),\(#"{"@type":"Task","uid":"t"}"#)]").count, 6)
    }

    func testBadLocalDateTimeNamesItsPlace() {
        let text = "{\"@type\":\"Group\",\"entries\":[\n{\"@type\":\"Event\",\"start\":\"2024-02-30T09:00:00\"}\n]}"
        XCTAssertThrowsError(try read(text)) { error in
            XCTAssertEqual("\(error)", "t.json:2:/entries/start: error: '2024-02-30T09:00:00' is not a LocalDateTime (YYYY-MM-DDThh:mm:ss)")
        }
    }

    /// A duration of 10^17 days overflowed when the end was worked out (issue 21); it is no
    /// duration, as in ICS.
    func testDurationBeyondTheLimitIsNotADuration() {
        let text = #"{"@type":"Event","uid":"e","start":"2024-01-01T09:00:00","duration":"P99999999999999999D"}"#
        XCTAssertThrowsError(try read(text)) { error in
            XCTAssertEqual("\(error)", "t.json:1:/duration: error: 'P99999999999999999D' is not a duration")
        }
    }

    func testUnmappedMembersWarnLenientlyAndFailStrictly() throws {
        let text = #"{"@type":"Event","uid":"e","virtualLocations":{}}"#
        let log = DiagnosticLog()
        _ = try read(text, log: log)
        XCTAssertEqual(
            log.diagnostics.map(\.description),
            ["t.json:1:/virtualLocations: warning: JSCalendar member 'virtualLocations' has no iCalendar counterpart in calport; ignored"])
        XCTAssertThrowsError(try read(text, strict: true))
        // Vendor members are another program's business and pass without a word.
        let quiet = DiagnosticLog()
        _ = try read(#"{"@type":"Event","uid":"e","example.com:x":1}"#, log: quiet)
        XCTAssertEqual(quiet.diagnostics, [])
    }

    func testOverridePatchBecomesAnOccurrenceOfItsOwn() throws {
        let text =
            #"{"@type":"Event","uid":"r","title":"Weekly","start":"2024-01-01T09:00:00","timeZone":"Europe/Berlin","duration":"PT1H","recurrenceRules":[{"@type":"RecurrenceRule","frequency":"weekly"}],"recurrenceOverrides":{"2024-01-08T09:00:00":{"title":"Moved","start":"2024-01-08T11:00:00"},"2024-01-15T09:00:00":{"excluded":true},"2024-01-20T09:00:00":{}}}"#
        let events = try read(text).compactMap { e -> Event? in if case .entry(.event(let x), _) = e { return x } else { return nil } }
        XCTAssertEqual(events.count, 2)
        let berlin = TimeReference.zone("Europe/Berlin")
        func at(_ d: Int, _ h: Int) -> CalendarDateTime {
            CalendarDateTime(
                date: CalendarDate(year: 2024, month: 1, day: d), time: TimeOfDay(hour: h, minute: 0, second: 0), reference: berlin)
        }
        XCTAssertEqual(events[0].exceptionDates.flatMap(\.dates), [at(15, 9)])
        XCTAssertEqual(events[0].recurrenceDates.flatMap(\.dates), [at(20, 9)])
        XCTAssertEqual(events[1].recurrenceID, at(8, 9))
        XCTAssertEqual(events[1].start, at(8, 11))
        XCTAssertEqual(events[1].end, at(8, 12))
        XCTAssertEqual(events[1].title, "Moved")
        XCTAssertTrue(events[1].recurrenceRules.isEmpty)
    }
}
