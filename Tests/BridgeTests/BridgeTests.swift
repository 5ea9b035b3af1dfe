import CICUShim
import CLibXML2
import XCTest

/// Proves both C bridges with a real call each, in a module that also sees Foundation
/// (XCTest imports it): the clash STYLE.md describes would fail this file's build.
final class BridgeTests: XCTestCase {
    func testICUShimMapsAWindowsZoneThroughCLDR() {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = cp_icu_windows_to_iana("W. Europe Standard Time", nil, &buffer, 128)
        XCTAssertGreaterThan(length, 0)
        XCTAssertEqual(String(cString: buffer), "Europe/Berlin")
        XCTAssertEqual(cp_icu_windows_to_iana("No Such Zone", nil, &buffer, 128), 0)
    }

    func testICUShimReportsItsVersion() {
        var buffer = [CChar](repeating: 0, count: 32)
        XCTAssertGreaterThan(cp_icu_version(&buffer, 32), 0)
        XCTAssertTrue(String(cString: buffer).first?.isNumber ?? false)
    }

    func testLibXML2ParsesADocumentWithNamespaces() throws {
        let xml = #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a.ics</d:href></d:response></d:multistatus>"#
        let document = try XCTUnwrap(xml.withCString { xmlReadMemory($0, Int32(strlen($0)), "test.xml", nil, Int32(XML_PARSE_NONET.rawValue)) })
        defer { xmlFreeDoc(document) }
        let root = try XCTUnwrap(xmlDocGetRootElement(document))
        XCTAssertEqual(String(cString: root.pointee.name), "multistatus")
        XCTAssertEqual(String(cString: root.pointee.ns.pointee.href), "DAV:")
    }
}
