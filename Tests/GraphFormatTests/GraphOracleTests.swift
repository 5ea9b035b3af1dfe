import CalendarModel
import CalendarTestSupport
import Foundation
import Recurrence
import XCTest

@testable import GraphFormat

/// Graph's side of the Exchange oracle: every case of the core's independent python-dateutil
/// oracle (Tests/ExchangeDataTests/Fixtures/oracle, computed day by day from the Exchange
/// fields, one oracle for EWS and Graph), spelled as a Graph `patternedRecurrence` (EWS's day
/// sets listed as Graph lists them, so several daysOfWeek with an index), read by the Graph
/// reader and expanded by the recurrence engine, gives the oracle's days.
final class GraphOracleTests: XCTestCase {
    static let oracle = RoundTripCheck.repositoryRoot.appendingPathComponent("Tests/ExchangeDataTests/Fixtures/oracle/exchange_cases.jsonl")

    static func graphDays(_ words: [String]) -> [String] {
        words.flatMap { w -> [String] in
            switch w {
            case "Day": ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
            case "Weekday": ["monday", "tuesday", "wednesday", "thursday", "friday"]
            case "WeekendDay": ["saturday", "sunday"]
            default: [w.lowercased()]
            }
        }
    }

    func testEveryPatternAndRangeExpandsToWhatGraphMeans() throws {
        let data = try Data(contentsOf: Self.oracle)
        var compared = 0
        var severalDaysWithIndex = 0
        var kinds: Set<String> = []
        var ranges: Set<String> = []
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let c = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let p = try XCTUnwrap(c["pattern"] as? [String: Any])
            let r = try XCTUnwrap(c["range"] as? [String: Any])
            let expected = try XCTUnwrap(c["expected"] as? [String])
            let complete = c["complete"] as? Bool ?? false
            let time = c["time"] as? String
            let zone = c["zone"] as? String
            let startDate = try XCTUnwrap(r["startDate"] as? String)
            var pattern: [String: Any] = ["type": p["kind"]!, "interval": p["interval"] ?? 1]
            if let days = p["daysOfWeek"] as? [String] { pattern["daysOfWeek"] = Self.graphDays(days) }
            if let index = p["index"] as? String { pattern["index"] = index.lowercased() }
            if let d = p["dayOfMonth"] { pattern["dayOfMonth"] = d }
            if let m = p["month"] { pattern["month"] = m }
            if let f = p["firstDayOfWeek"] as? String { pattern["firstDayOfWeek"] = f.lowercased() }
            var range: [String: Any] = ["type": r["kind"]!, "startDate": startDate]
            if let e = r["endDate"] { range["endDate"] = e }
            if let n = r["numberOfOccurrences"] { range["numberOfOccurrences"] = n }
            let wall = time.map { t -> String in
                let a = Array(t)
                return "\(startDate)T\(String(a[0..<2])):\(String(a[2..<4])):\(String(a[4..<6])).0000000"
            } ?? "\(startDate)T00:00:00.0000000"
            var event: [String: Any] = [
                "subject": "case", "type": "seriesMaster", "id": "m", "isAllDay": time == nil,
                "start": ["dateTime": wall, "timeZone": zone ?? "UTC"], "end": ["dateTime": wall, "timeZone": zone ?? "UTC"],
                "recurrence": ["pattern": pattern, "range": range],
            ]
            if let zone { event["originalStartTimeZone"] = zone }
            let json = try JSONSerialization.data(withJSONObject: ["value": [event]])
            var reader = GraphFormat().makeReader(source: BytesSource(Array(json)), options: ReadOptions(sourceName: "case"), log: DiagnosticLog())
            var master: Event?
            while let element = try reader.next() { if case .entry(.event(let e), _) = element { master = e } }
            let m = try XCTUnwrap(master, "\(c["id"]!)")
            let rule = try XCTUnwrap(m.recurrenceRules.first)
            var iterator = try RecurrenceRuleIterator(rule: rule, start: try XCTUnwrap(m.start))
            var got: [String] = []
            while got.count < expected.count + (complete ? 1 : 0), let next = iterator.next() { got.append(Self.basic(next)) }
            // Graph has no floating time: the oracle's floating and UTC cases are both UTC here.
            XCTAssertEqual(got, expected.map { $0.hasSuffix("Z") ? String($0.dropLast()) : $0 }, "\(c["id"]!) \(pattern) \(range) RRULE:\(rule.rfc5545Text)")
            compared += 1
            kinds.insert(p["kind"] as! String)
            ranges.insert(r["kind"] as! String)
            if (pattern["daysOfWeek"] as? [String])?.count ?? 0 > 1, pattern["index"] != nil,
                p["kind"] as? String == "relativeMonthly" || p["kind"] as? String == "relativeYearly"
            {
                severalDaysWithIndex += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000)
        XCTAssertEqual(kinds.count, 6)
        XCTAssertEqual(ranges.count, 3)
        XCTAssertGreaterThan(severalDaysWithIndex, 50)
    }

    static func basic(_ v: CalendarDateTime) -> String {
        let d = v.date
        var s = String(format: "%04d%02d%02d", d.year, d.month, d.day)
        if let t = v.time { s += String(format: "T%02d%02d%02d", t.hour, t.minute, t.second) }
        return s
    }
}

/// Bytes from memory.
final class BytesSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
        offset += n
        return n
    }
}
