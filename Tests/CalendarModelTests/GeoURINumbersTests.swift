import CalendarModel
import XCTest

/// `GeoCoordinate.numbers(inGeoURI:)`, shared by the ICS mapper's Apple structured location and
/// the JSCalendar reader: the numbers before any `;`, empty ones kept, never an index trap.
final class GeoURINumbersTests: XCTestCase {
    func testNumbersBeforeTheParameters() {
        XCTAssertEqual(GeoCoordinate.numbers(inGeoURI: "geo:37.786971,-122.399677"), ["37.786971", "-122.399677"])
        XCTAssertEqual(GeoCoordinate.numbers(inGeoURI: "GEO:1,2,30;crs=wgs84;u=40"), ["1", "2", "30"])
    }

    func testEmptyPartsAreKeptSoAReaderCanRefuseThem() {
        XCTAssertEqual(GeoCoordinate.numbers(inGeoURI: "geo:1,,2"), ["1", "", "2"])
        XCTAssertEqual(GeoCoordinate.numbers(inGeoURI: "geo:"), [])
        XCTAssertEqual(GeoCoordinate.numbers(inGeoURI: "geo:;u=1"), [])
    }

    func testOtherTextIsNoGeoURI() {
        XCTAssertNil(GeoCoordinate.numbers(inGeoURI: ""))
        XCTAssertNil(GeoCoordinate.numbers(inGeoURI: "geo"))
        XCTAssertNil(GeoCoordinate.numbers(inGeoURI: "https://maps.example.com/?q=1,2"))
    }
}
