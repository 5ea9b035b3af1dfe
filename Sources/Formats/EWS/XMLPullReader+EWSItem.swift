import XMLSupport

extension XMLPullReader {
    /// Reads the element just started as a tree, like `readElement`, but asks the reader for its
    /// path once and extends it per child: `path` rebuilds the whole path from the open
    /// elements, and asking it for each of an item's ~100 elements was a third of reading time.
    func readEWSItem(start name: XMLName, attributes: [XMLAttribute]) throws -> XMLElement {
        var stack = [XMLElement(name: name, attributes: attributes, line: line, path: path)]
        var size = 0
        while let event = try next() {
            switch event {
            case .start(let child, let attributes):
                // Counted among the siblings read so far: items have few children, and a
                // dictionary per element cost more in hashing than this scan.
                var index = 1
                for sibling in stack[stack.count - 1].children where sibling.name.local == child.local { index += 1 }
                let parent = stack[stack.count - 1].path
                let path = index > 1 ? "\(parent)/\(child.local)[\(index)]" : "\(parent)/\(child.local)"
                stack.append(XMLElement(name: child, attributes: attributes, line: line, path: path))
            case .text(let t):
                size += t.utf8.count
                if size > limits.maximumTextBytes {
                    throw error(.tooLarge, "the content of \(name.local) is longer than \(limits.maximumTextBytes) bytes")
                }
                stack[stack.count - 1].text += t
            case .end:
                let done = stack.removeLast()
                if stack.isEmpty { return done }
                stack[stack.count - 1].children.append(done)
            }
        }
        throw error(.malformed, "the document ends inside \(name.local)")
    }
}
