import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import TimeZones
import XCTest

/// The report tells the truth: a CSV layout lists every field it has no column for, with how
/// many items lost it; totals count what was written; warnings of a multi-input run name their
/// own file and line.
final class ReportTruthTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("calport-truth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: work) }

    var fixtures: URL { Bundle.module.resourceURL!.appendingPathComponent("Fixtures/csv-losses") }

    func report(_ inputs: [String], to format: String) throws -> ConversionReport {
        let output = work.appendingPathComponent("out-\(UUID().uuidString)").path
        let summary = try Converter().run(ConversionRequest(inputs: inputs, output: output, outputFormat: format), log: DiagnosticLog())
        return try XCTUnwrap(summary.report)
    }

    /// Every `<case>.<dialect>.expected-losses.txt`: the losses `--report` lists when `<case>.ics`
    /// is converted to that dialect, field by field with counts.
    func testEachCSVDialectListsEveryFieldItHasNoColumnForWithCounts() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".expected-losses.txt") }.sorted()
        XCTAssertEqual(names.count, 3)
        for name in names {
            let parts = name.components(separatedBy: ".")
            let input = fixtures.appendingPathComponent(parts[0] + ".ics").path
            let expected = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { line -> String in line.trimmingCharacters(in: .whitespaces) }
            let report = try report([input], to: parts[1])
            let actual = report.losses.map { "\($0.field) \($0.count)" }.sorted()
            XCTAssertEqual(actual, expected.sorted(), name)
            for loss in report.losses {
                XCTAssertFalse(loss.places.isEmpty, "\(name): \(loss.field)")
                XCTAssertLessThanOrEqual(loss.places.count, loss.count, "\(name): \(loss.field)")
            }
        }
    }

    /// An independent check on real exports: convert each sample to each layout and back, and
    /// every field that did not come back is among the losses.
    func testEveryFieldThatDoesNotComeBackIsAReportedLoss() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples")
        let checks: [(String, (Event) -> AnyHashable?)] = [
            ("uid", { $0.uid }), ("url", { $0.url }), ("geo", { $0.geo.map { "\($0.latitude),\($0.longitude)" } }),
            ("status", { $0.status.map { "\($0)" } }), ("categories", { $0.item.allCategories.isEmpty ? nil : $0.item.allCategories }),
            ("organizer", { $0.organizer?.url }), ("attendees", { $0.attendees.isEmpty ? nil : $0.attendees.map(\.url) }),
            ("attendees.status", { $0.attendees.contains { $0.status != nil } ? $0.attendees.map { $0.status.map { "\($0)" } } : nil }),
            ("alarms", { $0.alarms.isEmpty ? nil : $0.alarms.count }), ("recurrenceRules", { $0.recurrenceRules.isEmpty ? nil : $0.recurrenceRules }),
            ("exceptionDates", { $0.exceptionDates.isEmpty ? nil : $0.exceptionDates.count }), ("sequence", { $0.sequence }),
            ("created", { $0.created }), ("lastModified", { $0.lastModified }), ("timestamp", { $0.timestamp }),
            ("priority", { $0.priority == 0 ? nil : $0.priority }),
        ]
        for sample in try FileManager.default.contentsOfDirectory(atPath: samples.path).filter({ $0.hasSuffix(".ics") }).sorted() {
            let input = samples.appendingPathComponent(sample).path
            let original = try events(in: input, format: nil)
            for dialect in ["csv", "csv-outlook", "csv-google"] {
                let output = work.appendingPathComponent("\(sample).\(dialect).csv").path
                let summary = try Converter().run(
                    ConversionRequest(inputs: [input], output: output, outputFormat: dialect), log: DiagnosticLog())
                let lost = Set(try XCTUnwrap(summary.report).losses.map(\.field))
                let back = try events(in: output, format: dialect)
                // A layout with no rule for a non-Gregorian series (RFC 7529) lowers it to one row
                // per occurrence, written after the calendar's other events and reported as a
                // recurrenceRules loss; the others still come back one for one, in order.
                let lowered = original.filter { $0.recurrenceRules.contains(where: \.hasNonGregorianScale) }
                let kept = back.count == original.count ? original : original.filter { !$0.recurrenceRules.contains(where: \.hasNonGregorianScale) }
                if back.count != original.count {
                    XCTAssertFalse(lowered.isEmpty, "\(sample) → \(dialect): \(back.count) events came back of \(original.count)")
                    XCTAssertTrue(lost.contains("recurrenceRules"), "\(sample) → \(dialect): lowered series are no loss")
                    XCTAssertGreaterThanOrEqual(back.count, original.count, "\(sample) → \(dialect)")
                }
                for (before, after) in zip(kept, back) {
                    for (field, value) in checks where value(before) != nil && value(before) != value(after) {
                        // A field lost whole covers its parts (attendees covers attendees.status).
                        let parent = String(field.prefix { $0 != "." })
                        XCTAssertTrue(lost.contains(field) || lost.contains(parent), "\(sample) → \(dialect): \(field) of \(before.uid ?? "") changed but is no loss")
                    }
                }
            }
        }
    }

    func events(in path: String, format: String?) throws -> [Event] {
        var reader = try Converter().makeReader(
            name: path, source: try FileByteSource(path: path), request: ConversionRequest(inputs: [path], inputFormat: format),
            log: DiagnosticLog())
        var events: [Event] = []
        while let element = try reader.next() {
            if case .entry(.event(let e), _) = element { events.append(e) }
        }
        return events
    }

    func testTotalsCountOnlyWhatACSVOutputHolds() throws {
        let input = fixtures.appendingPathComponent("every-field.ics").path
        for dialect in ["csv", "csv-outlook", "csv-google"] {
            let report = try report([input], to: dialect)
            XCTAssertEqual(report.totals.events, 3, dialect)
            XCTAssertEqual(report.totals.reminders, 0, "\(dialect): the to-dos were left out")
            XCTAssertEqual(report.outputs.flatMap(\.calendars).map(\.reminders), [0], dialect)
        }
        XCTAssertEqual(try report([input], to: "ics").totals.reminders, 2)
    }

    func testAWarningOfAMultiInputRunNamesItsOwnFileAndLine() throws {
        func write(_ name: String, _ lines: [String]) throws -> String {
            let url = work.appendingPathComponent(name)
            try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: url)
            return url.path
        }
        let a = try write("A.ics", [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:a1", "DTSTAMP:20260101T000000Z",
            "DTSTART:20260105T100000Z", "END:VEVENT", "END:VCALENDAR",
        ])
        let notes = try write("notes.ics", [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VEVENT", "UID:n1", "DTSTAMP:20260101T000000Z",
            "SUMMARY:Lunch", "DTSTART;TZID=Mars/Olympus:20260105T100000", "END:VEVENT", "END:VCALENDAR",
        ])
        for jobs in [1, 2] {
            let log = DiagnosticLog()
            // As the command line runs it: every TZID resolved (--tz keep).
            try Converter().run(
                ConversionRequest(inputs: [a, notes], output: work.appendingPathComponent("o.ics").path, jobs: jobs, timeZones: TimeZoneOptions()),
                log: log)
            let tzid = log.diagnostics.filter { $0.message.contains("Mars/Olympus") }
            XCTAssertEqual(tzid.map(\.file), [notes], "\(log.diagnostics)")
            XCTAssertEqual(tzid.map(\.line), [8], "the DTSTART line, not the item's BEGIN")
        }
    }
}
