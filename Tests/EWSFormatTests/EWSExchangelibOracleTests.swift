import CalendarModel
import CalendarTestSupport
import EWSFormat
import ExchangeData
import Foundation
import Recurrence
import XCTest

/// exchangelib (PyPI), the EWS client most migration scripts use, reads every CalendarItem
/// calport writes: the writing fixtures (GetItem responses and CreateItem requests) and every
/// readable ICS file of the shared corpus converted to EWS. For the fixtures, what exchangelib
/// understood is checked against the input read independently of the writer: subjects,
/// start/end instants (from the tz database), attendees with their lists and response words,
/// and each series' pattern and range (from the Exchange core's conversion of the input rule).
final class EWSExchangelibOracleTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracle/exchangelib_read.py")

    /// Runs the oracle over `files`; one decoded JSON object per CalendarItem or per failed file.
    static func exchangelib(_ files: [URL]) throws -> [[String: Any]] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("calport-exchangelib-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + files.map(\.path)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardInput = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the exchangelib oracle failed; is exchangelib installed (make deps)?")
        let text = try String(contentsOf: out, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func calendarItemCount(_ bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "<t:CalendarItem>").count - 1
    }

    func testExchangelibReadsEveryCalendarItemCalportWrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-ews-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var written: [(name: String, url: URL, items: Int)] = []
        func write(_ name: String, _ input: [UInt8], settings: EWSWriterSettings = .init()) throws {
            let (output, _) = try EWSWriterGoldenTests.ews(fromICS: input, settings: settings, name: name)
            let url = directory.appendingPathComponent("\(written.count).xml")
            try Data(output).write(to: url)
            written.append((name, url, Self.calendarItemCount(output)))
        }
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: EWSWriterGoldenTests.fixtures.path).filter {
            $0.hasSuffix(".ics")
        }.sorted()
        for name in fixtures {
            let bytes = [UInt8](try Data(contentsOf: EWSWriterGoldenTests.fixtures.appendingPathComponent(name)))
            try write(name, bytes)
            try write("create: " + name, bytes, settings: EWSWriterSettings(document: .createItemRequest))
        }
        var corpusFiles = 0
        for url in RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot) {
            let bytes = [UInt8](try Data(contentsOf: url))
            // Files even lenient ICS reading refuses are the ICS tests' business.
            guard let (output, _) = try? EWSWriterGoldenTests.ews(fromICS: bytes, name: url.path) else { continue }
            let file = directory.appendingPathComponent("\(written.count).xml")
            try Data(output).write(to: file)
            written.append((url.path, file, Self.calendarItemCount(output)))
            corpusFiles += 1
        }
        XCTAssertGreaterThan(corpusFiles, 600, "the shared corpus is missing")
        let results = try Self.exchangelib(written.map(\.url))
        var parsed: [String: Int] = [:]
        for result in results {
            let file = result["file"] as? String ?? "?"
            if let error = result["error"] as? String {
                let name = written.first { $0.url.path == file }?.name ?? file
                XCTFail("exchangelib cannot read calport's EWS for \(name): \(error)")
            }
            parsed[file, default: 0] += result["error"] == nil ? 1 : 0
        }
        var total = 0
        for file in written {
            XCTAssertEqual(parsed[file.url.path] ?? 0, file.items, "\(file.name): exchangelib read a different number of CalendarItems")
            total += file.items
        }
        XCTAssertGreaterThan(total, 2000)
        var byFixture: [String: [[String: Any]]] = [:]
        for file in written.prefix(fixtures.count * 2) {
            byFixture[file.name] = results.filter { ($0["file"] as? String) == file.url.path }
        }
        try checkFixtureMeanings(byFixture)
    }

    /// What exchangelib understood of the fixtures equals what their ICS says.
    private func checkFixtureMeanings(_ byFixture: [String: [[String: Any]]]) throws {
        let clock = TimeZoneDatabaseClock.shared
        func utc(_ value: CalendarDateTime) -> Int {
            let wall = value.wallSecondsSinceEpoch
            if case .zone(let zone) = value.reference, let instant = clock.utcSeconds(zone: zone, wallSeconds: wall) { return instant }
            return wall
        }
        func iso(_ seconds: Int) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))).replacingOccurrences(of: "Z", with: "+00:00")
        }
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: EWSWriterGoldenTests.fixtures.path).filter({ $0.hasSuffix(".ics") })
        {
            let events = try OccurrenceList.events(
                ofICS: [UInt8](try Data(contentsOf: EWSWriterGoldenTests.fixtures.appendingPathComponent(name))))
            for document in [name, "create: " + name] {
                let results = byFixture[document] ?? []
                for event in events where event.item.start?.isDateOnly == false {
                    guard let uid = event.item.uid, let start = event.item.start, let end = event.effectiveEnd else { continue }
                    let recurrenceID = event.item.recurrenceID.map { iso(utc($0)) }
                    let matches = results.filter { ($0["uid"] as? String) == uid && ($0["recurrence_id"] as? String) == recurrenceID }
                    // Series EWS cannot hold are written as singles under other UIDs (golden tests check those).
                    guard !matches.isEmpty else { continue }
                    for found in matches {
                        let place = "\(name) \(uid) \(recurrenceID ?? "")"
                        XCTAssertEqual(found["subject"] as? String, event.item.title, place)
                        XCTAssertEqual(found["start"] as? String, iso(utc(start)), place)
                        XCTAssertEqual(found["end"] as? String, iso(utc(end)), place)
                        let required =
                            (found["required"] as? [[String: Any]] ?? []) + (found["optional"] as? [[String: Any]] ?? [])
                            + (found["resources"] as? [[String: Any]] ?? [])
                        XCTAssertEqual(
                            Set(required.compactMap { $0["email"] as? String }), Set(event.item.attendees.compactMap(\.emailAddress)), place
                        )
                        for attendee in event.item.attendees {
                            guard let status = attendee.status,
                                let listed = required.first(where: { ($0["email"] as? String) == attendee.emailAddress })
                            else { continue }
                            // A CreateItem request sets no responses (reported as a loss).
                            if !document.hasPrefix("create: "), let response = listed["response"] as? String {
                                XCTAssertEqual(response, ExchangeVocabulary.ews.word(for: status), place)
                            }
                        }
                        if let rule = event.item.recurrenceRules.first, event.item.recurrenceRules.count == 1,
                            let recurrence = try? ExchangeRecurrence(rule: rule, start: start),
                            recurrence.unrepresentableReason(in: .ews) == nil
                        {
                            let r = try XCTUnwrap(found["recurrence"] as? [String: Any], place)
                            let patternNames: [ExchangeRecurrence.Pattern.Kind: String] = [
                                .daily: "DailyPattern", .weekly: "WeeklyPattern", .absoluteMonthly: "AbsoluteMonthlyPattern",
                                .relativeMonthly: "RelativeMonthlyPattern", .absoluteYearly: "AbsoluteYearlyPattern",
                                .relativeYearly: "RelativeYearlyPattern",
                            ]
                            XCTAssertEqual(r["pattern"] as? String, patternNames[recurrence.pattern.kind], place)
                            if let interval = r["interval"] as? Int { XCTAssertEqual(interval, recurrence.pattern.interval, place) }
                            let boundaryNames: [ExchangeRecurrence.Range.Kind: String] = [
                                .noEnd: "NoEndPattern", .endDate: "EndDatePattern", .numbered: "NumberedPattern",
                            ]
                            XCTAssertEqual(r["boundary"] as? String, boundaryNames[recurrence.range.kind], place)
                            if let number = r["number"] as? Int { XCTAssertEqual(number, recurrence.range.numberOfOccurrences, place) }
                            checked += 1
                        }
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }
}
