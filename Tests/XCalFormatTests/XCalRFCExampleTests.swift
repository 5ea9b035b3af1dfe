import CalendarModel
import CalendarTestSupport
import Foundation
import XCTest
import XMLSupport

/// RFC 6321's own examples: Appendix B's two calendars both ways, the value and parameter
/// examples of §3, and the unknown-property examples of §5.
final class XCalRFCExampleTests: XCTestCase {
    /// ICS → xCal equals the RFC's XML as a tree, and equals the golden file byte for byte.
    func checkAppendix(_ example: String, rfcXML: URL, ignoringProductID: Bool = false) throws {
        let ics = try XCalTestSupport.bytes(XCalTestSupport.rfcFolder.appendingPathComponent("appendix-\(example)-ical.ics"))
        let xml = try XCalTestSupport.convert(ics, from: "ics", to: "xcal")
        let expected = try XCalTestSupport.bytes(rfcXML)
        let dropped: Set<String> = ignoringProductID ? ["prodid"] : []
        XCTAssertEqual(
            XCalTestSupport.canonical(try XCalTestSupport.tree(xml), dropping: dropped),
            XCalTestSupport.canonical(try XCalTestSupport.tree(expected), dropping: dropped),
            "appendix \(example): ICS → xCal differs from the RFC's XML")
        let golden = try XCalTestSupport.bytes(XCalTestSupport.fixtures.appendingPathComponent("rfc6321/appendix-\(example).expected.xml"))
        XCTAssertEqual(String(decoding: xml, as: UTF8.self), String(decoding: golden, as: UTF8.self))
        // And back: the RFC's XML read as xCal says what the RFC's ICS says.
        let log = DiagnosticLog()
        let back = try XCalTestSupport.convert(expected, from: "xcal", to: "ics", log: log)
        func trees(_ bytes: [UInt8]) throws -> [RoundTripCheck.CalendarTree] {
            try RoundTripCheck.trees(of: bytes).map { tree in
                var t = tree
                if ignoringProductID { t.properties.removeAll { $0.hasPrefix("PRODID") } }
                return t
            }
        }
        let difference = RoundTripCheck.difference(try trees(ics), try trees(back))
        XCTAssertNil(difference, "appendix \(example): xCal → ICS: \(difference ?? "")")
    }

    func testAppendixB1BothWays() throws {
        try checkAppendix("B.1", rfcXML: XCalTestSupport.rfcFolder.appendingPathComponent("appendix-B.1-xcal.xml"))
    }

    /// B.2 has flaws of its own (Fixtures/rfc6321/README.md): the XML writes
    /// `<tzid>US/Eastern</tzid>` without the `<text>` its schema requires, and wraps the
    /// DESCRIPTION text at page width with real line breaks (the fixture corrects exactly
    /// these; the RFC's file still reads, with a warning); the iCalendar text lacks
    /// `BEGIN:VCALENDAR` (read leniently); its PRODID says "Example Corp." where the XML says
    /// "Example Inc." (the one difference allowed).
    func testAppendixB2BothWays() throws {
        let rfc = try String(
            decoding: XCalTestSupport.bytes(XCalTestSupport.rfcFolder.appendingPathComponent("appendix-B.2-xcal.xml")), as: UTF8.self)
        let corrected = try String(
            decoding: XCalTestSupport.bytes(XCalTestSupport.fixtures.appendingPathComponent("rfc6321/appendix-B.2-corrected.xml")),
            as: UTF8.self)
        let repaired = rfc.replacingOccurrences(of: "<tzid>US/Eastern</tzid>", with: "<tzid><text>US/Eastern</text></tzid>")
            .replacingOccurrences(of: "12\npm", with: "12 pm").replacingOccurrences(of: "day\n2", with: "day 2")
            .replacingOccurrences(of: "12 pm\nmeetings", with: "12 pm meetings")
        XCTAssertEqual(repaired, corrected, "the fixture corrects exactly what README.md lists")
        try checkAppendix(
            "B.2", rfcXML: XCalTestSupport.fixtures.appendingPathComponent("rfc6321/appendix-B.2-corrected.xml"), ignoringProductID: true)
        // The uncorrected file reads too, with a warning naming the place.
        let log = DiagnosticLog()
        _ = try XCalTestSupport.convert(Array(rfc.utf8), from: "xcal", to: "ics", log: log)
        XCTAssertEqual(log.diagnostics.map(\.location), ["/icalendar/vcalendar/components/vtimezone/properties/tzid"])
        XCTAssertThrowsError(try XCalTestSupport.convert(Array(rfc.utf8), from: "xcal", to: "ics", strict: true))
    }

    /// Each row of Fixtures/rfc6321/value-examples.txt: an RFC §3 example body file, the
    /// property it is wrapped in, and the iCalendar content line it must read as. Both ways:
    /// the line written as xCal gives back the RFC's element.
    func testSection3ValueAndParameterExamples() throws {
        let table = try String(
            decoding: XCalTestSupport.bytes(XCalTestSupport.fixtures.appendingPathComponent("rfc6321/value-examples.txt")), as: UTF8.self)
        var rows = 0
        for line in table.split(separator: "\n") where !line.hasPrefix("#") {
            let cells = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            XCTAssertEqual(cells.count, 4, "bad row \(line)")
            let (file, property, ics, ellipsis) = (cells[0], cells[1], cells[2], cells[3])
            let text = try String(
                decoding: XCalTestSupport.bytes(XCalTestSupport.rfcFolder.appendingPathComponent("body/\(file)")), as: UTF8.self)
            let snippet = Self.valueElements(of: property, in: text, ellipsis: ellipsis)
            let document = """
                <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0"><vcalendar><properties>\
                <version><text>2.0</text></version><prodid><text>-//x//y//EN</text></prodid></properties><components><vevent><properties>
                <\(property)>\(snippet)</\(property)>
                </properties></vevent></components></vcalendar></icalendar>
                """
            let out = String(decoding: try XCalTestSupport.convert(Array(document.utf8), from: "xcal", to: "ics"), as: UTF8.self)
            let lines = out.replacingOccurrences(of: "\r\n ", with: "").split(separator: "\r\n").map(String.init)
            let oneWay = ics.hasPrefix("!")
            let expectedLine = oneWay ? String(ics.dropFirst()) : ics
            XCTAssertTrue(lines.contains(expectedLine), "\(file): expected \(expectedLine) in\n\(out)")
            rows += 1
            if oneWay { continue }
            // Back: the content line as xCal holds the RFC's element.
            let calendar =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\n\(ics)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let xml = try XCalTestSupport.tree(try XCalTestSupport.convert(Array(calendar.utf8), from: "ics", to: "xcal"))
            let propertyElement = try XCTUnwrap(
                xml.children.first?.children.first { $0.name.local == "components" }?.children.first?.children.first?.children.first {
                    $0.name.local == property
                },
                file)
            let expected = try XCalTestSupport.tree(
                Array("<\(property) xmlns=\"urn:ietf:params:xml:ns:icalendar-2.0\">\(snippet)</\(property)>".utf8))
            XCTAssertEqual(XCalTestSupport.canonical(propertyElement), XCalTestSupport.canonical(expected), file)
        }
        XCTAssertEqual(rows, 17)
    }

    /// What goes inside `<property>`: the file itself when it is a bare value element, else the
    /// content of the property element it shows, with "..." lines replaced.
    static func valueElements(of property: String, in text: String, ellipsis: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let open = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "<\(property)>" }),
            let close = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "</\(property)>" })
        else { return text }
        return lines[(open + 1)..<close].map { $0.trimmingCharacters(in: .whitespaces) == "..." ? ellipsis : $0 }.joined(separator: "\n")
    }

    /// §5: an unrecognized property is `<unknown>`, and an unknown parameter keeps its value.
    func testSection5UnknownPropertiesAndParameters() throws {
        for (icsFile, xmlFile) in [("023-icalendar.txt", "024-xcal.txt"), ("025-icalendar.txt", "026-xcal.txt")] {
            let line = try String(
                decoding: XCalTestSupport.bytes(XCalTestSupport.rfcFolder.appendingPathComponent("body/\(icsFile)")), as: UTF8.self
            )
            .trimmingCharacters(in: .whitespacesAndNewlines)
            let snippet = try XCalTestSupport.bytes(XCalTestSupport.rfcFolder.appendingPathComponent("body/\(xmlFile)"))
            let calendar =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\n\(line)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let xml = try XCalTestSupport.tree(try XCalTestSupport.convert(Array(calendar.utf8), from: "ics", to: "xcal"))
            let vevent = try XCTUnwrap(xml.children.first?.children.first { $0.name.local == "components" }?.children.first)
            let name = String(line.prefix { $0 != ":" && $0 != ";" }).lowercased()
            let element = try XCTUnwrap(vevent.children.first?.children.first { $0.name.local == name })
            let wanted = try XCalTestSupport.tree(
                Array(
                    String(decoding: snippet, as: UTF8.self).replacingOccurrences(
                        of: "<\(name)>", with: "<\(name) xmlns=\"urn:ietf:params:xml:ns:icalendar-2.0\">"
                    ).utf8))
            XCTAssertEqual(XCalTestSupport.canonical(element), XCalTestSupport.canonical(wanted), icsFile)
            // And the xCal reads back as the same content line.
            let back = String(
                decoding: try XCalTestSupport.convert(
                    try XCalTestSupport.convert(Array(calendar.utf8), from: "ics", to: "xcal"), from: "xcal", to: "ics"), as: UTF8.self)
            XCTAssertTrue(back.contains("\r\n\(line)\r\n"), "\(icsFile): \(back)")
        }
    }
}
