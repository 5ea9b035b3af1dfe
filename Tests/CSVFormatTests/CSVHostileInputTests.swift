import CalendarModel
import Foundation
import XCTest

/// Inputs a black-box mutation run found crashing or hanging the CSV layouts (issue 21),
/// minimized: each is read or written with a diagnostic, and fast.
final class CSVHostileInputTests: XCTestCase {
    /// A duration of 10^17 days overflowed when the end was worked out; it is not a duration.
    func testDurationBeyondTheLimitIsACellWarning() throws {
        let csv = "uid,title,start,duration\nhuge,Huge,2024-01-01T09:00:00Z,P99999999999999999D\n"
        let log = DiagnosticLog()
        let elements = try CSVTestHelpers.read(Array(csv.utf8), format: "csv", name: "huge.csv", log: log)
        let event = try XCTUnwrap(CSVTestHelpers.events(elements).first)
        XCTAssertNil(event.duration)
        XCTAssertTrue(log.diagnostics.contains { $0.line == 2 && $0.message.contains("P99999999999999999D") }, "\(log.diagnostics)")
        for format in ["ics", "json", "csv-outlook"] { XCTAssertFalse(try CSVTestHelpers.write(elements, format: format).isEmpty) }
        XCTAssertThrowsError(try CSVTestHelpers.read(Array(csv.utf8), format: "csv", name: "huge.csv", strict: true))
    }

    /// An alarm 2^62 weeks before its event overflowed Outlook's reminder date; it is reported as
    /// a lost alarm instead.
    func testAlarmOffsetBeyondEveryDateIsALossInOutlookCSV() throws {
        var event = Event()
        event.item.uid = "far"
        event.item.title = "Far"
        event.item.start = CalendarDateTime(basicISO: "20240101T090000Z")
        event.item.alarms = [
            Alarm(action: .display, trigger: .relative(CalendarDuration(isNegative: true, weeks: 1 << 62), relativeToEnd: false))
        ]
        let elements: [CalendarStreamElement] = [
            .beginCalendar(CalendarModel.Calendar()), .entry(.event(event), line: 1), .endCalendar(trailingProperties: []),
        ]
        let log = DiagnosticLog()
        let text = String(decoding: try CSVTestHelpers.write(elements, format: "csv-outlook", log: log), as: UTF8.self)
        XCTAssertTrue(text.contains("Far"))
        XCTAssertTrue(log.diagnostics.contains { $0.lostField == "alarms" }, "\(log.diagnostics)")
    }

    /// Header detection compared every name with every spelling of every language: 100,000
    /// columns took over 30 s. Now it takes as long as reading the names, and the warning about
    /// the unknown ones names the first 20 and counts the rest.
    func testHundredThousandColumnHeaderIsReadQuickly() throws {
        var header = ["Subject", "Start Date", "Start Time"]
        for i in 0..<100_000 { header.append("X\(i)") }
        let csv = header.joined(separator: ",") + "\nWide,4/15/2024,10:00:00 AM\n"
        let started = Double(clock()) / Double(CLOCKS_PER_SEC)
        let log = DiagnosticLog()
        let elements = try CSVTestHelpers.read(Array(csv.utf8), format: "csv-outlook", name: "wide.csv", log: log)
        XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 5, "processor seconds")
        XCTAssertEqual(CSVTestHelpers.events(elements).first?.item.title, "Wide")
        let warning = try XCTUnwrap(log.diagnostics.first { $0.message.contains("columns not in the") })
        XCTAssertTrue(warning.message.hasSuffix("X19 and 99980 more"), warning.message)
    }

    /// A 1 GB line after an unbalanced quote was read whole, byte by byte, into one cell (minutes,
    /// gigabytes): a record longer than 1 MiB outside quotes is an error at its line, the header's too.
    func testALineLongerThanTheRecordLimitIsAnError() throws {
        let long = String(repeating: "x", count: 3 << 20)
        for (csv, line) in [("Subject,Start Date\n\"" + long + "\n", 2), ("Subject,Start Date\nA," + long + "\n", 2), (long + "\n", 1)] {
            let started = Double(clock()) / Double(CLOCKS_PER_SEC)
            XCTAssertThrowsError(try CSVTestHelpers.read(Array(csv.utf8), format: "csv-outlook", name: "long.csv")) { error in
                XCTAssertEqual((error as? CalendarError)?.diagnostic.line, line, "\(error)")
                XCTAssertTrue("\(error)".contains("is longer than 1 MiB"), "\(error)")
            }
            XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 10, "processor seconds")
        }
    }

    /// Every line ends inside a quoted cell that the next line closes: each recovery from the
    /// unbalanced quote read the rest again from the next line, 5 MB took minutes. Recoveries
    /// may read 4 MiB again in all; then reading stops with an error.
    func testUnbalancedQuotesOnEveryLineAreNotReadAgainPerLine() throws {
        let line = #"and a line break","Ro00 AM","False","has ""quotes"""#
        let csv =
            #""Subject","Start Date","Start Time","End Date","End Tim00 AM","False","has ""quotes"""# + "\n"
            + Array(repeating: line, count: 40_000).joined(separator: "\n") + "\n"
        let started = Double(clock()) / Double(CLOCKS_PER_SEC)
        XCTAssertThrowsError(try CSVTestHelpers.read(Array(csv.utf8), format: "csv-outlook", name: "quotes.csv")) { error in
            XCTAssertTrue("\(error)".contains("quotes that never close"), "\(error)")
        }
        XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 20, "processor seconds")
    }
}
