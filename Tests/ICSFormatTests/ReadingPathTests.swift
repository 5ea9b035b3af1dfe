import CalendarModel
import Conversion
@testable import ICSFormat
import ICalendarData
import XCTest

/// The reader's fast paths (memchr line ends, bytes-level values, table lookups by bytes) and
/// the slower general paths they hand the unusual cases to must read the same things.
final class ReadingPathTests: XCTestCase {
    /// Each line ending, lower-case names, values that take the general path (signed and
    /// zero-padded integers, empty list items, escapes, carets, a long X- name).
    static let lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//edge//EN", "BEGIN:VEVENT", "uid:lower-case-name", "dtstart:20240101",
        "SUMMARY;LANGUAGE=de:Café \\, Bar\\; \\N und\\\\ \\x", "DESCRIPTION:folded with a ", "\tab and a", "  space\\",
        "CATEGORIES:a\\,b,c\\\\,,d\\", "PRIORITY:+5", "SEQUENCE:007", "X-NUM;VALUE=INTEGER:-3", "EXDATE:20240102,,20240103",
        "RDATE;VALUE=DATE-TIME:20240106T100000,20240107T100000Z",
        "ATTENDEE;CN=\"Doe, ^'J^'^n\";RSVP=true;X-Y=\"a^^b^c\":mailto:j@example.com",
        "X-VERY-LONG-PROPERTY-NAME-HERE;x-param=v:value", "END:VEVENT", "BEGIN:VTIMEZONE", "TZID:X", "BEGIN:STANDARD",
        "DTSTART:19700101T000000", "TZOFFSETFROM:+0530", "TZOFFSETTO:-053015", "TZOFFSETTO:+05a0", "END:STANDARD", "END:VTIMEZONE",
        "END:VCALENDAR",
    ]

    /// Hands out a few bytes per read, so lines, terminators and folds straddle buffer refills.
    final class TrickleByteSource: ByteSource {
        let bytes: [UInt8]
        var offset = 0
        var step = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            step += 1
            let n = min(bytes.count - offset, buffer.count, 1 + step % 5)
            for i in 0..<n { buffer[i] = bytes[offset + i] }
            offset += n
            return n
        }
    }

    func read(_ source: ByteSource) throws -> (elements: [CalendarStreamElement], warnings: [String]) {
        let log = DiagnosticLog()
        var reader = ICSReader(source: source, options: ReadOptions(sourceName: "edge.ics"), log: log)
        var elements: [CalendarStreamElement] = []
        while let e = try reader.next() { elements.append(e) }
        return (elements, log.diagnostics.map { "\($0.line ?? 0): \($0.message)" })
    }

    /// The reader maps VEVENT and VTODO property by property as it decodes them
    /// (`ICalendarMapper.ItemBuilder`); that must give what mapping the whole component tree
    /// gives (the path jCal and xCal take), sub-components, repeats and leftovers included.
    func testStreamedEntriesEqualMappedComponentTrees() throws {
        let text = (Self.lines.dropLast() + [
            "BEGIN:VEVENT", "UID:e2", "DTSTART:20240101T100000Z", "DTEND:20240101T110000Z", "DTEND:20240101T120000Z",
            "DURATION:PT1H", "TRANSP:TRANSPARENT", "DUE:20240102", "RECURRENCE-ID;RANGE=THISANDFUTURE:20240101T100000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT5M", "END:VALARM", "BEGIN:X-CHILD", "X-A:1", "END:X-CHILD",
            "END:VEVENT", "BEGIN:VTODO", "UID:t1", "DUE:20240105", "COMPLETED:20240104T090000Z", "PERCENT-COMPLETE:40",
            "PERCENT-COMPLETE:50", "DTEND:20240106", "TRANSP:OPAQUE", "ORGANIZER;CN=O:mailto:o@example.com", "END:VTODO",
            "BEGIN:VJOURNAL", "UID:j1", "END:VJOURNAL", "END:VCALENDAR",
        ]).joined(separator: "\r\n")
        let streamed = try read(MemoryByteSource(Array(text.utf8)))
        let log = DiagnosticLog()
        var trees = ICSReader.componentTreeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: "edge.ics"), log: log)
        var mapped: [CalendarEntry] = []
        while let e = try trees.next() {
            if case .entry(.other(let component), _) = e { mapped.append(ICalendarMapper().entry(from: component)) }
        }
        let entries = streamed.elements.compactMap { e -> CalendarEntry? in
            if case .entry(let entry, _) = e { return entry }
            return nil
        }
        XCTAssertEqual(entries.count, 5)
        XCTAssertEqual(entries, mapped)
    }

    /// The reader decodes single TEXT, DATE-TIME and INTEGER values of an item straight into its
    /// fields (`PropertyDecoder.scalar(from:)`, `ItemBuilder.add(_:name:parameters:id:)`); values
    /// that field is not free for, that have the wrong type or do not read cleanly take the
    /// general path. Both must give what decoding every property and mapping the tree gives, with
    /// the same warnings, and the same error under `--strict`.
    func testValuesDecodedIntoFieldsEqualDecodedProperties() throws {
        let lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:a\\,b\\nc\\", "SUMMARY:one", "SUMMARY:two",
            "DTSTART:20240101", "DTEND;TZID=Europe/Berlin:20240102", "DTSTAMP:20240101", "CREATED;TZID=A;TZID=B:20240101T100000",
            "LAST-MODIFIED;TZID=Europe/Berlin:20240101T100000Z", "SEQUENCE:+3", "PRIORITY:007", "PRIORITY:1", "STATUS:confirmed",
            "CLASS:private", "TRANSP:OPAQUE", "DUE:20240101T100000", "COMPLETED:20240101T100000", "PERCENT-COMPLETE:5",
            "DTSTART;VALUE=DATE:20240101T100000", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20240101T100000",
            "LOCATION;LANGUAGE=de:Bü\\;ro", "DESCRIPTION;ALTREP=\"cid:x\":d", "END:VEVENT", "BEGIN:VTODO", "UID:t",
            "DTSTAMP:2024011", "DTSTART;TZID=X:20240101T100000", "DUE;TZID=X:20240101T100000", "DUE:20240202",
            "COMPLETED:20240101", "PERCENT-COMPLETE:50", "PERCENT-COMPLETE:x", "TRANSP:OPAQUE", "DTEND:20240101T100000",
            "SEQUENCE:1", "SEQUENCE:2", "CREATED:2024-01-01", "LAST-MODIFIED:20241301T000000Z", "END:VTODO", "END:VCALENDAR",
        ]
        let bytes = Array(lines.joined(separator: "\r\n").utf8)
        func trees(strict: Bool) throws -> (entries: [CalendarEntry], warnings: [String]) {
            let log = DiagnosticLog()
            var reader = ICSReader.componentTreeReader(
                source: MemoryByteSource(bytes), options: ReadOptions(sourceName: "edge.ics", strict: strict), log: log)
            var entries: [CalendarEntry] = []
            while let e = try reader.next() {
                if case .entry(.other(let component), _) = e { entries.append(ICalendarMapper().entry(from: component)) }
            }
            return (entries, log.diagnostics.map { "\($0.line ?? 0): \($0.message)" })
        }
        let streamed = try read(MemoryByteSource(bytes))
        let mapped = try trees(strict: false)
        let entries = streamed.elements.compactMap { e -> CalendarEntry? in
            if case .entry(let entry, _) = e { return entry }
            return nil
        }
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries, mapped.entries)
        XCTAssertEqual(streamed.warnings, mapped.warnings)
        XCTAssertEqual(streamed.warnings.count, 9)
        guard case .event(let event) = entries[0], case .reminder(let todo) = entries[1] else { return XCTFail("not an event and a to-do") }
        XCTAssertEqual(event.item.uid, "a,b\nc\\")
        XCTAssertEqual(event.end, .day(2024, 1, 2))
        XCTAssertEqual(event.item.propertyParameters["DTEND"], [Parameter("TZID", "Europe/Berlin")])
        XCTAssertEqual(event.item.created?.reference, .floating)
        XCTAssertEqual(event.item.sequence, 3)
        XCTAssertEqual(event.item.status, .confirmed)
        XCTAssertEqual(event.item.recurrenceAppliesToFuture, true)
        XCTAssertEqual(todo.item.start?.reference, .zone("X"))
        XCTAssertEqual(todo.percentComplete, 50)
        XCTAssertEqual(todo.item.sequence, 1)
        func strictError(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        let log = DiagnosticLog()
        var strict = ICSReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: "edge.ics", strict: true), log: log)
        let streamedError = strictError { while try strict.next() != nil {} }
        XCTAssertEqual(streamedError, strictError { _ = try trees(strict: true) })
        XCTAssertTrue(streamedError.contains("PRIORITY"), streamedError)
    }

    /// `ValueCodec.plainRecurrence` reads the rules writers emit from the bytes and declines
    /// the rest; what it reads must equal what `RecurrenceRule(rfc5545:)` reads, and what it
    /// declines must still read (or fail) as the general parser says.
    func testPlainRecurrenceRulesReadAsTheGeneralParserReadsThem() throws {
        let plain = [
            "FREQ=MONTHLY;BYMONTHDAY=28", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR;WKST=SU", "FREQ=DAILY;COUNT=10",
            "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;BYDAY=+2SU;BYMONTH=13", "FREQ=DAILY;UNTIL=20241128T225959Z;",
            ";FREQ=HOURLY;BYHOUR=0,23;BYMINUTE=0,59;BYSECOND=0,60", "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,FR;BYMONTHDAY=+5,-31",
            "FREQ=YEARLY;BYYEARDAY=1,-366;BYWEEKNO=53,-1", "FREQ=SECONDLY", "FREQ=MINUTELY;UNTIL=20240101", "BYDAY=05TH;FREQ=MONTHLY",
        ]
        for text in plain {
            let fast = try XCTUnwrap(ValueCodec.plainRecurrence(text), text)
            XCTAssertEqual(fast, try RecurrenceRule(rfc5545: text), text)
        }
        let general = [
            "freq=daily", "FREQ=daily", "FREQ=WEEKLY;BYDAY=mo", "FREQ=WEEKLY;WKST=mo", "FREQ=DAILY; COUNT=3", "FREQ=DAILY;COUNT=+3",
            "FREQ=DAILY;INTERVAL=+2", "FREQ=YEARLY;BYMONTH=5L", "FREQ=DAILY;X-NAME=1", "FREQ=YEARLY;RSCALE=GREGORIAN;SKIP=FORWARD",
            "FREQ=DAILY;FREQ=WEEKLY", "FREQ=DAILY;COUNT=2;UNTIL=20240101", "FREQ=DAILY;UNTIL=20240101;COUNT=2", "COUNT=2",
            "FREQ=DAILY;COUNT", "FREQ=DAILY;COUNT=0", "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=MONTHLY;BYMONTHDAY=32",
            "FREQ=MONTHLY;BYMONTHDAY=1,,2", "FREQ=WEEKLY;BYDAY=MO,", "FREQ=MONTHLY;BYDAY=0MO", "FREQ=MONTHLY;BYDAY=+-1MO",
            "FREQ=MONTHLY;BYDAY=54MO", "FREQ=YEARLY;BYMONTH=0", "FREQ=DAILY;UNTIL=2024", "FREQ=DAILY;BYHOUR=1234567",
            "FREQ=DAILY=1", "FREQ=WEEKLY;BYDAY=MO\u{301}", "FREQ=DAILY;é=1",
        ]
        for text in general {
            XCTAssertNil(ValueCodec.plainRecurrence(text), text)
            let expected: PropertyValue
            do { expected = .recurrence(try RecurrenceRule(rfc5545: text)) } catch {
                XCTAssertThrowsError(try ValueCodec.parse(text, as: .recur, list: false), text)
                continue
            }
            XCTAssertEqual(try ValueCodec.parse(text, as: .recur, list: false), expected, text)
        }
    }

    func testEveryLineEndingAndEveryBufferSplitReadsTheSame() throws {
        let crlf = try read(MemoryByteSource(Array(Self.lines.joined(separator: "\r\n").utf8) + [13, 10]))
        for ending in ["\n", "\r"] {
            let other = try read(MemoryByteSource(Array(Self.lines.joined(separator: ending).utf8)))
            XCTAssertEqual(other.elements, crlf.elements, "line ending \(ending.unicodeScalars.first!.value)")
            XCTAssertEqual(other.warnings, crlf.warnings)
        }
        var mixed: [UInt8] = []
        for (i, line) in Self.lines.enumerated() { mixed += Array(line.utf8) + [[13, 10], [10], [13]][i % 3] }
        for source: ByteSource in [MemoryByteSource(mixed), TrickleByteSource(mixed)] {
            let other = try read(source)
            XCTAssertEqual(other.elements, crlf.elements)
            XCTAssertEqual(other.warnings, crlf.warnings)
        }
    }

    /// The lexer hands out a line where it stands in its buffer and looks ahead for a following
    /// line without ':' to join: lines longer than the buffer, joins across blank lines and a
    /// line whose ':' is only in its continuation (read whole, then handed out next) must read
    /// the same however the input arrives.
    func testJoinsAndLongLinesReadTheSameAcrossBufferRefills() throws {
        let long = String(repeating: "x", count: 70_000)
        let text = [
            "BEGIN:VCALENDAR", "PRODID:p", "BEGIN:VEVENT", "UID:a", "DESCRIPTION:one", "two", "", "three", "SUMMARY:" + long,
            "tail", "LOCATION", " :here", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let bytes = Array(text.utf8)
        let expectedWarnings = [
            "6: line has no ':'; joined to the line 5 above it (folding without a leading space)",
            "8: line has no ':'; joined to the line 5 above it (folding without a leading space)",
            "10: line has no ':'; joined to the line 9 above it (folding without a leading space)",
        ]
        for source: ByteSource in [MemoryByteSource(bytes), TrickleByteSource(bytes)] {
            let result = try read(source)
            XCTAssertEqual(result.warnings, expectedWarnings)
            guard case .entry(.event(let event), _) = result.elements[1] else { return XCTFail("no event") }
            XCTAssertEqual(event.item.notes, "onetwothree")
            XCTAssertEqual(event.item.title, long + "tail")
            XCTAssertEqual(event.item.location, "here")
        }
    }

    func testValuesOffTheFastPathsReadAsBefore() throws {
        let result = try read(MemoryByteSource(Array(Self.lines.joined(separator: "\r\n").utf8)))
        XCTAssertEqual(
            result.warnings,
            [
                "6: DTSTART holds a DATE without VALUE=DATE; read as a date",
                "13: SEQUENCE: '007' is not an integer; kept as text",
                "15: EXDATE holds a DATE without VALUE=DATE; read as a date",
                "15: EXDATE: '' is not a valid DATE; kept as text",
                "26: TZOFFSETTO: '+05a0' is not a valid UTC-OFFSET; kept as text",
            ])
        guard case .entry(.event(let event), _) = result.elements[1] else { return XCTFail("no event") }
        XCTAssertEqual(event.item.uid, "lower-case-name")
        XCTAssertEqual(event.item.start, .day(2024, 1, 1))
        XCTAssertEqual(event.item.title, "Café , Bar; \n und\\ \\x")
        XCTAssertEqual(event.item.notes, "folded with a ab and a space\\")
        XCTAssertEqual(event.item.categories, [["a,b", "c\\", "", "d\\"]])
        XCTAssertEqual(event.item.priority, 5)
        XCTAssertEqual(event.item.recurrenceDates.first?.dates.map(\.basicISO), ["20240106T100000", "20240107T100000Z"])
        let attendee = try XCTUnwrap(event.item.attendees.first)
        XCTAssertEqual(attendee.name, "Doe, \"J\"\n")
        XCTAssertEqual(attendee.expectsReply, true)
        XCTAssertEqual(attendee.extraParameters, [Parameter("X-Y", "a^b^c")])
        let rest = Dictionary(event.item.properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(rest["SEQUENCE"]?.value, .unknown(type: nil, literal: "007"))
        XCTAssertEqual(rest["X-NUM"]?.value, .integer([-3]))
        XCTAssertEqual(rest["EXDATE"]?.value, .unknown(type: nil, literal: "20240102,,20240103"))
        XCTAssertEqual(
            rest["X-VERY-LONG-PROPERTY-NAME-HERE"],
            Property(
                name: "X-VERY-LONG-PROPERTY-NAME-HERE", parameters: [Parameter("X-PARAM", "v")],
                value: .unknown(type: nil, literal: "value")))
        guard case .entry(.timeZone(let zone), _) = result.elements[2] else { return XCTFail("no zone") }
        XCTAssertEqual(
            zone.components[0].properties.map(\.value).suffix(3),
            [
                .utcOffset(19_800), .utcOffset(-(5 * 3600 + 30 * 60 + 15)), .unknown(type: nil, literal: "+05a0"),
            ])
    }

    func testTheTableLooksUpEveryNameItKnowsAndNoOther() {
        for (name, definition) in PropertyTable.definitions {
            let info = PropertyTable.info(name)
            XCTAssertEqual(info.defaultType, definition.defaultType, name)
            XCTAssertEqual(info.allowsDate, definition.allowedTypes.contains(.date), name)
            XCTAssertEqual(info.isList, definition.isList, name)
            XCTAssertEqual(PropertyTable.definition(name)?.allowedTypes, definition.allowedTypes, name)
        }
        for id in PropertyID.allCases where id != .other { XCTAssertEqual(PropertyTable.info(id.rawValue).id, id) }
        XCTAssertEqual(PropertyTable.info("X-APPLE-STRUCTURED-LOCATION").id, .structuredLocation)
        XCTAssertEqual(PropertyTable.info("X-APPLE-CALENDAR-COLOR").defaultType, .text)
        for unknown in ["dtstart", "", "X-UNKNOWN", "X-APPLE-STRUCTURED-LOCATIONS", "DTSTART\u{0}"] {
            XCTAssertNil(PropertyTable.info(unknown).defaultType, unknown)
            XCTAssertEqual(PropertyTable.info(unknown).id, .other, unknown)
        }
        XCTAssertEqual(ParameterID(name: "PARTSTAT"), .partstat)
        XCTAssertEqual(ParameterID(name: "TZID"), .other)
        XCTAssertEqual(ParameterID(name: "partstat"), .other)
        for id in ParameterID.allCases { XCTAssertEqual(ParameterID(name: id.rawValue), id, id.rawValue) }
        for other in ["", "C", "CNN", "DELEGATED-TOO", "LANGUAGF", "X-CN", "ROLE\u{0}"] { XCTAssertEqual(ParameterID(name: other), .other, other) }
    }
}
