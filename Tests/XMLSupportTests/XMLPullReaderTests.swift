import Foundation
import XCTest
import XMLSupport

/// The pull reader: events, namespaces by URI, errors with line and path, and the safety
/// rules (no DTD, no entities, no foreign encodings, depth and size limits).
final class XMLPullReaderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A reader over bytes, handing them out `chunk` bytes at a time.
    func reader(_ bytes: [UInt8], chunk: Int = 4096, limits: XMLLimits = XMLLimits()) throws -> XMLPullReader {
        var offset = 0
        return try XMLPullReader(name: "test.xml", limits: limits) { buffer in
            let n = min(buffer.count, chunk, bytes.count - offset)
            guard n > 0 else { return 0 }
            buffer.copyBytes(from: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
    }

    func events(_ text: String, chunk: Int = 4096) throws -> [XMLEvent] {
        let r = try reader(Array(text.utf8), chunk: chunk)
        var out: [XMLEvent] = []
        while let e = try r.next() { out.append(e) }
        return out
    }

    func refusal(_ bytes: [UInt8], chunk: Int = 4096, limits: XMLLimits = XMLLimits()) -> XMLError? {
        do {
            let r = try reader(bytes, chunk: chunk, limits: limits)
            while try r.next() != nil {}
            return nil
        } catch let e as XMLError {
            return e
        } catch {
            XCTFail("unexpected error \(error)")
            return nil
        }
    }

    func testNamespacesAreMatchedByURINotPrefix() throws {
        let prefixed = try events(#"<D:multistatus xmlns:D="DAV:"><D:href>/a</D:href></D:multistatus>"#)
        let radicaleStyle = try events(#"<multistatus xmlns="DAV:"><href>/a</href></multistatus>"#)
        let other = try events(#"<x:multistatus xmlns:x="DAV:"><x:href>/a</x:href></x:multistatus>"#)
        XCTAssertEqual(prefixed, radicaleStyle)
        XCTAssertEqual(prefixed, other)
        XCTAssertEqual(prefixed.first, .start(XMLName("DAV:", "multistatus"), attributes: []))
        XCTAssertEqual(prefixed[2], .text("/a"))
    }

    func testEmptyElementsYieldStartAndEndAndAttributesKeepTheirNamespace() throws {
        let e = try events(#"<c:comp xmlns:c="urn:ietf:params:xml:ns:caldav" name="VEVENT" c:x="1"/>"#)
        let name = XMLName("urn:ietf:params:xml:ns:caldav", "comp")
        XCTAssertEqual(
            e,
            [
                .start(
                    name,
                    attributes: [
                        XMLAttribute(XMLName("", "name"), "VEVENT"), XMLAttribute(XMLName("urn:ietf:params:xml:ns:caldav", "x"), "1"),
                    ]),
                .end(name),
            ])
    }

    func testCDATAAndCharacterReferencesArriveAsText() throws {
        let r = try reader(Array("<a><![CDATA[BEGIN:VCALENDAR\r\n<x>]]>&#13;&amp;&lt;</a>".utf8))
        guard case .start(let a, _)? = try r.next() else { return XCTFail("no start") }
        let text = try r.readText(of: a)
        XCTAssertEqual(Array(text.utf8), Array("BEGIN:VCALENDAR\r\n<x>\r&<".utf8), text.debugDescription)
    }

    func testMalformedInputReportsLineAndPath() {
        let text = "<multistatus xmlns=\"DAV:\">\n<response>\n<href>/a</href>\n</responze>\n</multistatus>"
        let error = refusal(Array(text.utf8))
        XCTAssertEqual(error?.kind, .malformed)
        XCTAssertEqual(error?.line, 4)
        // libxml2 parses ahead of the events, so the path is where the reader stood; the line is exact.
        XCTAssertTrue(error?.message.contains("responze") ?? false)
        XCTAssertTrue(error?.description.hasPrefix("test.xml:4: ") ?? false, "\(String(describing: error))")
    }

    func testPathCountsSiblings() throws {
        let r = try reader(Array("<m><r/><r><h>x</h></r></m>".utf8))
        var paths: [String] = []
        while let e = try r.next() {
            if case .start = e { paths.append(r.path) }
        }
        XCTAssertEqual(paths, ["/m", "/m/r", "/m/r[2]", "/m/r[2]/h"])
    }

    /// Names by number, attributes from the reader and sibling indexes tell the same document
    /// as the named events, across chunks (names first met in a later chunk included), and the
    /// counts of one element's children do not leak into its next sibling's.
    func testNumberedNodesTellWhatNamedEventsTell() throws {
        let document = Array(
            #"<m xmlns="urn:a"><r k="1"/><r><h>x</h><h/><g/></r><q:z xmlns:q="urn:b" q:v="2"><h/></q:z><r><h/></r></m>"#.utf8)
        let named = try reader(document, chunk: 7)
        var expected: [String] = []
        while let e = try named.next() {
            if case .start(let name, let attributes) = e {
                expected.append("\(name) \(attributes.map { "\($0.name)=\($0.value)" }) \(named.path)")
            }
        }
        let numbered = try reader(document, chunk: 7)
        var seen: [String] = []
        var indexes: [Int] = []
        while let node = try numbered.nextNumberedNode() {
            if case .start(let number, let index) = node {
                let attributes = numbered.startedAttributes.map { "\($0.name)=\($0.value)" }
                seen.append("\(numbered.name(numbered: number)) \(attributes) \(numbered.path)")
                indexes.append(index)
            }
        }
        XCTAssertEqual(seen, expected)
        XCTAssertEqual(indexes, [1, 1, 2, 1, 2, 1, 1, 1, 3, 1])
        XCTAssertEqual(expected.last, "{urn:a}h [] /m/r[3]/h")
    }

    func testBillionLaughsIsRefusedNotExpanded() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("billion-laughs.xml")))
        for chunk in [1, 7, 4096] {
            let error = refusal(bytes, chunk: chunk)
            XCTAssertEqual(error?.kind, .documentType, "chunk \(chunk)")
            XCTAssertTrue(error?.message.contains("entity expansion") ?? false)
        }
    }

    func testExternalEntitiesAreRefusedAndNoFileIsRead() throws {
        for name in ["xxe-local-file.xml", "xxe-parameter-entity.xml"] {
            let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            let error = refusal(bytes, chunk: 3)
            XCTAssertEqual(error?.kind, .documentType, name)
            XCTAssertTrue(error?.message.contains("external entities") ?? false, name)
        }
    }

    func testUndeclaredEntityIsAnError() {
        XCTAssertEqual(refusal(Array("<a>&secret;</a>".utf8))?.kind, .malformed)
    }

    func testOnlyUTF8IsAccepted() {
        let utf16 = [UInt8]("<a/>".data(using: .utf16)!)
        XCTAssertEqual(refusal(utf16)?.kind, .unsupportedEncoding)
        XCTAssertEqual(refusal(Array(#"<?xml version="1.0" encoding="UTF-7"?><a/>"#.utf8))?.kind, .unsupportedEncoding)
        XCTAssertNil(refusal(Array("\u{FEFF}<?xml version='1.0' encoding='UTF-8'?><a>é</a>".utf8)))
    }

    func testDepthLimit() {
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        let error = refusal(Array(deep.utf8), limits: XMLLimits(maximumDepth: 32))
        XCTAssertEqual(error?.kind, .tooDeep)
        XCTAssertNil(refusal(Array(deep.utf8), limits: XMLLimits(maximumDepth: 40)))
    }

    func testTextSizeLimit() {
        let big = "<a>" + String(repeating: "x", count: 5000) + "</a>"
        XCTAssertEqual(refusal(Array(big.utf8), limits: XMLLimits(maximumTextBytes: 1000))?.kind, .tooLarge)
    }

    /// A 3.4 MB attribute value that never closed took libxml2 8 s (it rescans an unfinished
    /// tag on every chunk, issue 21's mutation run): a tag, comment or processing instruction
    /// longer than the limit is refused as it streams in; text and CDATA are not markup.
    func testMarkupLongerThanTheLimitIsRefusedTextAndCDATAAreNot() {
        let value = String(repeating: "x>'", count: 2000)
        let tag = #"<a b=""# + value + #""/>"#
        XCTAssertEqual(refusal(Array(tag.utf8), limits: XMLLimits(maximumMarkupBytes: 1000))?.kind, .tooLarge)
        XCTAssertNil(refusal(Array(tag.utf8), limits: XMLLimits(maximumMarkupBytes: 7000)))
        let comment = "<a><!--" + String(repeating: "x> '\"", count: 500) + "--></a>"
        XCTAssertEqual(refusal(Array(comment.utf8), limits: XMLLimits(maximumMarkupBytes: 1000))?.kind, .tooLarge)
        let text = "<a>" + String(repeating: "x ' \" ", count: 1000) + "<![CDATA[" + String(repeating: "<b c='", count: 1000) + "]]></a>"
        XCTAssertNil(refusal(Array(text.utf8), chunk: 7, limits: XMLLimits(maximumMarkupBytes: 100)))
        let unclosed = #"<a b=""# + String(repeating: "/href>", count: 600_000)
        let started = Double(clock()) / Double(CLOCKS_PER_SEC)
        XCTAssertEqual(refusal(Array(unclosed.utf8))?.kind, .tooLarge)
        XCTAssertLessThan(Double(clock()) / Double(CLOCKS_PER_SEC) - started, 5, "processor seconds")
    }

    /// A comment's or CDATA section's opening split across chunks anywhere is still told from
    /// a tag's: a comment longer than the limit is refused, a CDATA section is not.
    func testMarkupOpeningsSplitAcrossChunksAreToldApart() {
        let comment = "<a>" + "<!--" + String(repeating: "x", count: 300) + "--></a>"
        let cdata = "<a>" + "<![CDATA[" + String(repeating: "<b c='", count: 100) + "]]></a>"
        let tags = "<a>" + String(repeating: #"<b c="1"/><!-- - --><![CDATA[x]]>"#, count: 40) + "</a>"
        for chunk in 1...10 {
            let limits = XMLLimits(maximumMarkupBytes: 100)
            XCTAssertEqual(refusal(Array(comment.utf8), chunk: chunk, limits: limits)?.kind, .tooLarge, "chunk \(chunk)")
            XCTAssertNil(refusal(Array(cdata.utf8), chunk: chunk, limits: limits), "chunk \(chunk)")
            XCTAssertNil(refusal(Array(tags.utf8), chunk: chunk, limits: XMLLimits(maximumMarkupBytes: 12)), "chunk \(chunk)")
        }
    }

    /// A tree's children are numbered among their siblings of the same name, or of the same
    /// local name in any namespace, each element's children from 1; trees read one after
    /// another, of different widths, keep all their children.
    func testTreePathsCountSiblingsByNameOrByLocalName() throws {
        let tree = #"<r><a:x/><b:x><y/><y/></b:x><a:x><y/><a:y/></a:x><z/></r>"#
        let wider = #"<r><z/><a:x/><a:x/><b:x/><z/><y><y/></y></r>"#
        let text = #"<list xmlns:a="urn:a" xmlns:b="urn:b">"# + tree + wider + tree + "</list>"
        func paths(byLocalName: Bool) throws -> [[String]] {
            let r = try reader(Array(text.utf8), chunk: 5)
            var trees: [[String]] = []
            while let event = try r.next() {
                guard case .start(let name, let attributes) = event, name.local == "r" else { continue }
                let tree = try r.readTree(start: name, attributes: attributes, siblingsByLocalName: byLocalName)
                var out: [String] = []
                func walk(_ e: XMLElement) {
                    out.append(e.path)
                    e.children.forEach(walk)
                }
                walk(tree)
                trees.append(out)
            }
            return trees
        }
        let byName = [
            "/list/r", "/list/r/x", "/list/r/x", "/list/r/x/y", "/list/r/x/y[2]", "/list/r/x[2]", "/list/r/x[2]/y", "/list/r/x[2]/y",
            "/list/r/z",
        ]
        let byLocalName = [
            "/list/r", "/list/r/x", "/list/r/x[2]", "/list/r/x[2]/y", "/list/r/x[2]/y[2]", "/list/r/x[3]", "/list/r/x[3]/y",
            "/list/r/x[3]/y[2]",
            "/list/r/z",
        ]
        let widerByName = [
            "/list/r[2]", "/list/r[2]/z", "/list/r[2]/x", "/list/r[2]/x[2]", "/list/r[2]/x", "/list/r[2]/z[2]", "/list/r[2]/y",
        ]
        let widerByLocalName = [
            "/list/r[2]", "/list/r[2]/z", "/list/r[2]/x", "/list/r[2]/x[2]", "/list/r[2]/x[3]", "/list/r[2]/z[2]", "/list/r[2]/y",
        ]
        for (local, first, second) in [(false, byName, widerByName), (true, byLocalName, widerByLocalName)] {
            let third = first.map { "/list/r[3]" + $0.dropFirst("/list/r".count) }
            XCTAssertEqual(try paths(byLocalName: local), [first, second + ["/list/r[2]/y/y"], third], "by local name: \(local)")
        }
    }

    func testAFailingSourceIsReported() {
        struct Broken: Error {}
        let b = Array("<a><b>".utf8)
        var offset = 0
        do {
            let r = try XMLPullReader(name: "broken.xml") { buffer in
                guard offset < b.count else { throw Broken() }
                let n = min(buffer.count, b.count - offset)
                buffer.copyBytes(from: b[offset..<(offset + n)])
                offset += n
                return n
            }
            while try r.next() != nil {}
            XCTFail("no error")
        } catch let e as XMLError {
            XCTAssertEqual(e.kind, .io)
        } catch {
            XCTFail("\(error)")
        }
    }

    func testSubtreeIsReserializedWithItsNamespaces() throws {
        let text =
            #"<D:prop xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:calendar-data><icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar a="1&amp;"/></icalendar></C:calendar-data></D:prop>"#
        let r = try reader(Array(text.utf8))
        _ = try r.next()
        _ = try r.next()
        guard case .start(let name, let attributes)? = try r.next() else { return XCTFail() }
        let bytes = try r.readElement(start: name, attributes: attributes).serialized()
        let again = try reader(bytes)
        var out: [XMLEvent] = []
        while let e = try again.next() { out.append(e) }
        let ns = "urn:ietf:params:xml:ns:icalendar-2.0"
        XCTAssertEqual(
            out,
            [
                .start(XMLName(ns, "icalendar"), attributes: []),
                .start(XMLName(ns, "vcalendar"), attributes: [XMLAttribute(XMLName("", "a"), "1&")]), .end(XMLName(ns, "vcalendar")),
                .end(XMLName(ns, "icalendar")),
            ])
        XCTAssertEqual(try r.next(), .end(XMLName("urn:ietf:params:xml:ns:caldav", "calendar-data")))
        XCTAssertEqual(try r.next(), .end(XMLName("DAV:", "prop")))
    }
}
