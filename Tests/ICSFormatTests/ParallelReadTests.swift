import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
@testable import ICSFormat
import XCTest

/// Reading with worker threads (`ReadOptions.concurrency`) gives exactly what a sequential read
/// gives: the same elements, the same warnings in the same order, the same error after the same
/// elements. Units hold 32 components, so inputs here have hundreds, with repairs falling on
/// and around unit boundaries.
final class ParallelReadTests: XCTestCase {
    struct Outcome: Equatable {
        var elements: [CalendarStreamElement]
        var diagnostics: [Diagnostic]
        var error: CalendarError?
    }

    func read(_ bytes: [UInt8], name: String = "t.ics", strict: Bool = false, concurrency: Int, trees: Bool = false) -> Outcome {
        let log = DiagnosticLog()
        let options = ReadOptions(sourceName: name, strict: strict, concurrency: concurrency)
        let source = MemoryByteSource(bytes)
        var reader = trees
            ? ICSReader.componentTreeReader(source: source, options: options, log: log)
            : ICSReader(source: source, options: options, log: log)
        var elements: [CalendarStreamElement] = []
        do {
            while let e = try reader.next() { elements.append(e) }
            // Reading on after the end (or an error) gives nothing more.
            XCTAssertNil(try reader.next(), name)
            return Outcome(elements: elements, diagnostics: log.diagnostics, error: nil)
        } catch {
            return Outcome(elements: elements, diagnostics: log.diagnostics, error: error as? CalendarError)
        }
    }

    /// Compares the parallel reads against the sequential one, naming the first difference.
    func assertSameAsSequential(_ bytes: [UInt8], name: String = "t.ics", strict: Bool = false, trees: Bool = false,
                                file: StaticString = #filePath, line: UInt = #line) {
        let sequential = read(bytes, name: name, strict: strict, concurrency: 1, trees: trees)
        for concurrency in [2, 3] {
            let parallel = read(bytes, name: name, strict: strict, concurrency: concurrency, trees: trees)
            let context = "\(name) (\(strict ? "strict" : "lenient"), concurrency \(concurrency))"
            XCTAssertEqual(parallel.elements.count, sequential.elements.count, context, file: file, line: line)
            if let i = zip(parallel.elements, sequential.elements).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                XCTFail("\(context): element \(i) differs", file: file, line: line)
            }
            XCTAssertEqual(parallel.diagnostics, sequential.diagnostics, context, file: file, line: line)
            XCTAssertEqual(parallel.error, sequential.error, context, file: file, line: line)
        }
    }

    // MARK: - Generated inputs

    /// One VEVENT with a nested VALARM, folding, parameters and non-ASCII text.
    static func event(_ i: Int) -> String {
        """
        BEGIN:VEVENT\r
        UID:event-\(i)@example.com\r
        DTSTAMP:20240101T000000Z\r
        DTSTART;TZID=Europe/Berlin:20240\(1 + i % 9)0\(1 + i % 9)T090000\r
        DURATION:PT1H\r
        SUMMARY:Réunion \(i)\r
        DESCRIPTION:A long description that is folded over more than one line so th\r
         at the lexer joins it again, number \(i)\r
        ATTENDEE;CN="Jane, Doe";ROLE=REQ-PARTICIPANT:mailto:jane\(i)@example.com\r
        RRULE:FREQ=WEEKLY;COUNT=\(1 + i % 5)\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        DESCRIPTION:Reminder\r
        END:VALARM\r
        END:VEVENT\r

        """
    }

    static let timeZone = """
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        END:STANDARD\r
        END:VTIMEZONE\r

        """

    /// A calendar around `body`; U+0001 stands for a byte that is not UTF-8 (0xFF).
    static func calendar(_ body: String) -> [UInt8] {
        Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport//tests//EN\r\n\(body)END:VCALENDAR\r\n".utf8).map { $0 == 1 ? 0xFF : $0 }
    }

    /// A well-formed archive of many units: events, to-dos and a time zone.
    static func archive(_ count: Int) -> [UInt8] {
        var body = timeZone
        for i in 0..<count {
            body += i % 7 == 3 ? "BEGIN:VTODO\r\nUID:todo-\(i)\r\nSUMMARY:Task \(i)\r\nDUE;VALUE=DATE:20240301\r\nEND:VTODO\r\n" : event(i)
        }
        return calendar(body)
    }

    /// Component `i` with a defect that lenient mode repairs (and strict mode refuses), chosen
    /// by `kind`.
    static func defective(_ i: Int, kind: Int) -> String {
        let plain = event(i)
        switch kind {
        case 0:  // missing END:VEVENT: the next BEGIN:VEVENT closes it
            return plain.replacingOccurrences(of: "END:VEVENT\r\n", with: "")
        case 1:  // a stray END between components
            return plain + "END:VTODO\r\n"
        case 2:  // folding without the leading space
            return plain.replacingOccurrences(of: "\r\n at the lexer", with: "\r\nat the lexer")
        case 3:  // a line that cannot be split: skipped
            return plain.replacingOccurrences(of: "DURATION:PT1H\r\n", with: "X-BAD;P=\"open:value\r\nDURATION:PT1H\r\n")
        case 4:  // a value that cannot be read: kept as text
            return plain.replacingOccurrences(of: "DTSTAMP:20240101T000000Z", with: "DTSTAMP:2024-13-45")
        case 5:  // VALARM left open: END:VEVENT closes it
            return plain.replacingOccurrences(of: "END:VALARM\r\n", with: "")
        case 6:  // an END that matches nothing open: skipped
            return plain.replacingOccurrences(of: "END:VALARM\r\n", with: "END:VALARM\r\nEND:VFOO\r\n")
        case 7:  // a NUL byte and invalid UTF-8
            return plain.replacingOccurrences(of: "SUMMARY:Réunion", with: "SUMMARY:R\u{0}union").replacingOccurrences(
                of: "DESCRIPTION:Reminder", with: "DESCRIPTION:Rem\u{1}inder")
        case 8:  // a date without VALUE=DATE, a broken rule
            return plain.replacingOccurrences(of: "DTSTAMP:20240101T000000Z", with: "DTSTAMP:20240101T000000Z\r\nRDATE:20240105")
                .replacingOccurrences(of: "RRULE:FREQ=WEEKLY", with: "RRULE:FREQ=SOMETIMES")
        case 9:  // the calendar ends; a fragment follows outside of any VCALENDAR, then a calendar
            // begins again while the supplied one is open
            return "END:VCALENDAR\r\nX-OUTSIDE:fragment\r\n" + plain + "BEGIN:VCALENDAR\r\nX-WR-CALNAME:again\r\n"
        case 10:  // a calendar property between components (a trailing property)
            return plain + "X-WR-CALDESC:between\r\n"
        default:
            return plain
        }
    }

    static func repairedArchive(count: Int, every: Int) -> [UInt8] {
        var body = ""
        for i in 0..<count { body += i % every == 0 ? defective(i, kind: (i / every) % 11) : event(i) }
        return calendar(body)
    }

    // MARK: - Tests

    func testAGeneratedArchiveOfManyUnitsReadsTheSame() {
        let bytes = Self.archive(700)
        assertSameAsSequential(bytes)
        assertSameAsSequential(bytes, trees: true)
        let outcome = read(bytes, concurrency: 3)
        XCTAssertEqual(outcome.elements.count, 703)
        XCTAssertNil(outcome.error)
    }

    func testEveryCorpusFileReadsTheSameOnWorkerThreads() throws {
        let files = RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot)
        XCTAssertGreaterThan(files.count, 700, "the corpus is missing: expected ../shared/corpus beside the repository")
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            assertSameAsSequential(bytes, name: url.lastPathComponent)
            assertSameAsSequential(bytes, name: url.lastPathComponent, strict: true)
            assertSameAsSequential(bytes, name: url.lastPathComponent, trees: true)
        }
    }

    func testLenientRepairsAcrossUnitBoundariesGiveTheSameOutputAndWarnings() {
        // Defects every 1, 3 and 7 components: each kind lands on and beside unit boundaries.
        for every in [1, 3, 7] {
            let bytes = Self.repairedArchive(count: 400, every: every)
            let sequential = read(bytes, concurrency: 1)
            XCTAssertNil(sequential.error)
            XCTAssertGreaterThan(sequential.diagnostics.count, 400 / every / 2, "the defects must be repaired with warnings")
            assertSameAsSequential(bytes, name: "every-\(every).ics")
            assertSameAsSequential(bytes, name: "every-\(every).ics", trees: true)
        }
    }

    func testUnderStrictTheSameErrorComesAfterTheSameElements() {
        // The first defect at several places around the first unit boundaries, of each kind:
        // some are found by the sequential pass (structure), some by a worker (a line's value).
        for kind in 0..<11 {
            for at in [0, 5, 31, 32, 33, 64, 90] {
                var body = ""
                for i in 0..<120 { body += i == at ? Self.defective(i, kind: kind) : Self.event(i) }
                let bytes = Self.calendar(body)
                let name = "strict-\(kind)-\(at).ics"
                assertSameAsSequential(bytes, name: name, strict: true)
                let outcome = read(bytes, name: name, strict: true, concurrency: 3)
                if kind != 10 {
                    XCTAssertNotNil(outcome.error, name)
                    XCTAssertLessThanOrEqual(outcome.elements.count, at + 2, name)
                }
            }
        }
    }

    func testAStrictErrorWhileACalendarIsAnnouncedHandsOutNothingOfThatStep() {
        // BEGIN:VCALENDAR directly inside a VCALENDAR: a sequential read announces the outer
        // calendar and fails in the same step, so the announcement never comes out.
        let bytes = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        assertSameAsSequential(bytes, strict: true)
        let outcome = read(bytes, strict: true, concurrency: 2)
        XCTAssertEqual(outcome.elements, [])
        XCTAssertEqual(outcome.error?.diagnostic.line, 3)
    }

    func testNoVCalendarIsTheSameError() {
        assertSameAsSequential([])
        assertSameAsSequential(Array("hello\r\n".utf8))
        assertSameAsSequential(Array("hello\r\n".utf8), strict: true)
    }

    func testStructureLinesAreRecognizedAsParseWouldNameThem() {
        for line in ["BEGIN:VEVENT", "begin:vevent", "End:VEVENT", "BEGIN;X=1:VALARM", "BE\u{0}GIN:VALARM", "END", "BEGIN", "\u{0}END:VTODO"] {
            XCTAssertTrue(ICSReader.isStructureLine(Array(line.utf8)), line)
        }
        for line in ["BEGINS:X", "ENDX:1", "BEGI:X", "X-BEGIN:VEVENT", "DESCRIPTION:END", "EN:D", "", ":BEGIN", "\u{0}"] {
            XCTAssertFalse(ICSReader.isStructureLine(Array(line.utf8)), line)
        }
    }

    /// The threads of this process, from /proc (Linux).
    func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Waits until the process has at most `count` threads; false after a few seconds.
    func threadsSettle(atMost count: Int) -> Bool {
        for _ in 0..<400 {
            if threadCount() <= count { return true }
            usleep(10_000)
        }
        return false
    }

    func testStoppingEarlyEndsTheWorkerThreads() throws {
        let bytes = Self.archive(3000)
        let before = threadCount()
        var reader: ICSReader? = ICSReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: "big.ics", concurrency: 3), log: DiagnosticLog())
        for _ in 0..<5 { XCTAssertNotNil(try reader?.next()) }
        XCTAssertGreaterThanOrEqual(threadCount(), before + 2, "two worker threads while reading")
        reader = nil
        XCTAssertTrue(threadsSettle(atMost: before), "worker threads left after the reader was dropped")
    }

    func testReadingToTheEndEndsTheWorkerThreads() throws {
        let before = threadCount()
        var reader = ICSReader(
            source: MemoryByteSource(Self.archive(100)), options: ReadOptions(sourceName: "t.ics", concurrency: 2), log: DiagnosticLog())
        var count = 0
        while try reader.next() != nil { count += 1 }
        XCTAssertEqual(count, 103)
        XCTAssertTrue(threadsSettle(atMost: before), "worker threads left after the end of the input")
    }
}
