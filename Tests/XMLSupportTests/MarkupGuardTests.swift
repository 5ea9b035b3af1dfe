import XCTest

@testable import XMLSupport

/// `MarkupGuard` scans eight bytes at a time and takes text and whole unquoted tags in a loop of
/// their own; its verdict on every chunk must be the one its rule gives byte by byte.
final class MarkupGuardTests: XCTestCase {
    /// The guard's rule, one byte at a time: a tag is counted from its `<` up to (not with) its
    /// `>`, quotes included, a `>` inside quotes not ending it; a comment is counted from its
    /// `<` to its `-->`; a CDATA section is not counted; a construct over `limit` refuses the
    /// chunk it grows past the limit in.
    struct ByteByByte {
        enum State { case text, opening, tag, comment, cdata }
        let limit: Int
        var state = State.text
        var length = 0
        /// The bytes of a construct while they may still open a comment or a CDATA section.
        var opening: [UInt8] = []
        var quote: UInt8?
        var last: (UInt8, UInt8) = (0, 0)

        static let commentOpen = Array("<!--".utf8)
        static let cdataOpen = Array("<![CDATA[".utf8)

        mutating func feed(_ bytes: [UInt8]) -> Bool {
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch state {
                case .text:
                    guard b == UInt8(ascii: "<") else { continue }
                    length = 1
                    quote = nil
                    opening = [b]
                    state = .opening
                case .opening:
                    opening.append(b)
                    if opening == Self.commentOpen {
                        state = .comment
                        last = (UInt8(ascii: "-"), UInt8(ascii: "-"))
                        length += 1
                    } else if opening == Self.cdataOpen {
                        state = .cdata
                        continue
                    } else if Self.commentOpen.starts(with: opening) || Self.cdataOpen.starts(with: opening) {
                        length += 1
                    } else {
                        // A tag's byte: looked at again as one.
                        state = .tag
                        i -= 1
                        continue
                    }
                case .tag:
                    if let q = quote {
                        length += 1
                        if b == q { quote = nil }
                    } else if b == UInt8(ascii: ">") {
                        if length > limit { return false }
                        state = .text
                        continue
                    } else {
                        length += 1
                        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                    }
                case .comment:
                    if b == UInt8(ascii: ">") && last == (UInt8(ascii: "-"), UInt8(ascii: "-")) { state = .text }
                    last = (last.1, b)
                    length += 1
                case .cdata:
                    if b == UInt8(ascii: ">") && last == (UInt8(ascii: "]"), UInt8(ascii: "]")) { state = .text }
                    last = (last.1, b)
                    continue
                }
                if length > limit { return false }
            }
            return true
        }
    }

    /// Random documents of text, tags with and without quoted values (holding `>` and `<`),
    /// comments, CDATA sections and stray `<!`, some constructs longer than the limit, cut
    /// into chunks of random sizes: the same verdict for every chunk, up to the first refusal.
    func testVerdictsAreTheByteByByteRulesOnRandomDocuments() {
        var seed: UInt64 = 6321
        func random(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % n
        }
        func filler(_ count: Int, from alphabet: String) -> String {
            let letters = Array(alphabet)
            return String((0..<count).map { _ in letters[random(letters.count)] })
        }
        var refusals = 0
        for round in 0..<3000 {
            var document = ""
            for _ in 0..<(1 + random(60)) {
                let size = random(8) == 0 ? 50 + random(400) : random(24)
                switch random(9) {
                case 0: document += filler(size, from: "abc \n\t'\">!-]")
                case 1: document += "<" + filler(1 + size, from: "abcdef:-/ ") + ">"
                case 2: document += "<e a=\"" + filler(size, from: "x<>'! ") + "\" b='" + filler(random(10), from: "y\">") + "'>"
                case 3: document += "<!--" + filler(size, from: "x->'\"<") + "-->"
                case 4: document += "<![CDATA[" + filler(size, from: "z]>'\"<") + "]]>"
                case 5: document += "<!" + filler(size, from: "DOCTYPE [>'\"")
                case 6: document += "</" + filler(1 + size, from: "ghij") + ">"
                case 7: document += "<" + filler(1 + size, from: "klm=\"'") + (random(2) == 0 ? ">" : "")
                default: document += filler(size, from: "<>!-[]CDATA")
                }
            }
            let bytes = Array(document.utf8)
            let limit = 8 + random(200)
            var guarded = MarkupGuard(limit: limit)
            var model = ByteByByte(limit: limit)
            var at = 0
            while at < bytes.count {
                let size = random(4) == 0 ? 1 + random(7) : 1 + random(300)
                let chunk = Array(bytes[at..<min(bytes.count, at + size)])
                let verdict = chunk.withUnsafeBytes { guarded.feed($0) }
                let expected = model.feed(chunk)
                XCTAssertEqual(
                    verdict, expected, "round \(round), chunk at \(at) of \(bytes.count), limit \(limit): \(document.debugDescription)")
                if verdict != expected { return }
                if !verdict {
                    refusals += 1
                    break
                }
                at += size
            }
        }
        // Both outcomes are met, so the comparison is not of two guards that never refuse.
        XCTAssertGreaterThan(refusals, 300)
        XCTAssertLessThan(refusals, 2700)
    }
}
