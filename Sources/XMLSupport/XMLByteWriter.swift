/// Writes XML as UTF-8 bytes, indented, with namespace prefixes chosen once (declared on the
/// root element) and declared in place for any other namespace. Pure Swift rather than
/// xmlTextWriter: output is plain concatenation, and owning it keeps the layout stable for
/// golden files.
///
/// Characters XML 1.0 cannot carry (most C0 controls, U+FFFE, U+FFFF) are replaced with U+FFFD
/// and counted in `replacedCharacters`, so the writing format can warn.
public struct XMLByteWriter {
    private var prefixes: [String: String] = [:]
    private var rootNamespaces: [(prefix: String, uri: String)]
    private let indent: Int?
    private var buffer: [UInt8] = []
    private var emitted = 0

    private struct Open {
        var qualifiedName: String
        var hasChildren = false
        var hasText = false
        /// Namespaces declared on this element only, to forget at its end.
        var scoped: [String] = []
    }

    private var open: [Open] = []
    private var startTagOpen = false
    private var wroteRoot = false
    private var generated = 0
    /// How many characters were replaced because XML cannot represent them.
    public private(set) var replacedCharacters = 0

    /// A writer that declares `namespaces` on the root element (prefix "" for the default
    /// namespace) and indents by `indent` spaces, or not at all when nil.
    public init(namespaces: [(prefix: String, uri: String)], indent: Int? = 2) {
        self.rootNamespaces = namespaces
        self.indent = indent
        for ns in namespaces { prefixes[ns.uri] = ns.prefix }
    }

    /// Bytes written so far, including those already taken.
    public var byteCount: Int { emitted + buffer.count }

    /// Bytes written but not yet taken.
    public var bufferedByteCount: Int { buffer.count }

    /// `<?xml version="1.0" encoding="utf-8"?>` and a line break.
    public mutating func declaration() {
        append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
    }

    /// Opens an element.
    public mutating func start(_ name: XMLName, attributes: [XMLAttribute] = []) {
        closeStartTag()
        if !open.isEmpty {
            open[open.count - 1].hasChildren = true
            if !open[open.count - 1].hasText { newline(depth: open.count) }
        }
        var declarations: [(String, String)] = []
        var scoped: [String] = []
        if !wroteRoot {
            wroteRoot = true
            declarations = rootNamespaces.map { ($0.prefix, $0.uri) }
        }
        func prefix(for uri: String) -> String {
            if let p = prefixes[uri] { return p }
            // A namespace the writer was not told about: declare it here, scoped to this element.
            generated += 1
            let p = uri.isEmpty ? "" : "ns\(generated)"
            prefixes[uri] = p
            scoped.append(uri)
            declarations.append((p, uri))
            return p
        }
        let p = prefix(for: name.namespace)
        let qualified = p.isEmpty ? name.local : p + ":" + name.local
        append("<" + qualified)
        var attributeText = ""
        for attribute in attributes {
            let ap = attribute.name.namespace.isEmpty ? "" : prefix(for: attribute.name.namespace)
            attributeText +=
                " " + (ap.isEmpty ? "" : ap + ":") + attribute.name.local + "=\"" + escaped(attribute.value, attribute: true) + "\""
        }
        for (p, uri) in declarations {
            append(p.isEmpty ? " xmlns=\"" : " xmlns:\(p)=\"")
            append(escaped(uri, attribute: true) + "\"")
        }
        append(attributeText)
        open.append(Open(qualifiedName: qualified, scoped: scoped))
        startTagOpen = true
    }

    /// Writes character data into the open element.
    public mutating func text(_ text: String) {
        closeStartTag()
        guard !open.isEmpty else { return }
        open[open.count - 1].hasText = true
        replacedCharacters += XMLEscaping.append(text, attribute: false, to: &buffer)
    }

    /// Closes the innermost element (`<a/>` when it stayed empty).
    public mutating func end() {
        guard let element = open.popLast() else { return }
        for uri in element.scoped { prefixes[uri] = nil }
        if startTagOpen {
            startTagOpen = false
            append("/>")
        } else {
            if element.hasChildren && !element.hasText { newline(depth: open.count) }
            append("</" + element.qualifiedName + ">")
        }
        if open.isEmpty { append("\n") }
    }

    /// An element holding only text.
    public mutating func element(_ name: XMLName, text: String, attributes: [XMLAttribute] = []) {
        start(name, attributes: attributes)
        self.text(text)
        end()
    }

    /// An element with nothing inside.
    public mutating func emptyElement(_ name: XMLName, attributes: [XMLAttribute] = []) {
        start(name, attributes: attributes)
        end()
    }

    /// The bytes written since the last call, leaving the writer empty.
    public mutating func takeBytes() -> [UInt8] {
        let out = buffer
        emitted += buffer.count
        buffer.removeAll(keepingCapacity: true)
        return out
    }

    private mutating func closeStartTag() {
        if startTagOpen {
            startTagOpen = false
            append(">")
        }
    }

    private mutating func newline(depth: Int) {
        guard let indent else { return }
        buffer.append(0x0A)
        buffer.append(contentsOf: repeatElement(0x20, count: indent * depth))
    }

    private mutating func append(_ s: String) {
        buffer.append(contentsOf: s.utf8)
    }

    /// Escapes markup characters; a carriage return becomes `&#13;` so that iCalendar's CRLF
    /// survives XML's line-end normalization.
    private mutating func escaped(_ s: String, attribute: Bool) -> String {
        var out: [UInt8] = []
        replacedCharacters += XMLEscaping.append(s, attribute: attribute, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
