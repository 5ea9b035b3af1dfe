extension XMLPullReader {
    /// The text inside the element just started, up to its end; nested elements are an error
    /// named after the element, since every caller expects simple content there.
    public func readText(of element: XMLName) throws -> String {
        var text = ""
        while let event = try next() {
            switch event {
            case .text(let t):
                text += t
                if text.utf8.count > limits.maximumTextBytes {
                    throw error(.tooLarge, "the text of \(element.local) is longer than \(limits.maximumTextBytes) bytes")
                }
            case .start(let child, _):
                throw error(.malformed, "\(element.local) holds text, but an element \(child) was found inside it")
            case .end:
                return text
            }
        }
        throw error(.malformed, "the document ends inside \(element.local)")
    }

    /// Skips the rest of the element just started, whatever it holds.
    public func skipElement() throws {
        var open = 1
        while let event = try next() {
            switch event {
            case .start: open += 1
            case .end:
                open -= 1
                if open == 0 { return }
            case .text: break
            }
        }
    }
}
