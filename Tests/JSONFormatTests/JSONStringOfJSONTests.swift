import JSONCoding
import XCTest

/// `JSONOutput.stringOfJSON` writes the bytes `string(_:)` writes for the same text made first.
final class JSONStringOfJSONTests: XCTestCase {
    func testEscapedAsWrittenIsTheTextEscapedAfter() {
        let strings = [
            "", "plain", "quote \" and backslash \\", "C:\\Users\\shared\\notes.txt", "line\nbreak\r\ttab\u{8}\u{C}",
            "control \u{1}\u{1F}", "Köln – 東京 🇯🇵", "long plain text past a word: abcdefghijklmnopqrstuvwxyz0123456789",
        ]
        func write(_ out: inout JSONOutput) {
            out.beginObject()
            for (i, s) in strings.enumerated() {
                out.key(s)
                out.beginArray()
                out.string(s)
                out.lowercasedString("X-NAME-\(i)")
                out.lowercasedString(s)
                out.int(i)
                out.null()
                out.bool(true)
                out.endArray()
                out.lowercasedKey("Key-\(i)")
                out.double(Double(i) / 3)
            }
            out.key("raw")
            out.rawValue(Array("[1,2]".utf8))
            out.endObject()
        }
        var text = JSONOutput(capacity: 64)
        write(&text)
        var expected = JSONOutput(capacity: 64)
        expected.beginArray()
        expected.string(String(decoding: text.bytes, as: UTF8.self))
        expected.string("after")
        expected.endArray()
        var escaped = JSONOutput(capacity: 64)
        escaped.beginArray()
        escaped.stringOfJSON { write(&$0) }
        escaped.string("after")
        escaped.endArray()
        XCTAssertEqual(String(decoding: escaped.bytes, as: UTF8.self), String(decoding: expected.bytes, as: UTF8.self))
    }
}
