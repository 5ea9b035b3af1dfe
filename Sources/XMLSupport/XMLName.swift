/// An element or attribute name as a namespace URI and a local name. Documents are matched by
/// URI, never by prefix: servers choose prefixes freely, and Radicale uses none at all.
public struct XMLName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI ("" for none).
    public var namespace: String
    /// The name without prefix.
    public var local: String

    /// A name in `namespace` (a URI, "" for none).
    public init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// Clark notation, `{DAV:}href`, as used in messages.
    public var description: String { namespace.isEmpty ? local : "{\(namespace)}\(local)" }
}

/// An attribute of an element.
public struct XMLAttribute: Hashable, Sendable {
    /// The attribute's name; unprefixed attributes have no namespace.
    public var name: XMLName
    /// The value, entities decoded.
    public var value: String

    /// An attribute called `name` with `value`.
    public init(_ name: XMLName, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What the pull reader yields, in document order.
public enum XMLEvent: Hashable, Sendable {
    /// An element opens; an empty element (`<a/>`) yields `.start` then `.end`.
    case start(XMLName, attributes: [XMLAttribute])
    case end(XMLName)
    /// Character data (text, CDATA sections and whitespace), as it was, entities decoded.
    case text(String)
}
