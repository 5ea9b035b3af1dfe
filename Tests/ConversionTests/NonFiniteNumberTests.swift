import CalendarModel
import Conversion
import Foundation
import XCTest

/// 1e309 is a number to JSON and to Swift's Double(_:) but infinity to the model, and "inf" is no
/// iCalendar FLOAT: coordinates that big (or "inf", "nan" in text formats) were written as
/// `GEO:inf;-inf`. Every reader now leaves them out, or keeps them as text, and says so.
final class NonFiniteNumberTests: XCTestCase {
    func convert(_ text: String, from format: String) throws -> (ics: String, warnings: [String]) {
        let registry = StandardFormats.registry
        let log = DiagnosticLog()
        var reader = try XCTUnwrap(registry.format(id: format)).makeReader(
            source: MemoryByteSource(Array(text.utf8)), options: ReadOptions(sourceName: format), log: log)
        let sink = MemoryByteSink()
        var writer = try XCTUnwrap(registry.format(id: "ics")).makeWriter(
            sink: sink, options: WriteOptions(destinationName: "ics"), log: log)
        while let element = try reader.next() { try writer.write(element) }
        try writer.finish()
        return (String(decoding: sink.bytes, as: UTF8.self), log.diagnostics.map(\.description))
    }

    func testInfiniteCoordinatesAreNotWrittenAsInf() throws {
        let inputs: [(format: String, text: String, warns: Bool)] = [
            (
                "graph",
                #"{"subject":"x","iCalUId":"u1","start":{"dateTime":"2024-01-01T09:00:00","timeZone":"UTC"},"#
                    + #""end":{"dateTime":"2024-01-01T10:00:00","timeZone":"UTC"},"#
                    + #""location":{"displayName":"Here","coordinates":{"latitude":1e309,"longitude":-1e309}}}"#, true
            ),
            (
                "jcal",
                #"["vcalendar",[],[["vevent",[["uid",{},"text","a"],["dtstart",{},"date-time","2024-01-01T09:00:00Z"],"#
                    + #"["geo",{},"float",[1e309,-1e309]],["x-size",{},"float",1e309]],[]]]]"#, true
            ),
            (
                "jscalendar",
                #"{"@type":"Event","uid":"e","start":"2024-01-01T09:00:00","locations":{"1":{"@type":"Location","#
                    + #""name":"Here","coordinates":"geo:1e309,-1e309"}}}"#, true
            ),
            ("csv", "uid,title,start,geo\r\ne,x,2024-01-01T09:00:00Z,inf;nan\r\n", true),
            (
                "ews",
                #"<t:Items xmlns:t="http://schemas.microsoft.com/exchange/services/2006/types"><t:CalendarItem>"#
                    + "<t:Subject>x</t:Subject><t:UID>u</t:UID><t:Start>2024-01-01T09:00:00Z</t:Start><t:End>2024-01-01T10:00:00Z</t:End>"
                    + "<t:EnhancedLocation><t:DisplayName>Here</t:DisplayName><t:PostalAddress><t:Latitude>1e309</t:Latitude>"
                    + "<t:Longitude>nan</t:Longitude></t:PostalAddress></t:EnhancedLocation></t:CalendarItem></t:Items>", true
            ),
        ]
        for input in inputs {
            let (ics, warnings) = try convert(input.text, from: input.format)
            XCTAssertTrue(ics.contains("BEGIN:VEVENT"), "\(input.format): \(ics)")
            for line in ics.components(separatedBy: "\r\n") where line.lowercased().contains("inf") || line.lowercased().contains("nan") {
                XCTFail("\(input.format): \(line)")
            }
            XCTAssertEqual(!warnings.isEmpty, input.warns, "\(input.format): \(warnings)")
        }
    }
}
