import CalendarModel
import Foundation
import Recurrence
import XCTest

/// The libical, ical.js and sabre/vobject cases of the shared corpus
/// (Fixtures/recurrence_cases.jsonl, copied from corpus/_combined), tagged by source.
final class CorpusRecurrenceTests: XCTestCase {
    /// Cases not run, each with the reason; the report lists them.
    static let skipped: [String: String] = [
        "libical:icalrecur_test.jsonl:80":
            "libical reports UNIMPLEMENTED for BYWEEKNO with BYMONTH and BYMONTHDAY; RFC 5545 defines it (week 1 may hold Dec 30), and the expansion yields 2024-12-30, which libical cannot confirm",
        "sabre-vobject:rrule_iterator.jsonl:93":
            "BYWODAN is no RFC 5545 rule part; sabre/vobject throws, calport keeps unknown parts for round trips and expands the rest",
        "sabre-vobject:rrule_iterator.jsonl:75":
            "sabre/vobject counts BYWEEKNO=-20 one week early (week 32 of a 52-week year); RFC 5545 §3.3.10 makes -1 the last week, so -20 is week 33 (python-dateutil agrees)",
        "sabre-vobject:rrule_iterator.jsonl:63":
            "sabre/vobject turns BYYEARDAY=-366 into December 31 in 365-day years; that day does not exist there and RFC 5545 §3.3.10 skips it (python-dateutil agrees)",
        "sabre-vobject:rrule_iterator.jsonl:27":
            "sabre/vobject drops the nonexistent 02:00 of 2023-03-26 in Zurich made by BYHOUR=2; RFC 5545 §3.3.10 reads it as §3.3.5 says (03:00 CEST), as sabre itself does without BYHOUR",
        "sabre-vobject:rrule_iterator.jsonl:90":
            "BYWEEKNO and BYYEARDAY are not valid with FREQ=DAILY (RFC 5545 §3.3.10); sabre/vobject ignores them and BYMINUTE/BYSECOND too, calport applies them as limits and warns",
        "libical:icalrecur_test.jsonl:134":
            "libical steps INTERVAL from DTSTART's calendar year when DTSTART is not an instance (2027 + 6k) but from its week-year in cases 143 and 146, whose notes say so; calport always uses DTSTART's week-year (2026 + 6 = 2032)",
        "libical:icalrecur_test.jsonl:135":
            "as libical:134: libical's origin 2027 + 5 gives 2032, DTSTART's week-year 2026 + 5k gives 2071",
    ]

    /// ical.js cases where ical.js lists a DTSTART the rule does not produce: RFC 5545 §3.8.5.3
    /// (DTSTART is always the first instance) gives their lists, so they run that way.
    static let startAlwaysOccurs: Set<String> = [
        "icaljs:recur_iterator_test.jsonl:96", "icaljs:recur_iterator_test.jsonl:97",
    ]

    struct Case: Decodable {
        struct Origin: Decodable {
            var folder: String
            var test: String?
        }

        var id: String
        var origin: Origin
        var dtstart: String
        var tzid: String?
        var rrule: String
        var query: [String: String]?
        var expected: [String]?
        var complete: Bool
        var dtstart_counts: String
        var nonstandard: [String]?
        var expected_error: String?
    }

    func testCorpusCasesBySource() throws {
        let data = try Data(contentsOf: Fixtures.url("recurrence_cases.jsonl"))
        var ran: [String: Int] = [:]
        var checkedErrors = 0
        var ranRSCALE = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let c = try JSONDecoder().decode(Case.self, from: Data(line))
            if Self.skipped[c.id] != nil { continue }
            let place = "\(c.id) [\(c.origin.folder)] \(c.origin.test ?? "")"
            var start = try XCTUnwrap(CalendarDateTime(basicISO: c.dtstart), place)
            if let tzid = c.tzid { start.reference = .zone(tzid) }
            // sabre/vobject writes all-day instances as midnight UTC.
            let expected = (c.expected ?? []).map { start.isDateOnly && $0.hasSuffix("T000000Z") ? String($0.prefix(8)) : $0 }

            let rule: RecurrenceRule
            do {
                rule = try RecurrenceRule(rfc5545: c.rrule)
            } catch {
                // Only cases that expect an error (or no instance at all) may fail to parse.
                XCTAssertTrue(c.expected_error != nil || expected.isEmpty, "\(place): \(error)")
                checkedErrors += 1
                continue
            }
            var master = CalendarItem(uid: c.id, start: start)
            master.recurrenceRules = [rule]
            let options = RecurrenceOptions(
                startAlwaysOccurs: c.dtstart_counts == "always" || Self.startAlwaysOccurs.contains(c.id))
            let set: RecurrenceSet
            do {
                set = try RecurrenceSet(master: master, extent: .none, options: options)
            } catch let error as RecurrenceError {
                // Only an RSCALE no calendar has (libical's RUSSIAN) is refused; every RFC 7529
                // case with a real calendar (Chinese, Hebrew, Islamic, Ethiopic, Dangi) runs.
                XCTAssertNotNil(c.expected_error, "\(place): \(error)")
                XCTAssertEqual(error.kind, .unsupported, place)
                checkedErrors += 1
                continue
            }
            XCTAssertNil(c.expected_error, "\(place): expected an error")
            if c.expected_error != nil { continue }

            var iterator = set.makeIterator()
            var got: [String] = []
            let fastForward = c.query?["fast_forward"].flatMap { CalendarDateTime(basicISO: $0) }
            // An empty list that is not complete is sabre/vobject's loop guard: the rule can
            // never produce an instance after the fast-forward, and iteration must end.
            let exhaustive = c.complete || expected.isEmpty
            let limit = exhaustive ? 20_000 : expected.count
            while got.count < limit, let occurrence = iterator.next() {
                if let fastForward, occurrence.start.wallSecondsSinceEpoch < fastForward.wallSecondsSinceEpoch { continue }
                got.append(occurrence.start.basicISO)
            }
            XCTAssertEqual(got, expected, place)
            if exhaustive { XCTAssertNil(iterator.next(), "\(place): more instances than expected") }

            // libical's START-AT: iterating from a later start gives the tail of the list.
            if let startAt = c.query?["start_at"].flatMap({ CalendarDateTime(basicISO: $0) }), case .until = rule.end {
                let from = startAt.wallSecondsSinceEpoch
                let tail = set.occurrences(from: from).occurrences.map(\.start.basicISO)
                XCTAssertEqual(tail, expected.filter { CalendarDateTime(basicISO: $0)!.wallSecondsSinceEpoch >= from }, "\(place) START-AT")
            }
            ran[c.origin.folder, default: 0] += 1
            if c.rrule.uppercased().contains("RSCALE=") { ranRSCALE += 1 }
        }
        // libical's RFC 7529 cases: 33 of 34 expand (the 34th names no calendar).
        XCTAssertEqual(ranRSCALE, 33)
        // Every source is exercised; the counts are those of the corpus less the skipped cases.
        XCTAssertGreaterThan(ran["libical"] ?? 0, 140)
        XCTAssertGreaterThan(ran["icaljs"] ?? 0, 100)
        XCTAssertGreaterThan(ran["sabre-vobject"] ?? 0, 60)
        XCTAssertGreaterThan(checkedErrors, 0)
        print(
            "corpus recurrence cases run by source: \(ran.sorted { $0.key < $1.key }), errors checked: \(checkedErrors), skipped: \(Self.skipped.count)"
        )
    }
}
