import XMLSupport

extension XMLPullReader {
    /// Reads the element just started as a tree, like `readElement`, but counts a child's
    /// siblings by local name for its path, as EWS's messages always have.
    func readEWSItem(start name: XMLName, attributes: [XMLAttribute]) throws -> XMLElement {
        try readTree(start: name, attributes: attributes, siblingsByLocalName: true)
    }
}
