import CalendarModel
import Foundation
import Recurrence

// Expands 10 000 recurring events over ten years (2025-01-01 to 2035-01-01) and prints the
// throughput. Not a test: nothing is asserted, the figure goes in the notes.
//
//   swift run -c release --package-path Benchmarks RecurrenceBenchmark [events] [repeats]

// `RecurrenceBenchmark rscale [series]`: RFC 7529 (issue 18): `series` 100-year yearly rules on
// the Chinese calendar against as many Gregorian ones, engine only, per occurrence; the first
// Chinese run lays out each Chinese year once (CalendarScale keeps them), later runs reuse them.
if CommandLine.arguments.dropFirst().first == "rscale" {
    let series = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000
    func expand(_ rule: (Int) -> String) throws -> (seconds: Double, occurrences: Int) {
        let clock = ContinuousClock()
        var total = 0
        let elapsed = try clock.measure {
            for i in 0..<series {
                var item = CalendarItem(uid: "s\(i)", start: CalendarDateTime(date: CalendarDate(year: 2024, month: 2, day: 10)))
                item.recurrenceRules = [try RecurrenceRule(rfc5545: rule(i))]
                total += try RecurrenceSet(master: item, extent: .duration(.init(days: 1))).occurrences().occurrences.count
            }
        }
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, total)
    }
    let chineseRule = { (i: Int) in "RSCALE=CHINESE;FREQ=YEARLY;COUNT=100;BYMONTHDAY=\(1 + i % 28);BYMONTH=\(1 + i % 12)" }
    let gregorianRule = { (i: Int) in "FREQ=YEARLY;COUNT=100;BYMONTHDAY=\(1 + i % 28);BYMONTH=\(1 + i % 12)" }
    let cold = try expand(chineseRule)
    var gregorian = Double.infinity
    var chinese = Double.infinity
    var occurrences = 0
    for _ in 0..<5 {
        let g = try expand(gregorianRule)
        let c = try expand(chineseRule)
        gregorian = min(gregorian, g.seconds)
        chinese = min(chinese, c.seconds)
        occurrences = c.occurrences
    }
    let perGregorian = gregorian / Double(occurrences) * 1e9
    let perChinese = chinese / Double(occurrences) * 1e9
    print("RSCALE engine: \(series) yearly series x 100 years (\(occurrences) occurrences), best of 5")
    print(String(format: "  Gregorian:               %8.1f ns/occurrence", perGregorian))
    print(String(format: "  Chinese (years cached):  %8.1f ns/occurrence  = %.2fx Gregorian (issue 18: at most 5x)", perChinese, perChinese / perGregorian))
    print(String(format: "  Chinese, first run:      %8.1f ns/occurrence  (lays out ~100 Chinese years through ICU)", cold.seconds / Double(cold.occurrences) * 1e9))
    exit(0)
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let eventCount = arguments.first ?? 10_000
let repeats = arguments.dropFirst().first ?? 3

/// A deterministic mix of what real calendars hold: weekly meetings, daily stand-ups, monthly
/// reviews, yearly birthdays; zoned, UTC, floating and all-day; some with COUNT/UNTIL and EXDATEs.
func makeEvents(_ count: Int) -> [(CalendarItem, OccurrenceExtent)] {
    var state: UInt64 = 0x5545
    func random(_ n: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(n))
    }
    let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Sao_Paulo", "Europe/London"]
    let rules = [
        "FREQ=WEEKLY;BYDAY=MO", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
        "FREQ=MONTHLY;BYDAY=1MO", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
        "FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;COUNT=52",
        "FREQ=MONTHLY;UNTIL=20300101T000000Z", "FREQ=WEEKLY;BYDAY=WE;WKST=SU",
    ]
    var events: [(CalendarItem, OccurrenceExtent)] = []
    events.reserveCapacity(count)
    for i in 0..<count {
        let date = CalendarDate(year: 2020 + random(10), month: 1 + random(12), day: 1 + random(28))
        let kind = random(10)
        let start: CalendarDateTime
        if kind == 0 {
            start = CalendarDateTime(date: date)
        } else {
            let time = TimeOfDay(hour: 7 + random(12), minute: [0, 15, 30, 45][random(4)], second: 0)
            let reference: TimeReference = kind == 1 ? .utc : kind == 2 ? .floating : .zone(zones[random(zones.count)])
            start = CalendarDateTime(date: date, time: time, reference: reference)
        }
        var item = CalendarItem(uid: "bench-\(i)", title: "Event \(i)", start: start)
        var rule = try! RecurrenceRule(rfc5545: rules[random(rules.count)])
        if start.isDateOnly, case .until = rule.end { rule.end = .count(100) }
        item.recurrenceRules = [rule]
        if random(4) == 0 {
            item.exceptionDates = [.init(dates: [start.withWallSeconds(start.wallSecondsSinceEpoch + 7 * 86_400)])]
        }
        events.append((item, start.isDateOnly ? .duration(.init(days: 1)) : .duration(.init(minutes: 30 + 30 * random(3)))))
    }
    return events
}

let events = makeEvents(eventCount)
let from = CalendarDate(year: 2025, month: 1, day: 1).daysSinceEpoch * 86_400
let to = CalendarDate(year: 2035, month: 1, day: 1).daysSinceEpoch * 86_400
print("expanding \(events.count) recurring events over 2025-01-01 … 2035-01-01, \(repeats) runs")
var best = Double.infinity
var occurrences = 0
for run in 1...repeats {
    let clock = ContinuousClock()
    var total = 0
    let elapsed = try clock.measure {
        for (item, extent) in events {
            let set = try RecurrenceSet(master: item, extent: extent)
            total += set.occurrences(from: from, to: to).occurrences.count
        }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "run %d: %.3f s, %d occurrences", run, seconds, total))
    best = min(best, seconds)
    occurrences = total
}
print(String(format: "best: %.3f s  →  %.0f events/s, %.0f occurrences/s", best, Double(events.count) / best, Double(occurrences) / best))
