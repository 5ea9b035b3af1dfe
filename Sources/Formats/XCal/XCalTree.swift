import ICalendarData
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
        /// Its first run of text in `text`; any later runs (text after a child, as the
        /// whitespace between children) are in `moreText`, from this index on (-1: none).
        var textStart = 0
        var textCount = 0
        var moreText: Int32 = -1
        var attributeStart: Int32
        var attributeCount: Int32
        /// What the decoder asks of the name, copied from `Names` so that a look at a node
        /// reads no array but the nodes.
        var facts: Names.Facts
    }

    /// The names met so far, by the reader's numbers, with what the decoder asks of each.
    struct Names {
        private(set) var names: [XMLName] = []
        /// Each local name upper-cased, as the ICS reader has iCalendar names.
        private(set) var uppers: [String] = []
        /// What the decoder asks of each name, by number.
        private(set) var facts: [Facts] = []

        /// The roles the decoder tells elements apart by, known from the local name alone.
        enum Role: UInt8 {
            case other, properties, components, parameters, latitude, longitude, code, date, unknown, boolean
        }

        /// What the decoder asks of a name, worked out once when the name is first met rather
        /// than for every element (string comparisons and a dictionary lookup per value).
        struct Facts {
            /// Whether the name is in the xCal namespace.
            var inXCal: Bool
            var role: Role
            /// The value type a value element of this name holds, as the decoder finds it by
            /// the local name (nil for a name that is no value type).
            var valueType: ValueType?
        }

        var count: Int { names.count }

        mutating func append(_ name: XMLName) {
            names.append(name)
            uppers.append(Self.upper(name.local))
            facts.append(Self.facts(of: name))
        }

        private static let roles: [String: Role] = [
            "properties": .properties, "components": .components, "parameters": .parameters, "latitude": .latitude,
            "longitude": .longitude, "code": .code, "date": .date, "unknown": .unknown, "boolean": .boolean,
        ]

        /// The value types by their xCal element names (`date-time`).
        private static let valueTypes: [String: ValueType] = Dictionary(
            uniqueKeysWithValues: ValueType.allCases.map { ($0.rawValue.lowercased(), $0) })

        private static func facts(of name: XMLName) -> Facts {
            Facts(
                inXCal: name.namespace == XCalNames.namespace, role: roles[name.local] ?? .other,
                valueType: valueTypes[name.local] ?? ValueType(rawValue: name.local.uppercased()))
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
    //
    // The nodes are in memory of the tree's own rather than an array: the decoder looks at
    // nodes through elements that do not keep the tree, and every look at an array property
    // of the tree retained and released the array's buffer (a fifth of the decoder's work).
    @exclusivity(unchecked) private(set) var nodes: UnsafeMutablePointer<Node>
    @exclusivity(unchecked) private var nodeCount: Int
    @exclusivity(unchecked) private var nodeCapacity: Int
    @exclusivity(unchecked) private(set) var names: Names
    @exclusivity(unchecked) private var text: XCalTextBuffer
    /// The runs of an element's text after its first, each linked to the next (-1: the last).
    private let moreText: [(start: Int, count: Int, next: Int32)]
    private let attributes: [XMLAttribute]
    /// Whether every element read is in the xCal namespace (so none is to be resolved or
    /// skipped), as nearly always.
    let allXCal: Bool
    /// The root's place in the document, turned into text only for a message.
    private let rootPath: XMLPath
    /// Paths of elements made while decoding, which are not in the document.
    private var madePaths: [Int: String] = [:]

    fileprivate init(
        nodes: [Node], names: Names, text: XCalTextBuffer, moreText: [(start: Int, count: Int, next: Int32)], attributes: [XMLAttribute],
        rootPath: XMLPath
    ) {
        self.moreText = moreText
        self.nodeCount = nodes.count
        self.nodeCapacity = nodes.count
        let storage = UnsafeMutablePointer<Node>.allocate(capacity: max(nodes.count, 1))
        nodes.withUnsafeBufferPointer { storage.initialize(from: $0.baseAddress!, count: $0.count) }
        self.nodes = storage
        self.allXCal = nodes.allSatisfy(\.facts.inXCal)
        self.names = names
        self.text = text
        self.attributes = attributes
        self.rootPath = rootPath
    }

    deinit {
        nodes.deinitialize(count: nodeCount)
        nodes.deallocate()
        text.free()
    }

    /// The root element. Elements refer to the tree without keeping it: the caller keeps the
    /// tree alive while it uses them.
    var root: XCalElement { XCalElement(tree: self, id: 0) }

    func text(of id: Int) -> String {
        let node = nodes[id]
        guard node.textCount > 0 else { return "" }
        guard node.moreText >= 0 else { return String(decoding: text.slice(node.textStart, node.textCount), as: UTF8.self) }
        var joined = Array(text.slice(node.textStart, node.textCount))
        var run = node.moreText
        while run >= 0 {
            let more = moreText[Int(run)]
            joined += text.slice(more.start, more.count)
            run = more.next
        }
        return String(decoding: joined, as: UTF8.self)
    }

    /// `body` over the element's text as bytes when they are its trimmed text as they stand
    /// (one run, starting and ending with a visible ASCII byte, as `XMLElement.trimmed` tests);
    /// nil otherwise. A value parsed from bytes needs no String made.
    func withPlainText<R>(of id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let node = nodes[id]
        guard node.textCount > 0, node.moreText < 0 else { return nil }
        let bytes = text.slice(node.textStart, node.textCount)
        guard bytes[0] > 0x20, bytes[0] < 0x7F, bytes[bytes.count - 1] > 0x20, bytes[bytes.count - 1] < 0x7F else { return nil }
        return body(bytes)
    }

    func attributes(of id: Int) -> ArraySlice<XMLAttribute> {
        let node = nodes[id]
        return attributes[Int(node.attributeStart)..<Int(node.attributeStart + node.attributeCount)]
    }

    /// The element's path, e.g. `/icalendar/vcalendar/components/vevent[3]/properties`.
    func path(of id: Int) -> String {
        if id == 0 { return rootPath.description }
        if let made = madePaths[id] { return made }
        let node = nodes[id]
        let text = path(of: Int(node.parent)) + "/" + names.names[Int(node.pathName)].local
        return node.index > 1 ? text + "[\(node.index)]" : text
    }

    /// Gives element `id` the name `name` for decoding; its path keeps the name it was read with.
    func rename(_ id: Int, to name: XMLName) {
        let number = names.number(name)
        nodes[id].name = number
        nodes[id].facts = names.facts[Int(number)]
    }

    /// An element that is not in the document (a value the decoder supplies), with the text,
    /// line and path given.
    func make(name: XMLName, text value: String, line: Int, path: String) -> XCalElement {
        let number = names.number(name)
        let start = text.count
        var value = value
        value.withUTF8 { text.append($0) }
        if nodeCount == nodeCapacity {
            let grown = UnsafeMutablePointer<Node>.allocate(capacity: nodeCapacity * 2)
            grown.moveInitialize(from: nodes, count: nodeCount)
            nodes.deallocate()
            nodes = grown
            nodeCapacity *= 2
        }
        (nodes + nodeCount).initialize(
            to: Node(
                name: number, pathName: number, parent: -1, index: 1, line: line, textStart: start, textCount: text.count - start,
                attributeStart: 0, attributeCount: 0, facts: names.facts[Int(number)]))
        nodeCount += 1
        madePaths[nodeCount - 1] = path
        return XCalElement(tree: self, id: nodeCount - 1)
    }
}

/// Bytes in memory of their own, grown by doubling: the text of one tree. Appending a text
/// node to an array cost three times the copy (uniqueness, capacity, the generic append).
struct XCalTextBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        bytes = .allocate(capacity: self.capacity)
    }

    mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        guard let from = more.baseAddress, !more.isEmpty else { return }
        if count + more.count > capacity {
            var grown = capacity * 2
            while grown < count + more.count { grown *= 2 }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: bytes, count: count)
            bytes.deallocate()
            bytes = larger
            capacity = grown
        }
        (bytes + count).update(from: from, count: more.count)
        count += more.count
    }

    /// The bytes from `start`, `count` of them.
    func slice(_ start: Int, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + start, count: count)
    }

    /// Frees the memory; the buffer is not used after.
    func free() {
        bytes.deallocate()
    }
}

/// Builds `XCalTree`s from a pull reader, keeping its buffers from one tree to the next.
struct XCalTreeBuilder {
    private var names = XCalTree.Names()
    /// The open elements, each with the last run of its text in the tree's `moreText` (-1:
    /// its first run, in the node, is the last).
    private var stack: [(id: Int32, lastRun: Int32)] = []
    /// The sizes of the last tree, to reserve for the next.
    private var lastTextCount = 256
    private var lastMoreTextCount = 16
    /// The nodes of the tree being read, kept from one tree to the next (the tree copies them).
    private var nodes: [XCalTree.Node] = []

    /// Reads the element `xml` has just started, and everything inside it.
    mutating func read(_ xml: XMLPullReader, start name: XMLName, attributes firstAttributes: [XMLAttribute]) throws -> XCalTree {
        nodes.removeAll(keepingCapacity: true)
        // Text goes into one buffer as it comes, each element's runs noted where they are
        // (gathering each open element's text in an array of its own and moving it at the
        // element's end cost as much as the rest of building the tree).
        var text = XCalTextBuffer(capacity: lastTextCount + lastTextCount / 4)
        // The tree takes the buffer; a failure before frees it.
        var handedOver = false
        defer { if !handedOver { text.free() } }
        var moreText: [(start: Int, count: Int, next: Int32)] = []
        moreText.reserveCapacity(lastMoreTextCount)
        var attributes = firstAttributes
        let rootPath = xml.place
        let rootName = self.number(xml.startedName, in: xml)
        nodes.append(
            XCalTree.Node(
                name: rootName, pathName: rootName, parent: -1, index: 1, line: xml.line, attributeStart: 0,
                attributeCount: Int32(attributes.count), facts: names.facts[Int(rootName)]))
        stack.removeAll(keepingCapacity: true)
        stack.append((0, -1))
        var size = 0
        while let node = try xml.nextNumberedNode() {
            switch node {
            case .start(let name, let index):
                let number = self.number(name, in: xml)
                let childAttributes = xml.startedAttributes
                let parent = stack[stack.count - 1].id
                let id = Int32(nodes.count)
                nodes.append(
                    XCalTree.Node(
                        name: number, pathName: number, parent: parent, index: Int32(index), line: xml.line,
                        attributeStart: Int32(attributes.count), attributeCount: Int32(childAttributes.count),
                        facts: names.facts[Int(number)]))
                if !childAttributes.isEmpty { attributes += childAttributes }
                let last = nodes[Int(parent)].lastChild
                if last >= 0 {
                    nodes[Int(last)].nextSibling = id
                } else {
                    nodes[Int(parent)].firstChild = id
                }
                nodes[Int(parent)].lastChild = id
                stack.append((id, -1))
            case .text(let bytes):
                size += bytes.count
                if size > xml.limits.maximumTextBytes {
                    throw xml.error(.tooLarge, "the content of \(name.local) is longer than \(xml.limits.maximumTextBytes) bytes")
                }
                let (id, lastRun) = stack[stack.count - 1]
                let at = text.count
                text.append(bytes)
                if nodes[Int(id)].textCount == 0 {
                    nodes[Int(id)].textStart = at
                    nodes[Int(id)].textCount = bytes.count
                } else if lastRun < 0 && nodes[Int(id)].textStart + nodes[Int(id)].textCount == at {
                    nodes[Int(id)].textCount += bytes.count
                } else if lastRun >= 0 && moreText[Int(lastRun)].start + moreText[Int(lastRun)].count == at {
                    moreText[Int(lastRun)].count += bytes.count
                } else {
                    // Text after a child: a run of its own, linked from the element's last.
                    let run = Int32(moreText.count)
                    moreText.append((at, bytes.count, -1))
                    if lastRun < 0 {
                        nodes[Int(id)].moreText = run
                    } else {
                        moreText[Int(lastRun)].next = run
                    }
                    stack[stack.count - 1].lastRun = run
                }
            case .end:
                stack.removeLast()
                if stack.isEmpty {
                    lastTextCount = text.count
                    lastMoreTextCount = moreText.count
                    handedOver = true
                    return XCalTree(
                        nodes: nodes, names: names, text: text, moreText: moreText, attributes: attributes, rootPath: rootPath)
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
    var isXCal: Bool { node.facts.inXCal }
    /// What the decoder tells the element apart by.
    var role: XCalTree.Names.Role { node.facts.role }
    /// The value type an element of this name holds, if it is a value element.
    var valueType: ValueType? { node.facts.valueType }
    /// The number of its name: two elements of the same tree have the same name if and only
    /// if they have the same number.
    var nameNumber: Int32 { node.name }
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
            if !onlyXCal || node.facts.inXCal { return XCalElement(tree: tree, id: id) }
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
