import CalendarModel
import CalendarTestSupport
import Foundation
import ICalendarData
import JCalCoding
import XCTest

/// `ICalendarRemainder.between(original:reconstructed:mapper:)` against the whole-tree comparison
/// on every event of the shared corpus's real-world files: each event with itself, with its
/// neighbours in the corpus (unrelated events: most fields differ), and with copies that lose or
/// change one field at a time, as a writer's read-back does.
final class ICalendarRemainderCorpusTests: XCTestCase {
    let mapper = ICalendarMapper()

    func testTheFieldComparisonGivesTheWholeTreeComparisonsRemainderOnTheCorpus() throws {
        var events: [Event] = []
        for file in RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot) {
            guard let bytes = try? Array(Data(contentsOf: file)), let read = try? OccurrenceList.events(ofICS: bytes, name: file.path)
            else { continue }
            events += read
        }
        try XCTSkipIf(events.count < 100, "the shared corpus is not beside the repository")
        var compared = 0
        var nonEmpty = 0
        func check(_ a: Event, _ b: Event, _ what: @autoclosure () -> String) {
            let whole = ICalendarRemainder.between(
                original: mapper.component(from: .event(a)), reconstructed: mapper.component(from: .event(b)))
            let byFields = ICalendarRemainder.between(original: a, reconstructed: b, mapper: mapper)
            compared += 1
            if !whole.isEmpty { nonEmpty += 1 }
            if byFields != whole {
                XCTFail("\(what()): by fields \(byFields) but whole trees \(whole)")
            }
        }
        for (i, e) in events.enumerated() {
            let uid = e.uid ?? "#\(i)"
            check(e, e, "\(uid) with itself")
            let next = events[(i + 1) % events.count]
            check(e, next, "\(uid) against the next event")
            check(next, e, "the next event against \(uid)")
            for (name, changed) in Self.changes(of: e, using: next) {
                check(e, changed, "\(uid) against itself with \(name)")
                check(changed, e, "\(uid) with \(name) against itself")
            }
        }
        XCTAssertGreaterThan(nonEmpty, compared / 4, "most pairs must differ, or the test shows nothing")
    }

    /// Copies of `e` with one field lost or taken from `other`.
    static func changes(of e: Event, using other: Event) -> [(String, Event)] {
        var result: [(String, Event)] = []
        func add(_ name: String, _ change: (inout Event) -> Void) {
            var c = e
            change(&c)
            result.append((name, c))
        }
        add("no title") { $0.title = nil }
        add("the other's start") { $0.start = other.start }
        add("no end") { $0.end = nil }
        add("the other's end") { $0.end = other.end }
        add("the other's duration") { $0.duration = other.duration }
        add("no uid") { $0.uid = nil }
        add("no timestamp") { $0.item.timestamp = nil }
        add("attendees reversed") { $0.attendees.reverse() }
        add("the first attendee without a name") { if !$0.attendees.isEmpty { $0.attendees[0].name = nil } }
        add("the other's attendees") { $0.attendees = other.attendees }
        add("no organizer") { $0.item.organizer = nil }
        add("no generic properties") { $0.properties = [] }
        add("the other's generic properties") { $0.properties = other.properties }
        add("no alarms") { $0.alarms = [] }
        add("no rules") { $0.recurrenceRules = [] }
        add("the other's exception dates") { $0.exceptionDates = other.exceptionDates }
        add("no recorded parameters") { $0.item.propertyParameters = [:] }
        add("the other's status") { $0.status = other.status }
        add("the other's transparency") { $0.transparency = other.transparency }
        add("the other's categories") { $0.categories = other.categories }
        add("no location") { $0.location = nil }
        add("the other's sequence") { $0.item.sequence = other.item.sequence }
        return result
    }
}
