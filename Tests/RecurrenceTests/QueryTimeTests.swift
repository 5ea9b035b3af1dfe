import Recurrence
import XCTest

/// The WHEN forms of `--start` / `--end`.
final class QueryTimeTests: XCTestCase {
    func testEveryForm() throws {
        XCTAssertEqual(try QueryTime.parse("2024-05-01"), T.utc("20240501T000000"))
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00"), T.utc("20240501T090000"))
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00:30Z"), T.utc("20240501T090030"))
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00+02:00"), T.utc("20240501T070000"))
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00:00-0500"), T.utc("20240501T140000"))
        // Without a zone, the --tz zone: Berlin is at +02:00 in May.
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00", defaultZone: "Europe/Berlin"), T.utc("20240501T070000"))
        XCTAssertEqual(try QueryTime.parse("2024-05-01", defaultZone: "Europe/Berlin"), T.utc("20240430T220000"))
        // With an offset, the zone does not matter.
        XCTAssertEqual(try QueryTime.parse("2024-05-01T09:00Z", defaultZone: "Europe/Berlin"), T.utc("20240501T090000"))
    }

    func testRejectsWhatIsNotAWhen() {
        for text in [
            "yesterday", "2024-02-30", "2024-05-01T25:00", "2024-05-01T09", "2024-05-01T09:00+2", "2024-05-01T09:00Zx", "20240501",
        ] {
            XCTAssertThrowsError(try QueryTime.parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(text), "\(error)")
            }
        }
        XCTAssertThrowsError(try RecurrenceQuery(startText: "2024-05-02", endText: "2024-05-01", expand: false))
        XCTAssertThrowsError(try RecurrenceQuery(startText: nil, endText: nil, expand: true, maxOccurrences: 0))
    }
}
