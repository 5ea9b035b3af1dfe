/// An element read whole, for small subtrees (one property, one DAV:response) where a tree is
/// simpler to interpret than events; the document as a whole still streams.
public struct XMLElement: Hashable, Sendable {
    /// The element's name.
    public var name: XMLName
    /// Its attributes, namespace declarations excluded.
    public var attributes: [XMLAttribute]
    /// Its child elements, in order.
    public var children: [XMLElement]
    /// The element's own character data, concatenated (text of children not included).
    public var text: String
    /// The line the element started on.
    public var line: Int
    /// The element's path in the document, for messages.
    public var path: String

    /// An element; `line` and `path` say where it was read.
    public init(
        name: XMLName, attributes: [XMLAttribute] = [], children: [XMLElement] = [], text: String = "", line: Int = 0, path: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.path = path
    }

    /// The value of an attribute without a namespace.
    public func attribute(_ local: String) -> String? {
        attributes.first { $0.name.namespace.isEmpty && $0.name.local == local }?.value
    }

    /// The first child with this name.
    public func child(_ name: XMLName) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// The text with surrounding whitespace removed.
    public var trimmedText: String {
        var scalars = Substring(text)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension XMLPullReader {
    /// Reads the element just started, and everything inside it, as a tree.
    public func readElement(start name: XMLName, attributes: [XMLAttribute]) throws -> XMLElement {
        var stack = [XMLElement(name: name, attributes: attributes, line: line, path: path)]
        var size = 0
        while let event = try next() {
            switch event {
            case .start(let child, let attributes):
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

extension XMLElement {
    /// The element as a standalone UTF-8 document, its namespaces declared where used (how an
    /// xCal body nested in a CalDAV calendar-data element reaches the xCal reader).
    public func serialized() -> [UInt8] {
        var writer = XMLByteWriter(namespaces: [], indent: nil)
        writer.declaration()
        func write(_ e: XMLElement) {
            writer.start(e.name, attributes: e.attributes)
            if !e.text.isEmpty && e.children.isEmpty { writer.text(e.text) }
            for child in e.children { write(child) }
            writer.end()
        }
        write(self)
        return writer.takeBytes()
    }
}
