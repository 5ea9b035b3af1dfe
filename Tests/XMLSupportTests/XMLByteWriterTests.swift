import XCTest
import XMLSupport

/// The byte writer: layout, escaping, namespace declarations, and what it reads back as.
final class XMLByteWriterTests: XCTestCase {
    func testLayoutAndNamespaces() {
        var w = XMLByteWriter(namespaces: [("d", "DAV:"), ("c", "urn:ietf:params:xml:ns:caldav")])
        w.declaration()
        w.start(XMLName("DAV:", "multistatus"))
        w.start(XMLName("DAV:", "response"))
        w.element(XMLName("DAV:", "href"), text: "/a b&c.ics")
        w.emptyElement(XMLName("urn:ietf:params:xml:ns:caldav", "comp"), attributes: [XMLAttribute(XMLName("", "name"), "VEVENT\"")])
        w.element(XMLName("http://apple.com/ns/ical/", "calendar-color"), text: "#FF0000")
        w.end()
        w.end()
        XCTAssertEqual(
            String(decoding: w.takeBytes(), as: UTF8.self),
            """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:response>
                <d:href>/a b&amp;c.ics</d:href>
                <c:comp name="VEVENT&quot;"/>
                <ns1:calendar-color xmlns:ns1="http://apple.com/ns/ical/">#FF0000</ns1:calendar-color>
              </d:response>
            </d:multistatus>

            """)
    }

    func testCarriageReturnsSurviveAndUnrepresentableCharactersAreCounted() throws {
        var w = XMLByteWriter(namespaces: [("", "urn:x")])
        w.element(XMLName("urn:x", "data"), text: "A\r\nB\u{1}C<>")
        XCTAssertEqual(w.replacedCharacters, 1)
        let bytes = w.takeBytes()
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "<data xmlns=\"urn:x\">A&#13;\nB\u{FFFD}C&lt;&gt;</data>\n")
        var offset = 0
        let r = try XMLPullReader(name: "w") { buffer in
            let n = min(buffer.count, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
        guard case .start(let name, _)? = try r.next() else { return XCTFail() }
        XCTAssertEqual(try r.readText(of: name), "A\r\nB\u{FFFD}C<>")
    }
}
