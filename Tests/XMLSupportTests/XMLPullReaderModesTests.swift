import Foundation
import XCTest
import XMLSupport

/// The reader parses with libxml2's push parser on the caller's thread and with its pull parser
/// when it parses ahead (`parsesAhead`); the two must hand out the same nodes, lines and paths and
/// end with the same error, for whole, cut-off and damaged documents alike.
final class XMLPullReaderModesTests: XCTestCase {
    /// What a reader handed out: each node with its line and path, then how it ended.
    func transcript(_ bytes: [UInt8], parsesAhead: Bool, limits: XMLLimits = XMLLimits()) -> [String] {
        var offset = 0
        var out: [String] = []
        do {
            let reader = try XMLPullReader(name: "modes.xml", limits: limits, parsesAhead: parsesAhead) { buffer in
                let n = min(buffer.count, bytes.count - offset)
                guard n > 0 else { return 0 }
                buffer.copyBytes(from: bytes[offset..<(offset + n)])
                offset += n
                return n
            }
            while let node = try reader.nextNode() {
                switch node {
                case .start(let name, let attributes, let index):
                    out.append(
                        "start \(name.local)[\(index)] \(attributes.map { "\($0.name.local)=\($0.value)" }) @\(reader.line) \(reader.path)")
                case .end(let name):
                    out.append("end \(name.local) @\(reader.line)")
                case .text(let text):
                    out.append("text \(String(decoding: text, as: UTF8.self).debugDescription) @\(reader.line)")
                }
            }
            out.append("end of document @\(reader.line)")
        } catch {
            out.append("error \(error)")
        }
        return out
    }

    /// Fails, at the first difference, unless both modes hand out the same.
    func assertAlike(_ bytes: [UInt8], limits: XMLLimits = XMLLimits(), _ what: String, line: UInt = #line) {
        let one = transcript(bytes, parsesAhead: false, limits: limits)
        let ahead = transcript(bytes, parsesAhead: true, limits: limits)
        guard one != ahead else { return }
        let at = (0..<min(one.count, ahead.count)).first { one[$0] != ahead[$0] } ?? min(one.count, ahead.count)
        XCTFail(
            "\(what): at node \(at): \(at < one.count ? one[at] : "-") | \(at < ahead.count ? ahead[at] : "-") (before: \(one[max(0, at - 2)..<at]))",
            line: line)
    }

    /// A document of `items` items several times libxml2's 4000-byte reads and the 64 KiB chunk,
    /// with CR LF line ends, multi-line and non-ASCII text, references, comments and CDATA.
    static func document(items: Int, lineEnd: String = "\r\n", cdata: Bool = true) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- modes -->\r\n<root xmlns=\"urn:x\" xmlns:p=\"urn:p\">\r\n"
        for i in 0..<items {
            text += "  <p:item n=\"\(i)\" title=\"a &amp; b &lt;\(i)&gt;\">\r\n"
            text += "    <summary>Item \(i) – Übersicht &amp; Plan</summary>\r\n"
            text += "    <description>line one of \(i)\r\nline two, with ]] and ] and > in it\r\n"
            text += String(repeating: "filler text \(i % 7) ", count: i % 13) + "\r\nlast line</description>\r\n"
            if i % 3 == 0 { text += "    <!-- a comment \(i) --><note>\(cdata ? "<![CDATA[raw <b>\(i)</b>]]>" : "raw")tail</note>\r\n" }
            text += "    <empty/>\r\n  </p:item>\r\n"
        }
        return Array((text + "</root>\r\n").replacingOccurrences(of: "\r\n", with: lineEnd).utf8)
    }

    func testWholeDocumentsReadAlikeInBothModes() {
        for items in [3, 40, 400] {
            let bytes = Self.document(items: items)
            let one = transcript(bytes, parsesAhead: false)
            XCTAssertEqual(one.last?.hasPrefix("end of document"), true, "\(items) items: \(one.last ?? "")")
            assertAlike(bytes, "\(items) items")
        }
    }

    /// Cut off at many places (in a tag, in text, in a character, after a lone line feed,
    /// inside a comment or CDATA): the same nodes, then the same error with the same line. (A
    /// cut right after a CR is not among them: there the push parser's line count is off by one
    /// in ways the pull parser's is not.)
    func testCutOffDocumentsFailAlikeInBothModes() {
        let bytes = Self.document(items: 400, lineEnd: "\n")
        var cuts = Array(stride(from: 0, to: 2000, by: 7)) + Array(stride(from: 2000, to: bytes.count, by: 997))
        cuts += [65_536, 65_537, 131_072 - 1, bytes.count - 1]
        for cut in cuts {
            let part = Array(bytes[..<cut])
            assertAlike(part, "cut at \(cut)")
        }
    }

    /// Damaged by one byte at many places: the same nodes up to the error, and the same error.
    /// (Not in a CDATA section: one left open hands its text over in other pieces.)
    func testDamagedDocumentsFailAlikeInBothModes() {
        let bytes = Self.document(items: 60, lineEnd: "\n", cdata: false)
        var seed: UInt64 = 19
        for round in 0..<600 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let at = Int(seed >> 33) % bytes.count
            // Not a NUL byte: the pull parser takes it for the end of its input.
            let damage: [UInt8] = Array("<>&\"'/x =;#!?-]".utf8) + [0xFF, 0x0A]
            var part = bytes
            part[at] = damage[round % damage.count]
            if round % 4 == 0 { part = Array(part.prefix(at + 1 + Int(seed >> 50) % 40)) }
            assertAlike(part, "damage \(damage[round % damage.count]) at \(at)")
        }
    }

    /// A document refused by a guard partway (a tag longer than the limit): the same nodes
    /// before the refusal and the same refusal. Over the text limit: the same refusal (the
    /// part of the refused text node handed over before it depends on how the parser read it).
    func testRefusalsComeAtTheSamePlaceInBothModes() {
        let bytes = Self.document(items: 200)
        let longTag = Array(bytes.prefix(70_000)) + Array("<long a=\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 300_000)
        let limits = XMLLimits(maximumTextBytes: 50_000, maximumMarkupBytes: 100_000)
        assertAlike(longTag, limits: limits, "a long tag")
        let items = String(repeating: "<item>\n  <name>x</name>\n</item>\n", count: 3000)
        let longText = Array("<root>\n\(items)<t>".utf8) + Array(repeating: UInt8(ascii: "y"), count: 120_000) + Array("</t></root>".utf8)
        let one = transcript(longText, parsesAhead: false, limits: limits)
        XCTAssertTrue(one.last?.contains("a text node is longer than 50000 bytes") ?? false, "\(one.last ?? "")")
        XCTAssertEqual(one.last, transcript(longText, parsesAhead: true, limits: limits).last)
    }

    /// The reader dropped while its parser is far ahead stops the parse thread (no hang).
    func testDroppingAPullingReaderEarlyStopsIt() throws {
        let bytes = Self.document(items: 2000)
        for _ in 0..<20 {
            var offset = 0
            let reader = try XMLPullReader(name: "modes.xml", parsesAhead: true) { buffer in
                let n = min(buffer.count, bytes.count - offset)
                buffer.copyBytes(from: bytes[offset..<(offset + n)])
                offset += n
                return n
            }
            for _ in 0..<50 { _ = try reader.nextNode() }
        }
    }
}
