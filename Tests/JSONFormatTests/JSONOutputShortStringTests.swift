import JSONCoding
import XCTest

/// `JSONOutput` writes strings of every length around a word (its word-at-a-time paths: a
/// string shorter than a word read in one, a longer one's last word overlapping), with a
/// byte to escape or keep at every place, as a byte-by-byte escape gives, from a buffer too
/// small for them (so that each grows it).
final class JSONOutputShortStringTests: XCTestCase {
    /// RFC 8259 §7, as `JSONOutput` spells escapes.
    private func quoted(_ s: String) -> String {
        let named: [Unicode.Scalar: String] = [
            "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u{8}": "\\b", "\u{C}": "\\f",
        ]
        var out = "\""
        for u in s.unicodeScalars {
            if let escape = named[u] {
                out += escape
            } else if u.value < 0x20 {
                out += String(format: "\\u%04x", u.value)
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    private var cases: [String] {
        var cases: [String] = []
        for n in 0...19 {
            let plain = String(repeating: "aB-z", count: 5).prefix(n)
            cases.append(String(plain))
            for place in 0..<n {
                for odd in ["\"", "\\", "\n", "\u{1}", "é", "Q", "\u{7F}"] {
                    var s = Array(plain).map(String.init)
                    s[place] = odd
                    cases.append(s.joined())
                }
            }
        }
        return cases
    }

    func testStringsOfEveryLengthAreEscapedAsByteByByte() {
        var out = JSONOutput(capacity: 16)
        out.beginArray()
        for s in cases { out.string(s) }
        out.endArray()
        XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), "[" + cases.map(quoted).joined(separator: ",") + "]")
    }

    func testLowercasedStringsAndKeysOfEveryLength() {
        var out = JSONOutput(capacity: 16)
        out.beginObject()
        for s in cases {
            out.lowercasedKey(s)
            out.lowercasedString(s)
        }
        out.endObject()
        let expected = cases.map { quoted($0.lowercased()) + ":" + quoted($0.lowercased()) }.joined(separator: ",")
        XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), "{" + expected + "}")
    }

    func testPlainStringsOfEveryLengthAroundAWord() {
        let names: [StaticString] = ["", "uri", "text", "float", "binary", "unknown", "duration", "date-time", "cal-address"]
        var out = JSONOutput(capacity: 16)
        out.beginArray()
        for name in names { out.plainString(name) }
        out.endArray()
        XCTAssertEqual(String(decoding: out.bytes, as: UTF8.self), "[" + names.map { quoted($0.description) }.joined(separator: ",") + "]")
    }
}
