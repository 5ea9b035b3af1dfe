import CalendarModel
import ExchangeData
import XCTest

/// Rules Exchange can hold come back exactly; rules it cannot hold throw `Unrepresentable`
/// with the reason, never a changed rule; and the words of both spellings.
final class ExchangeRuleConversionTests: XCTestCase {
    let berlin = CalendarDateTime(
        date: CalendarDate(year: 2024, month: 1, day: 31), time: TimeOfDay(hour: 9, minute: 30, second: 0),
        reference: .zone("Europe/Berlin"))

    func testRulesExchangeHoldsComeBackExactly() throws {
        let rules = [
            "FREQ=DAILY;INTERVAL=3;COUNT=10", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=SU", "FREQ=WEEKLY;BYDAY=WE",
            "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=MONTHLY;BYDAY=SU,SA;BYSETPOS=1", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYMONTHDAY=15",
            "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30;BYSETPOS=-1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1",
            "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=3;BYDAY=SU,MO,TU,WE,TH,FR,SA;BYSETPOS=-1",
            "FREQ=WEEKLY;UNTIL=20240501T215959Z;BYDAY=WE",  // UNTIL as Exchange means it: the last day's end
        ]
        for text in rules {
            let rule = try RecurrenceRule(rfc5545: text)
            let exchange = try ExchangeRecurrence(rule: rule, start: berlin)
            XCTAssertEqual(exchange.recurrenceRule(start: berlin).rfc5545Text, rule.rfc5545Text, text)
        }
    }

    func testUntilBecomesTheLastDayInThePatternsZone() throws {
        // 2024-05-01T07:59:59Z is 09:59:59 in Berlin: the 09:30 occurrence that day is in.
        var exchange = try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20240501T075959Z"), start: berlin)
        XCTAssertEqual(exchange.range.endDate, CalendarDate(year: 2024, month: 5, day: 1))
        // 07:00Z is 09:00 there, before the occurrence: the last day is the day before.
        exchange = try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: "FREQ=DAILY;UNTIL=20240501T070000Z"), start: berlin)
        XCTAssertEqual(exchange.range.endDate, CalendarDate(year: 2024, month: 4, day: 30))
        XCTAssertEqual(exchange.recurrenceRule(start: berlin).rfc5545Text, "FREQ=DAILY;UNTIL=20240430T215959Z")
    }

    func testEveryWeekdayDailyIsWeekly() throws {
        let exchange = try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"), start: berlin)
        XCTAssertEqual(exchange.pattern.kind, .weekly)
        XCTAssertEqual(exchange.recurrenceRule(start: berlin).rfc5545Text, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    }

    func testRulesExchangeCannotHoldThrowWithTheReason() throws {
        let cases = [
            ("FREQ=HOURLY", "HOURLY"), ("FREQ=DAILY;BYHOUR=9,17", "BYHOUR"), ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1,-1", "several BYSETPOS"),
            ("FREQ=MONTHLY;BYDAY=-2FR", "-2"), ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO"), ("FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY"),
            ("FREQ=MONTHLY;BYMONTHDAY=31", "day 31"), ("FREQ=MONTHLY;BYDAY=MO", "every matching weekday"),
            ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "day 29"), ("FREQ=MONTHLY;BYMONTHDAY=1,15", "several BYMONTHDAY"),
            ("FREQ=MONTHLY;BYDAY=5SU", "5."), ("FREQ=DAILY;INTERVAL=2;BYDAY=MO", "BYDAY"), ("FREQ=YEARLY;BYMONTH=1,7", "several BYMONTH"),
            ("FREQ=MONTHLY", "day 31"),  // DTSTART on the 31st: RFC 5545 skips short months
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: text), start: berlin), text) { error in
                let unrepresentable = error as? ExchangeRecurrence.Unrepresentable
                XCTAssertNotNil(unrepresentable, text)
                XCTAssertTrue(unrepresentable?.reason.contains(reason) ?? false, "\(text): \(String(describing: unrepresentable))")
            }
        }
    }

    func testWhatEachSyntaxCanSpell() throws {
        let twoDays = try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: "FREQ=MONTHLY;BYDAY=MO,WE;BYSETPOS=2"), start: berlin)
        XCTAssertNotNil(twoDays.unrepresentableReason(in: .ews))
        XCTAssertNil(twoDays.unrepresentableReason(in: .graph))
        let weekdays = try ExchangeRecurrence(rule: RecurrenceRule(rfc5545: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1"), start: berlin)
        XCTAssertNil(weekdays.unrepresentableReason(in: .ews))
        XCTAssertEqual(weekdays.ewsRelativeDay, .weekdays)
        let everyFourYears = try ExchangeRecurrence(
            rule: RecurrenceRule(rfc5545: "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=-1"), start: berlin)
        XCTAssertNotNil(everyFourYears.unrepresentableReason(in: .ews))
        XCTAssertNil(everyFourYears.unrepresentableReason(in: .graph))
    }

    func testWords() {
        for status in ExchangeBusyStatus.allCases {
            XCTAssertEqual(ExchangeBusyStatus(ews: status.ews), status)
            XCTAssertEqual(ExchangeBusyStatus(graph: status.graph), status)
            XCTAssertEqual(ExchangeBusyStatus(cdo: status.cdo), status)
        }
        XCTAssertEqual(ExchangeBusyStatus.free.transparency, "TRANSPARENT")
        XCTAssertEqual(ExchangeBusyStatus.outOfOffice.availability, .unavailable)
        XCTAssertEqual(ExchangeSensitivity(word: "Personal")?.classification, .private)
        XCTAssertEqual(ExchangeSensitivity(classification: .private, keptWord: "Personal"), .personal)
        XCTAssertEqual(ExchangeSensitivity(classification: .confidential, keptWord: "Personal"), .confidential)
        XCTAssertEqual(ExchangeImportance(priority: 3), .high)
        XCTAssertEqual(ExchangeImportance(priority: 0), .normal)
        XCTAssertEqual(ExchangeImportance(priority: 7), .low)
        XCTAssertEqual(ExchangeImportance.high.priority, 1)
        XCTAssertEqual(ExchangeVocabulary.ews.status(for: "NoResponseReceived"), .pending)
        XCTAssertEqual(ExchangeVocabulary.ews.word(for: ParticipantStatus.tentative), "Tentative")
        XCTAssertEqual(ExchangeVocabulary.graph.status(for: "tentativelyAccepted"), .tentative)
        XCTAssertEqual(ExchangeVocabulary.ews.word(for: ParticipantType.room), "Mailbox")
        XCTAssertEqual(ExchangeDayOfWeek.list(ews: "Monday Weekday"), [.weekday(.monday), .weekdays])
        XCTAssertEqual(ExchangeRecurrence.Pattern.Kind(ewsElement: "RelativeYearlyRecurrence"), .relativeYearly)
    }
}
