#if canImport(Glibc)
    import Glibc
#endif

/// An element read whole, for small subtrees (one property, one DAV:response) where a tree is
/// simpler to interpret than events; the document as a whole still streams.
public struct XMLElement: Hashable, Sendable {
    /// The element's name.
    public var name: XMLName {
        // The place of an element read into a tree is made from its name when asked for; it
        // stays the name it was read with.
        willSet { materializePlace() }
    }
    /// Its attributes, namespace declarations excluded.
    public var attributes: [XMLAttribute]
    /// Its child elements, in order.
    public var children: [XMLElement]
    /// The element's own character data, concatenated (text of children not included).
    public var text: String
    /// The line the element started on.
    public var line: Int
    /// Where the element was read: its own place, or, when `placeIndex` is above 0, its
    /// parent's, the element being the `placeIndex`-th child of its name. An element read into
    /// a tree has no place object of its own until one is asked for or it has children: most
    /// are leaves, and one object per element cost as much to make and free as the rest of it.
    private var placeBase: XMLPath
    private var placeIndex: Int

    /// Where the element was read, kept unformatted until `path` asks.
    public var place: XMLPath {
        get { placeIndex == 0 ? placeBase : XMLPath(parent: placeBase, local: name.local, index: placeIndex) }
        set {
            placeBase = newValue
            placeIndex = 0
        }
    }

    private mutating func materializePlace() {
        guard placeIndex != 0 else { return }
        placeBase = place
        placeIndex = 0
    }
    /// The element's path in the document, for messages.
    public var path: String {
        get { place.description }
        set { place = XMLPath(newValue) }
    }

    /// An element; `line` and `path` say where it was read.
    public init(
        name: XMLName, attributes: [XMLAttribute] = [], children: [XMLElement] = [], text: String = "", line: Int = 0, path: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.placeBase = XMLPath(path)
        self.placeIndex = 0
    }

    /// An element read at `place`.
    public init(name: XMLName, attributes: [XMLAttribute], line: Int, place: XMLPath) {
        self.name = name
        self.attributes = attributes
        self.children = []
        self.text = ""
        self.line = line
        self.placeBase = place
        self.placeIndex = 0
    }

    /// An element read as the `index`-th child of its name of the element at `parent`.
    init(name: XMLName, attributes: [XMLAttribute], line: Int, parent: XMLPath, index: Int) {
        self.name = name
        self.attributes = attributes
        self.children = []
        self.text = ""
        self.line = line
        self.placeBase = parent
        self.placeIndex = index
    }

    /// The place, made an object of its own if it was not (for children to refer to).
    mutating func ownPlace() -> XMLPath {
        materializePlace()
        return placeBase
    }

    public static func == (a: XMLElement, b: XMLElement) -> Bool {
        a.name == b.name && a.attributes == b.attributes && a.children == b.children && a.text == b.text && a.line == b.line
            && a.place == b.place
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(attributes)
        hasher.combine(children)
        hasher.combine(text)
        hasher.combine(line)
        hasher.combine(place)
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
    public var trimmedText: String { Self.trimmed(text) }

    /// `text` with surrounding whitespace removed, as `trimmedText` is made.
    public static func trimmed(_ text: String) -> String {
        // Most values have no surrounding whitespace: when the text starts and ends with an
        // ASCII byte that is not whitespace, its first and last Characters are not whitespace
        // either (an ASCII character other than CR starts no cluster with another, and ends one
        // only as itself), and the text is returned as it is without walking Characters.
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, Self.isPlainASCII(first), Self.isPlainASCII(last) { return text }
        var scalars = Substring(text)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// An ASCII byte that is neither whitespace nor a control character.
    private static func isPlainASCII(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }
}

extension XMLPullReader {
    /// Reads the element just started, and everything inside it, as a tree.
    public func readElement(start name: XMLName, attributes: [XMLAttribute]) throws -> XMLElement {
        try readTree(start: name, attributes: attributes, siblingsByLocalName: false)
    }

    /// Reads the element just started as a tree, each element's place built from its parent's
    /// (asking `path` per element rebuilt the whole path from the open elements each time). A
    /// child's index counts the siblings before it with the same name, or with the same local
    /// name when `siblingsByLocalName`.
    public func readTree(start name: XMLName, attributes: [XMLAttribute], siblingsByLocalName: Bool) throws -> XMLElement {
        var stack = [XMLElement(name: name, attributes: attributes, line: line, place: place)]
        if treeWidths.isEmpty { treeWidths.append(0) }
        // Each open element's text, gathered as bytes and made a String at its end: the
        // whitespace between an element's children comes as one node per gap.
        var texts: [[UInt8]] = [[]]
        // The last text made at each depth: indented documents repeat the same whitespace
        // between children at one depth, and it becomes one String shared, not one per element.
        var made: [String] = [""]
        // By local name, the children each open element has had: one stack of counts (by
        // `localNumber`), each element's run above its parent's, as the reader counts by name.
        var localCounts: [(name: Int, count: Int)] = []
        var countStarts: [Int] = [0]
        // The innermost element's text while it is one node (most are): its bytes where the
        // reader keeps them, valid through the next node, copied into `texts` only when another
        // node comes before the element's end.
        var single: UnsafeBufferPointer<UInt8>?
        var size = 0
        while let node = try nextNumberedNode() {
            switch node {
            case .start(let number, let sameName):
                // The reader counts siblings by name; by local name, they are counted here.
                var index = sameName
                if siblingsByLocalName {
                    index = Self.count(localNumber(of: number), in: &localCounts, from: countStarts[countStarts.count - 1])
                    countStarts.append(localCounts.count)
                }
                let level = stack.count
                if let bytes = single {
                    texts[level - 1].append(contentsOf: bytes)
                    single = nil
                }
                let parent = stack[level - 1].ownPlace()
                if stack[level - 1].children.isEmpty {
                    stack[level - 1].children.reserveCapacity(min(max(treeWidths[level - 1], 1), 64))
                }
                stack.append(
                    XMLElement(name: self.name(numbered: number), attributes: startedAttributes, line: line, parent: parent, index: index))
                if texts.count < stack.count {
                    texts.append([])
                    made.append("")
                }
                if treeWidths.count < stack.count {
                    treeWidths.append(0)
                }
            case .text(let bytes):
                size += bytes.count
                if size > limits.maximumTextBytes {
                    throw error(.tooLarge, "the content of \(name.local) is longer than \(limits.maximumTextBytes) bytes")
                }
                if single == nil && texts[stack.count - 1].isEmpty {
                    single = bytes
                } else {
                    if let first = single { texts[stack.count - 1].append(contentsOf: first) }
                    single = nil
                    texts[stack.count - 1].append(contentsOf: bytes)
                }
            case .end:
                let level = stack.count - 1
                if let bytes = single {
                    single = nil
                    Self.remake(&made[level], of: bytes)
                    stack[level].text = made[level]
                } else if !texts[level].isEmpty {
                    texts[level].withUnsafeBufferPointer { Self.remake(&made[level], of: $0) }
                    stack[level].text = made[level]
                    texts[level].removeAll(keepingCapacity: true)
                }
                if !stack[level].children.isEmpty { treeWidths[level] = stack[level].children.count }
                if siblingsByLocalName {
                    let start = countStarts.removeLast()
                    if localCounts.count > start { localCounts.removeSubrange(start...) }
                }
                if level == 0 { return stack.removeLast() }
                let done = stack.removeLast()
                stack[level - 1].children.append(done)
            }
        }
        throw error(.malformed, "the document ends inside \(name.local)")
    }

    /// Makes `text` the String of `bytes`, unless it is that already (compared as bytes).
    private static func remake(_ text: inout String, of bytes: UnsafeBufferPointer<UInt8>) {
        let utf8 = text.utf8
        if utf8.count == bytes.count,
            utf8.withContiguousStorageIfAvailable({ bytes.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
                == true
        {
            return
        }
        text = String(decoding: bytes, as: UTF8.self)
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
