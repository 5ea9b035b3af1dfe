import XMLSupport

/// One element of an xCal document read whole (a component, a calendar's properties), as flat
/// arrays: its elements as nodes linked by index, their text as bytes in one buffer, their
/// names by number. A tree of `XMLElement`s cost an allocation or more per element (children,
/// text, place) and as much again to free, and reading xCal spent more on building and freeing
/// those trees than libxml2 spent parsing; these arrays are three allocations per component.
/// `XCalElement` reads a node the way the decoder reads an element.
final class XCalTree {
    struct Node {
        /// The name's number in `names`, as decoded (an extension element once resolved has the
        /// name it stands for).
        var name: Int32
        /// The name it was read with, for its path.
        var pathName: Int32
        var parent: Int32
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// How many siblings of its name it has had, itself included (for its path).
        var index: Int32
        var line: Int
        var textStart = 0
        var textCount = 0
        var attributeStart: Int32
        var attributeCount: Int32
    }

    /// The names met so far, by the reader's numbers, with what the decoder asks of each.
    struct Names {
        private(set) var names: [XMLName] = []
        /// Each local name upper-cased, as the ICS reader has iCalendar names.
        private(set) var uppers: [String] = []
        /// Whether each is in the xCal namespace.
        private(set) var inXCal: [Bool] = []

        var count: Int { names.count }

        mutating func append(_ name: XMLName) {
            names.append(name)
            uppers.append(Self.upper(name.local))
            inXCal.append(name.namespace == XCalNames.namespace)
        }

        /// The number of `name`, added if it is new.
        mutating func number(_ name: XMLName) -> Int32 {
            if let i = names.firstIndex(of: name) { return Int32(i) }
            append(name)
            return Int32(names.count - 1)
        }

        /// An element name upper-cased: element names are ASCII, upper-cased here byte by byte
        /// (String.uppercased() goes through the Unicode tables); anything else goes the long way.
        static func upper(_ local: String) -> String {
            var local = local
            let ascii: String? = local.withUTF8 { bytes in
                guard bytes.count <= 64, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out in
                    for i in 0..<bytes.count {
                        let b = bytes[i]
                        out[i] = b >= 0x61 && b <= 0x7A ? b - 0x20 : b
                    }
                    return String(decoding: out, as: UTF8.self)
                }
            }
            return ascii ?? local.uppercased()
        }
    }

    // Read often while decoding and written only while reading or on the rare repairs below;
    // no access hands out a reference across a call, so the run-time exclusivity checks are
    // left out (as in XMLPullReader).
    @exclusivity(unchecked) private(set) var nodes: [Node]
    @exclusivity(unchecked) private(set) var names: Names
    @exclusivity(unchecked) private var text: [UInt8]
    private let attributes: [XMLAttribute]
    /// The root's path in the document.
    private let rootPath: String
    /// Paths of elements made while decoding, which are not in the document.
    private var madePaths: [Int: String] = [:]

    fileprivate init(nodes: [Node], names: Names, text: [UInt8], attributes: [XMLAttribute], rootPath: String) {
        self.nodes = nodes
        self.names = names
        self.text = text
        self.attributes = attributes
        self.rootPath = rootPath
    }

    /// The root element. Elements refer to the tree without keeping it: the caller keeps the
    /// tree alive while it uses them.
    var root: XCalElement { XCalElement(tree: self, id: 0) }

    func text(of id: Int) -> String {
        let node = nodes[id]
        guard node.textCount > 0 else { return "" }
        return text.withUnsafeBufferPointer { String(decoding: $0[node.textStart..<node.textStart + node.textCount], as: UTF8.self) }
    }

    func attributes(of id: Int) -> ArraySlice<XMLAttribute> {
        let node = nodes[id]
        return attributes[Int(node.attributeStart)..<Int(node.attributeStart + node.attributeCount)]
    }

    /// The element's path, e.g. `/icalendar/vcalendar/components/vevent[3]/properties`.
    func path(of id: Int) -> String {
        if id == 0 { return rootPath }
        if let made = madePaths[id] { return made }
        let node = nodes[id]
        let text = path(of: Int(node.parent)) + "/" + names.names[Int(node.pathName)].local
        return node.index > 1 ? text + "[\(node.index)]" : text
    }

    /// Gives element `id` the name `name` for decoding; its path keeps the name it was read with.
    func rename(_ id: Int, to name: XMLName) {
        nodes[id].name = names.number(name)
    }

    /// An element that is not in the document (a value the decoder supplies), with the text,
    /// line and path given.
    func make(name: XMLName, text value: String, line: Int, path: String) -> XCalElement {
        let number = names.number(name)
        let start = text.count
        text.append(contentsOf: value.utf8)
        nodes.append(
            Node(
                name: number, pathName: number, parent: -1, index: 1, line: line, textStart: start, textCount: text.count - start,
                attributeStart: 0, attributeCount: 0))
        madePaths[nodes.count - 1] = path
        return XCalElement(tree: self, id: nodes.count - 1)
    }
}

/// Builds `XCalTree`s from a pull reader, keeping its buffers from one tree to the next.
struct XCalTreeBuilder {
    private var names = XCalTree.Names()
    /// Each open element's text, gathered as bytes and moved into the tree at its end: the
    /// whitespace between an element's children comes as one node per gap.
    private var texts: [[UInt8]] = []
    private var stack: [Int32] = []
    /// The sizes of the last tree, to reserve for the next.
    private var lastNodeCount = 16
    private var lastTextCount = 256

    /// Reads the element `xml` has just started, and everything inside it.
    mutating func read(_ xml: XMLPullReader, start name: XMLName, attributes firstAttributes: [XMLAttribute]) throws -> XCalTree {
        var nodes: [XCalTree.Node] = []
        nodes.reserveCapacity(lastNodeCount)
        var text: [UInt8] = []
        text.reserveCapacity(lastTextCount)
        var attributes = firstAttributes
        let rootPath = xml.path
        let rootName = self.number(xml.startedName, in: xml)
        nodes.append(
            XCalTree.Node(
                name: rootName, pathName: rootName, parent: -1, index: 1, line: xml.line, attributeStart: 0,
                attributeCount: Int32(attributes.count)))
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        if texts.isEmpty { texts.append([]) }
        var size = 0
        while let node = try xml.nextNumberedNode() {
            switch node {
            case .start(let name, let index):
                let number = self.number(name, in: xml)
                let childAttributes = xml.startedAttributes
                let parent = stack[stack.count - 1]
                let id = Int32(nodes.count)
                nodes.append(
                    XCalTree.Node(
                        name: number, pathName: number, parent: parent, index: Int32(index), line: xml.line,
                        attributeStart: Int32(attributes.count), attributeCount: Int32(childAttributes.count)))
                if !childAttributes.isEmpty { attributes += childAttributes }
                let last = nodes[Int(parent)].lastChild
                if last >= 0 {
                    nodes[Int(last)].nextSibling = id
                } else {
                    nodes[Int(parent)].firstChild = id
                }
                nodes[Int(parent)].lastChild = id
                stack.append(id)
                if texts.count < stack.count { texts.append([]) }
            case .text(let bytes):
                size += bytes.count
                if size > xml.limits.maximumTextBytes {
                    throw xml.error(.tooLarge, "the content of \(name.local) is longer than \(xml.limits.maximumTextBytes) bytes")
                }
                texts[stack.count - 1].append(contentsOf: bytes)
            case .end:
                let id = Int(stack.removeLast())
                let level = stack.count
                if !texts[level].isEmpty {
                    nodes[id].textStart = text.count
                    nodes[id].textCount = texts[level].count
                    text += texts[level]
                    texts[level].removeAll(keepingCapacity: true)
                }
                if stack.isEmpty {
                    lastNodeCount = nodes.count
                    lastTextCount = text.count
                    return XCalTree(nodes: nodes, names: names, text: text, attributes: attributes, rootPath: rootPath)
                }
            }
        }
        throw xml.error(.malformed, "the document ends inside \(name.local)")
    }

    /// The reader's name number as the tree's, the names up to it learnt from the reader.
    private mutating func number(_ number: Int, in xml: XMLPullReader) -> Int32 {
        while names.count <= number { names.append(xml.name(numbered: names.count)) }
        return Int32(number)
    }
}

/// An element of an `XCalTree`, read as the decoder reads elements. It does not keep the tree
/// alive (counting references for every element looked at cost more than the rest of it).
struct XCalElement {
    unowned(unsafe) let tree: XCalTree
    let id: Int

    private var node: XCalTree.Node { tree.nodes[id] }

    var name: XMLName { tree.names.names[Int(node.name)] }
    var local: String { tree.names.names[Int(node.name)].local }
    var namespace: String { tree.names.names[Int(node.name)].namespace }
    /// The local name upper-cased, as iCalendar names are.
    var upperLocal: String { tree.names.uppers[Int(node.name)] }
    var isXCal: Bool { tree.names.inXCal[Int(node.name)] }
    /// The line the element started on.
    var line: Int { node.line }
    /// The element's path in the document, for messages.
    var path: String { tree.path(of: id) }
    /// The element's own character data, concatenated (text of children not included).
    var text: String { tree.text(of: id) }
    /// The text with surrounding whitespace removed.
    var trimmedText: String { XMLElement.trimmed(text) }

    /// Its child elements, in order.
    var allChildren: XCalChildren { XCalChildren(tree: tree, cursor: node.firstChild, onlyXCal: false) }

    /// Its child elements in the xCal namespace, in order.
    var xcalChildren: XCalChildren { XCalChildren(tree: tree, cursor: node.firstChild, onlyXCal: true) }

    /// The first child with this name.
    func child(_ name: XMLName) -> XCalElement? {
        var child = node.firstChild
        while child >= 0 {
            let element = XCalElement(tree: tree, id: Int(child))
            if element.name == name { return element }
            child = tree.nodes[Int(child)].nextSibling
        }
        return nil
    }

    /// The value of an attribute without a namespace.
    func attribute(_ local: String) -> String? {
        tree.attributes(of: id).first { $0.name.namespace.isEmpty && $0.name.local == local }?.value
    }
}

/// Children of an `XCalElement`, walked along the tree's links rather than gathered into an
/// array first.
struct XCalChildren: Sequence, IteratorProtocol {
    unowned(unsafe) let tree: XCalTree
    /// The next child to look at, -1 after the last.
    var cursor: Int32
    /// Whether children in other namespaces are passed over.
    let onlyXCal: Bool

    mutating func next() -> XCalElement? {
        while cursor >= 0 {
            let id = Int(cursor)
            let node = tree.nodes[id]
            cursor = node.nextSibling
            if !onlyXCal || tree.names.inXCal[Int(node.name)] { return XCalElement(tree: tree, id: id) }
        }
        return nil
    }

    /// How many there are: the walk is short, and `map` then makes its array at once.
    var underestimatedCount: Int {
        var copy = self
        var count = 0
        while copy.next() != nil { count += 1 }
        return count
    }
}
