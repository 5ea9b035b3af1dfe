internal import CLibXML2

/// A streaming XML reader over libxml2's xmlTextReader: events in document order, memory
/// bounded by the largest text node rather than the document, so a 1 GB REPORT body streams.
///
/// Safe by default: no network (XML_PARSE_NONET), no DTD loading, no entity substitution, the
/// declared encoding ignored (UTF-8 only), and a document type declaration refused before
/// libxml2 sees it (see `PrologGuard`); depth and text size are bounded by `XMLLimits`. Every
/// libxml2 call is in this file, and every failure becomes an `XMLError` with line and path.
public final class XMLPullReader {
    /// The input's name for errors.
    public let name: String
    public let limits: XMLLimits
    private let input: InputBox
    private let reader: OpaquePointer

    /// An open element and how many children of each name it has had, for paths. Names are
    /// counted by their number in `names`: an element has few distinct child names, and a
    /// dictionary of `XMLName`s per element cost more in hashing than the scan.
    private struct Frame {
        var name: XMLName
        var index: Int
        var childCounts: [(name: Int, count: Int)] = []

        mutating func count(_ name: Int) -> Int {
            for i in childCounts.indices where childCounts[i].name == name {
                childCounts[i].count += 1
                return childCounts[i].count
            }
            childCounts.append((name, 1))
            return 1
        }
    }

    private var stack: [Frame] = []
    private var root = Frame(name: XMLName("", ""), index: 0)
    private var names = XMLNameTable()
    /// The end event owed for an empty element (`<a/>`).
    private var pendingEnd: XMLName?
    private var finished = false

    /// Opens a reader that pulls bytes through `read` (which fills the buffer and returns the
    /// count, 0 at the end).
    public init(name: String, limits: XMLLimits = XMLLimits(), read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        self.name = name
        self.limits = limits
        let box = InputBox(read: read, prologLimit: limits.maximumPrologBytes, markupLimit: limits.maximumMarkupBytes)
        self.input = box
        let context = Unmanaged.passUnretained(box).toOpaque()
        // XML_PARSE_COMPACT keeps short text inside its node (one allocation less per node);
        // nothing here changes libxml2's nodes.
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        guard let made = xmlReaderForIO(Self.readCallback, Self.closeCallback, context, name, "UTF-8", options) else {
            throw box.failure(file: name, line: nil, path: "/")
                ?? XMLError(.io, "libxml2 could not open a reader", file: name, line: nil, path: "/")
        }
        reader = made
        xmlTextReaderSetStructuredErrorHandler(reader, Self.errorCallback, context)
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// The element path of the current position, e.g. `/multistatus/response[2]/propstat/prop`.
    public var path: String {
        guard !stack.isEmpty else { return "/" }
        return stack.map { $0.index > 1 ? "\($0.name.local)[\($0.index)]" : $0.name.local }.reduce("") { $0 + "/" + $1 }
    }

    /// The line of the current node (1-based); where there is none, the line the parser is at
    /// (libxml2 parses ahead of the node it reports).
    public var line: Int {
        if !finished, let node = xmlTextReaderCurrentNode(reader) {
            let n = xmlGetLineNo(node)
            if n > 0 { return Int(n) }
        }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }

    /// How many elements are open.
    public var depth: Int { stack.count }

    /// An error at the current position.
    public func error(_ kind: XMLError.Kind, _ message: String) -> XMLError {
        XMLError(kind, message, file: name, line: line, path: path)
    }

    /// The next event, or nil after the root element has closed.
    public func next() throws -> XMLEvent? {
        switch try nextNode() {
        case nil: return nil
        case .start(let name, let attributes)?: return .start(name, attributes: attributes)
        case .end(let name)?: return .end(name)
        case .text(let bytes)?: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// An event as `next` yields it, with text as libxml2's bytes (valid until the next call),
    /// so that a caller gathering an element's text makes one String rather than one per node.
    enum Node {
        case start(XMLName, attributes: [XMLAttribute])
        case end(XMLName)
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// The next node, or nil after the root element has closed.
    func nextNode() throws -> Node? {
        if let end = pendingEnd {
            pendingEnd = nil
            stack.removeLast()
            return .end(end)
        }
        guard !finished else { return nil }
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 {
                finished = true
                if let failure = input.failure(file: name, line: line, path: path) { throw failure }
                return nil
            }
            if status < 0 {
                finished = true
                throw input.failure(file: name, line: line, path: path)
                    ?? error(.malformed, "the document is not well-formed XML")
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                let (elementNumber, element) = currentName()
                var attributes: [XMLAttribute] = []
                if xmlTextReaderHasAttributes(reader) == 1 {
                    while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                        let attribute = currentName().name
                        // Namespace declarations are syntax, not data: names carry their URI.
                        if attribute.namespace == "http://www.w3.org/2000/xmlns/" { continue }
                        attributes.append(XMLAttribute(attribute, currentValue()))
                    }
                    xmlTextReaderMoveToElement(reader)
                }
                let empty = xmlTextReaderIsEmptyElement(reader) == 1
                let index = stack.isEmpty ? root.count(elementNumber) : stack[stack.count - 1].count(elementNumber)
                stack.append(Frame(name: element, index: index))
                if stack.count > limits.maximumDepth {
                    finished = true
                    throw error(.tooDeep, "elements are nested deeper than \(limits.maximumDepth) levels")
                }
                if empty { pendingEnd = element }
                return .start(element, attributes: attributes)
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                let frame = stack.removeLast()
                return .end(frame.name)
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                guard let value = xmlTextReaderConstValue(reader) else { continue }
                let count = Int(xmlStrlen(value))
                if count > limits.maximumTextBytes {
                    finished = true
                    throw error(.tooLarge, "a text node is longer than \(limits.maximumTextBytes) bytes")
                }
                return .text(UnsafeBufferPointer(start: value, count: count))
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                finished = true
                throw error(.documentType, "document type declarations are refused (entity expansion, external entities)")
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                finished = true
                throw error(
                    .entityReference, "entity references are refused (only the predefined entities and character references are read)")
            default:
                // Comments, processing instructions: not data.
                continue
            }
        }
    }

    /// The current node's name and its number in `names`: libxml2 hands out the same
    /// pointers for the same names, so each name becomes Strings once.
    private func currentName() -> (number: Int, name: XMLName) {
        names.name(local: xmlTextReaderConstLocalName(reader), namespace: xmlTextReaderConstNamespaceUri(reader))
    }

    private func currentValue() -> String {
        xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
    }

    // MARK: - The C side

    /// What libxml2's callbacks reach through their context pointer: the byte source, the
    /// prolog guard, and the first failure seen.
    private final class InputBox {
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        var guardian: PrologGuard
        var markup: MarkupGuard
        var refusal: (kind: XMLError.Kind, message: String)?
        var readError: Error?
        var parserMessage: (text: String, line: Int?)?

        init(read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, prologLimit: Int, markupLimit: Int) {
            self.read = read
            self.guardian = PrologGuard(limit: prologLimit)
            self.markup = MarkupGuard(limit: markupLimit)
        }

        /// Bytes read from the source and not yet handed to libxml2. Reading in our own chunks
        /// (libxml2 first asks for 4 bytes) lets the guard see a useful prefix at once.
        private var staged: [UInt8] = []
        private var stagedOffset = 0
        private var started = false

        /// Reads the next chunk from the source: at least 64 bytes for the first one, so the
        /// guard can tell what the input is, unless the input is shorter.
        private func refill() throws {
            staged = [UInt8](repeating: 0, count: 1 << 16)
            var count = 0
            repeat {
                let n = try staged.withUnsafeMutableBytes { try read(UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
                if n == 0 { break }
                count += n
            } while !started && count < 64
            started = true
            staged.removeSubrange(count...)
            stagedOffset = 0
        }

        /// Fills libxml2's buffer; -1 stops the parser (refused prolog, failed read).
        func fill(_ buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32 {
            guard refusal == nil, readError == nil else { return -1 }
            do {
                if stagedOffset == staged.count {
                    try refill()
                    let verdict = staged.isEmpty ? guardian.finish() : staged.withUnsafeBytes { guardian.feed($0) }
                    if case .refused(let kind, let message) = verdict {
                        refusal = (kind, message)
                        return -1
                    }
                    guard staged.withUnsafeBytes({ markup.feed($0) }) else {
                        refusal = (.tooLarge, "a tag, comment or processing instruction is longer than \(markup.limit) bytes")
                        return -1
                    }
                    if staged.isEmpty { return 0 }
                }
                let n = min(length, staged.count - stagedOffset)
                staged.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + stagedOffset, byteCount: n)
                }
                stagedOffset += n
                return Int32(n)
            } catch {
                readError = error
                return -1
            }
        }

        /// The failure to report, most specific first: our refusal, the source's error, libxml2's message.
        func failure(file: String, line: Int?, path: String) -> XMLError? {
            if let refusal { return XMLError(refusal.kind, refusal.message, file: file, line: nil, path: "/") }
            if let readError {
                if let x = readError as? XMLError { return x }
                return XMLError(.io, "reading failed: \(readError)", file: file, line: line, path: path)
            }
            if let parserMessage {
                return XMLError(.malformed, parserMessage.text, file: file, line: parserMessage.line ?? line, path: path)
            }
            return nil
        }
    }

    private static let readCallback: xmlInputReadCallback = { context, buffer, length in
        guard let context, let buffer, length > 0 else { return 0 }
        return Unmanaged<InputBox>.fromOpaque(context).takeUnretainedValue().fill(buffer, Int(length))
    }

    private static let closeCallback: xmlInputCloseCallback = { _ in 0 }

    private static let errorCallback: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let box = Unmanaged<InputBox>.fromOpaque(context).takeUnretainedValue()
        guard box.parserMessage == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var text = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
        while text.last == "\n" || text.last == " " { text.removeLast() }
        box.parserMessage = (text, error.pointee.line > 0 ? Int(error.pointee.line) : nil)
    }
}
