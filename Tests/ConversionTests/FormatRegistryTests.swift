import CalendarModel
import Conversion
import ICSFormat
import XCTest

final class FormatRegistryTests: XCTestCase {
    func testADuplicateIdIsRefused() {
        XCTAssertThrowsError(try FormatRegistry([ICSFormat(), ICSFormat()]))
    }

    func testLookupsByIdExtensionAndContent() {
        let registry = StandardFormats.registry
        XCTAssertEqual(registry.format(id: "ICS")?.id, "ics")
        XCTAssertEqual(registry.format(forExtension: "ICS")?.id, "ics")
        XCTAssertEqual(registry.format(sniffing: Array("\u{FEFF}\r\nbegin:vcalendar\r\n".utf8))?.id, "ics")
        // A calendar CSV header is recognized (the flat `csv` id reads every CSV layout); other text is not.
        XCTAssertEqual(registry.format(sniffing: Array("Subject,Start Date".utf8))?.id, "csv")
        XCTAssertNil(registry.format(sniffing: Array("name,email\nx,y".utf8)))
    }
}
