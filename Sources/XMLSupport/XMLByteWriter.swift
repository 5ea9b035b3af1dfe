/// Writes XML as UTF-8 bytes, indented, with namespace prefixes chosen once (declared on the
/// root element) and declared in place for any other namespace. Pure Swift rather than
/// xmlTextWriter: output is plain concatenation, and owning it keeps the layout stable for
/// golden files.
///
/// Characters XML 1.0 cannot carry (most C0 controls, U+FFFE, U+FFFF) are replaced with U+FFFD
/// and counted in `replacedCharacters`, so the writing format can warn.
///
/// Writing is on bytes: an element's qualified name is resolved once into a numbered tag
/// (`tag(_:)`, or the writer's own cache on the `XMLName` path), so opening and closing one is
/// a few copies into the writer's buffer, no String built (xCal writes about ten elements an
/// iCalendar property, a million a 100k archive).
public struct XMLByteWriter {
    private var prefixes: [String: String] = [:]
    /// The prefixes of the root's namespaces, which hold for the whole document.
    private let rootPrefixes: [String: String]
    private var rootNamespaces: [(prefix: String, uri: String)]
    private let indent: Int?
    private var buffer = XMLOutputBuffer()
    private var emitted = 0

    /// The qualified names of the names met so far in a root namespace, one after another in
    /// `namePool`, and where each is, by tag number (one array each: no array per name to
    /// retain at every tag).
    private var namePool: [UInt8] = []
    private var nameRanges: [(start: Int, count: Int)] = []
    private var tagOfName: [XMLName: Int] = [:]
    /// The qualified names of open elements whose namespace is declared on them alone.
    private var scopedNames: [[UInt8]] = []

    private struct Open {
        /// The tag number, or -1 for a name kept in `scopedNames`.
        var tag: Int32
        var hasChildren = false
        var hasText = false
        /// How many namespaces were declared on this element only (the last ones of `scopedURIs`).
        var scoped: UInt16 = 0
    }

    private var open: [Open] = []
    private var scopedURIs: [String] = []
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
        rootPrefixes = prefixes
    }

    /// Bytes written so far, including those already taken.
    public var byteCount: Int { emitted + buffer.count }

    /// Bytes written but not yet taken.
    public var bufferedByteCount: Int { buffer.count }

    /// `<?xml version="1.0" encoding="utf-8"?>` and a line break.
    public mutating func declaration() {
        buffer.makeUnique()
        buffer.append(literal: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
    }

    /// The tag for `name` when its namespace is one declared on the root (or none), for
    /// `start(_:)` and `element(_:text:)` without a lookup; nil for another namespace, whose
    /// elements go through `start(_:attributes:)`.
    public mutating func tag(_ name: XMLName) -> XMLTag? {
        if let t = tagOfName[name] { return XMLTag(number: Int32(t)) }
        guard let p = rootPrefixes[name.namespace] else { return nil }
        let number = nameRanges.count
        let qualified = (p.isEmpty ? name.local : p + ":" + name.local).utf8
        nameRanges.append((namePool.count, qualified.count))
        namePool += qualified
        tagOfName[name] = number
        return XMLTag(number: Int32(number))
    }

    /// Opens an element.
    public mutating func start(_ name: XMLName, attributes: [XMLAttribute] = []) {
        if attributes.isEmpty, wroteRoot, let t = tag(name) {
            start(t)
            return
        }
        buffer.makeUnique()
        openChild()
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
        let qualified = Array((p.isEmpty ? name.local : p + ":" + name.local).utf8)
        buffer.append(0x3C)
        buffer.append(qualified)
        var attributeText: [UInt8] = []
        for attribute in attributes {
            let ap = attribute.name.namespace.isEmpty ? "" : prefix(for: attribute.name.namespace)
            attributeText.append(0x20)
            if !ap.isEmpty { attributeText += Array(ap.utf8) + [0x3A] }
            attributeText += Array(attribute.name.local.utf8)
            attributeText += [0x3D, 0x22]
            replacedCharacters += XMLEscaping.append(attribute.value, attribute: true, to: &attributeText)
            attributeText.append(0x22)
        }
        for (p, uri) in declarations {
            if p.isEmpty {
                buffer.append(literal: " xmlns=\"")
            } else {
                buffer.append(literal: " xmlns:")
                buffer.append(Array(p.utf8))
                buffer.append(literal: "=\"")
            }
            var escapedURI: [UInt8] = []
            replacedCharacters += XMLEscaping.append(uri, attribute: true, to: &escapedURI)
            buffer.append(escapedURI)
            buffer.append(0x22)
        }
        buffer.append(attributeText)
        // The name is kept under a tag number when it will always be written the same way (a
        // root namespace), else on the scoped stack for `end()`.
        var number: Int32 = -1
        if let t = tag(name) { number = t.number }
        if number < 0 { scopedNames.append(qualified) }
        scopedURIs += scoped
        open.append(Open(tag: number, scoped: UInt16(scoped.count)))
        startTagOpen = true
    }

    /// Opens an element by its tag (no attributes).
    public mutating func start(_ tag: XMLTag) {
        guard wroteRoot else { return start(tagName(tag), attributes: []) }
        buffer.makeUnique()
        openChild()
        buffer.append(0x3C)
        appendName(tag.number)
        open.append(Open(tag: tag.number))
        startTagOpen = true
    }

    /// Writes character data into the open element.
    public mutating func text(_ text: String) {
        buffer.makeUnique()
        closeStartTag()
        guard !open.isEmpty else { return }
        open[open.count - 1].hasText = true
        replacedCharacters += buffer.appendEscaped(text)
    }

    /// Writes character data, given as UTF-8, into the open element.
    public mutating func text(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        buffer.makeUnique()
        closeStartTag()
        guard !open.isEmpty else { return }
        open[open.count - 1].hasText = true
        replacedCharacters += buffer.appendEscaped(bytes)
    }

    /// Closes the innermost element (`<a/>` when it stayed empty).
    public mutating func end() {
        guard let element = open.popLast() else { return }
        buffer.makeUnique()
        if element.scoped > 0 {
            for uri in scopedURIs.suffix(Int(element.scoped)) { prefixes[uri] = nil }
            scopedURIs.removeLast(Int(element.scoped))
        }
        if startTagOpen {
            startTagOpen = false
            buffer.append(0x2F, 0x3E)
        } else {
            if element.hasChildren && !element.hasText { newline(depth: open.count) }
            buffer.append(0x3C, 0x2F)
            if element.tag >= 0 {
                appendName(element.tag)
            } else {
                buffer.append(scopedNames[scopedNames.count - 1])
            }
            buffer.append(0x3E)
        }
        if element.tag < 0 { scopedNames.removeLast() }
        if open.isEmpty { buffer.append(0x0A) }
    }

    /// An element holding only text.
    public mutating func element(_ name: XMLName, text: String, attributes: [XMLAttribute] = []) {
        start(name, attributes: attributes)
        self.text(text)
        end()
    }

    /// An element holding only text, by its tag.
    public mutating func element(_ tag: XMLTag, text: String) {
        start(tag)
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
        buffer.makeUnique()
        let out = buffer.bytes
        emitted += buffer.count
        buffer.removeAll()
        return out
    }

    /// Calls `body` with the bytes written since the last take, then forgets them (a sink that
    /// copies them needs no array of its own).
    public mutating func takeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        buffer.makeUnique()
        let result = try buffer.withUnsafeBytes(body)
        emitted += buffer.count
        buffer.removeAll()
        return result
    }

    private func tagName(_ tag: XMLTag) -> XMLName {
        tagOfName.first { $0.value == Int(tag.number) }!.key
    }

    @inline(__always)
    private mutating func appendName(_ number: Int32) {
        let range = nameRanges[Int(number)]
        namePool.withUnsafeBufferPointer { buffer.append($0.baseAddress! + range.start, count: range.count) }
    }

    /// Marks the innermost open element as having children and starts the new child's line.
    @inline(__always)
    private mutating func openChild() {
        closeStartTag()
        if !open.isEmpty {
            open[open.count - 1].hasChildren = true
            if !open[open.count - 1].hasText { newline(depth: open.count) }
        }
    }

    @inline(__always)
    private mutating func closeStartTag() {
        if startTagOpen {
            startTagOpen = false
            buffer.append(0x3E)
        }
    }

    @inline(__always)
    private mutating func newline(depth: Int) {
        guard let indent else { return }
        buffer.append(0x0A)
        buffer.appendSpaces(indent * depth)
    }
}

/// An element name resolved by one `XMLByteWriter` (`XMLByteWriter.tag(_:)`): valid with that
/// writer only.
public struct XMLTag: Hashable, Sendable {
    fileprivate let number: Int32
}
