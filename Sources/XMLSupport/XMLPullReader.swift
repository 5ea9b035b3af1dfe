internal import CLibXML2

/// A streaming XML reader over libxml2's SAX2 parser: events in document order, memory
/// bounded by one input chunk's events and the largest text node rather than the document, so
/// a 1 GB REPORT body streams.
///
/// libxml2's xmlTextReader builds a node per event and hands its strings out one call at a
/// time; its SAX2 callbacks cost less than half as much (xmllint on a 456 MB xCal: 2.3 s with
/// the reader, 1.0 s with SAX). The callbacks queue each chunk's events (names by number in
/// `XMLNameTable`, text as bytes), and `nextNode` hands them out one by one, so callers still
/// pull.
///
/// On the caller's thread libxml2 is a push parser fed 64 KiB chunks. Parsing ahead on a thread
/// of its own, it pulls the document through a read callback instead: the push parser looks
/// ahead for the end of every tag and text before parsing it, so it reads each twice, and that
/// was 450M of the 2.05G instructions libxml2 took over a 45 MB xCal document. The two modes
/// word some errors differently at the end of a cut-off document; `Parser.pulledError` gives the
/// push parser's words, and both give the same events (see `Parser.characters`).
///
/// Safe by default: no network (XML_PARSE_NONET), no DTD loading, no entity substitution, the
/// declared encoding ignored (UTF-8 only), and a document type declaration refused before
/// libxml2 sees it (see `PrologGuard`); depth and text size are bounded by `XMLLimits`. Every
/// libxml2 call is in this file, and every failure becomes an `XMLError` with line and path.

public final class XMLPullReader {
    /// The input's name for errors.
    public let name: String
    public let limits: XMLLimits

    /// An open element by its name's number, the line it started on, and where the counts of
    /// its children's names start in `childCounts`.
    private struct Frame {
        var name: Int
        var index: Int
        var line: Int
        var countsStart: Int
    }

    /// The parser's chunks of events, parsed on a thread of its own when the reader was opened
    /// to parse ahead, else on the caller's.
    private let batches: Prefetcher<Batch>
    @exclusivity(unchecked) private var batch = Batch()
    /// The batch before `batch`, kept until the next one comes: a text node's bytes then stay
    /// valid through the call after the one that handed them out (see `readTree`).
    @exclusivity(unchecked) private var previousBatch = Batch()
    @exclusivity(unchecked) private var head = 0
    /// The names by number, as the batches introduce them.
    @exclusivity(unchecked) private var names: [XMLName] = []
    @exclusivity(unchecked) private var endLine = 1
    @exclusivity(unchecked) private var stack: [Frame] = []
    /// How many children of each name each open element (and the document) has had, for
    /// paths: one stack of counts, each element's run above its parent's, since an element's
    /// children are counted only while it is the innermost open one. Names are counted by
    /// number: an element has few distinct child names, and a dictionary (or an array) per
    /// element cost more than the scan.
    @exclusivity(unchecked) private var childCounts: [(name: Int, count: Int)] = []
    /// How many of `childCounts` are in use: an element's end gives its run back by moving this
    /// down, the entries written over later (removing them went through the generic range
    /// replacement, a tenth of handing out the nodes).
    @exclusivity(unchecked) private var childCountsEnd = 0
    /// The line of the node last handed out.
    @exclusivity(unchecked) private var currentLine = 1
    @exclusivity(unchecked) private var finished = false

    /// Opens a reader that pulls bytes through `read` (which fills the buffer and returns the
    /// count, 0 at the end). With `parsesAhead`, libxml2 parses (and `read` is called) on a
    /// thread of its own, a few chunks ahead of the events handed out: for a caller that
    /// builds trees from the events while another thread interprets them, the parse is a third
    /// stage rather than half of the second.
    public init(
        name: String, limits: XMLLimits = XMLLimits(), parsesAhead: Bool = false,
        read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws {
        self.name = name
        self.limits = limits
        let parser = Parser(name: name, read: read, limits: limits)
        if parsesAhead {
            self.batches = Prefetcher(depth: 4) { emit in withoutActuallyEscaping(emit) { parser.pull($0) } }
        } else {
            self.batches = Prefetcher(concurrently: false, batchSize: 1, depth: 4) { parser.ended ? nil : parser.pump() }
        }
    }

    // The reader's state is touched for every event; the property accesses are not checked for
    // exclusivity at run time (that check cost a tenth of the whole read): nothing here hands
    // out a reference to them across a call.

    /// The element path of the current position, e.g. `/multistatus/response[2]/propstat/prop`.
    public var path: String {
        guard !stack.isEmpty else { return "/" }
        return stack.map { frame in
            let local = names[frame.name].local
            return frame.index > 1 ? "\(local)[\(frame.index)]" : local
        }.reduce("") { $0 + "/" + $1 }
    }

    /// The current position as a place whose text is `path`, made only when a message asks
    /// for it (formatting the path for every tree read cost a tenth of reading it).
    public var place: XMLPath {
        var place = XMLPath("")
        for frame in stack { place = XMLPath(parent: place, local: names[frame.name].local, index: frame.index) }
        return stack.isEmpty ? XMLPath("/") : place
    }

    /// The line of the current node (1-based): where an element's start tag ends (for its end
    /// too), where a text node ends; after the end, the line the parser stopped on.
    public var line: Int { finished ? endLine : currentLine }

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
        case .start(let name, let attributes, _)?: return .start(name, attributes: attributes)
        case .end(let name)?: return .end(name)
        case .text(let bytes)?: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// An event as `next` yields it, with text as the parser's bytes (valid until the next
    /// call), so that a caller gathering an element's text makes one String rather than one per
    /// node.
    public enum Node {
        /// An element opens: its name, attributes, and how many siblings of that name it has
        /// had, itself included.
        case start(XMLName, attributes: [XMLAttribute], index: Int)
        case end(XMLName)
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// The number of the name of the element last started (see `name(numbered:)`): a caller
    /// that tells names apart by number compares integers rather than strings.
    @exclusivity(unchecked) public private(set) var startedName = 0
    /// Where the attributes of the element last started are in the current batch.
    @exclusivity(unchecked) private var startedAttributeRange = 0..<0

    /// The name with this number; numbers are given in the order names are first met, from 0,
    /// and every number up to `startedName` is known.
    public func name(numbered number: Int) -> XMLName { names[number] }

    /// For `readTree`: how many children the element last read into a tree at each depth (below
    /// the tree's root) had, so that the next one's array is made that size at its first child
    /// rather than grown by doubling (a copy each time); documents repeat their shapes.
    @exclusivity(unchecked) var treeWidths: [Int] = []

    /// For each name's number, the number of the first name with the same local name.
    @exclusivity(unchecked) private var localNumbers: [Int] = []

    /// The number of the first name met whose local name is that of name `number`: names
    /// compared by local name alone, as integers.
    func localNumber(of number: Int) -> Int {
        while localNumbers.count <= number {
            let next = localNumbers.count
            let local = names[next].local
            localNumbers.append((0..<next).first { names[$0].local == local }.map { localNumbers[$0] } ?? next)
        }
        return localNumbers[number]
    }

    /// The attributes of the element last started (by `nextNode` or `nextNumberedNode`).
    public var startedAttributes: [XMLAttribute] {
        startedAttributeRange.isEmpty ? [] : Array(batch.attributes[startedAttributeRange])
    }

    /// A node as `nextNode` yields it, with the element's name by number and its attributes
    /// left in the reader (`startedAttributes`): for a caller that keeps names by number,
    /// neither a name nor an array is made per element.
    public enum NumberedNode {
        /// An element opens: its name's number, and how many siblings of that name it has had,
        /// itself included.
        case start(name: Int, index: Int)
        case end
        case text(UnsafeBufferPointer<UInt8>)
    }

    /// The next node, or nil after the document has ended.
    public func nextNode() throws -> Node? {
        switch try nextNumberedNode() {
        case nil: return nil
        case .start(let number, let index)?: return .start(names[number], attributes: startedAttributes, index: index)
        case .end?: return .end(names[endedName])
        case .text(let bytes)?: return .text(bytes)
        }
    }

    /// The name of the element last ended.
    @exclusivity(unchecked) private var endedName = 0

    /// The next node, names by number (see `NumberedNode`), or nil after the document has ended.
    public func nextNumberedNode() throws -> NumberedNode? {
        guard !finished else { return nil }
        while head == batch.eventCount {
            if batch.ended {
                finished = true
                endLine = batch.endLine
                if let failure = batch.failure(file: name, line: endLine, path: path) { throw failure }
                return nil
            }
            guard let next = batches.next() else {
                finished = true
                return nil
            }
            previousBatch = batch
            batch = next
            head = 0
            names += next.names
        }
        let event = batch.events[head]
        head += 1
        currentLine = Int(event.line)
        switch event.kind {
        case .start:
            let number = Int(event.name)
            startedName = number
            startedAttributeRange = Int(event.start)..<Int(event.start + event.count)
            let index = countChild(number, from: stack.isEmpty ? 0 : stack[stack.count - 1].countsStart)
            stack.append(Frame(name: number, index: index, line: currentLine, countsStart: childCountsEnd))
            if stack.count > limits.maximumDepth {
                finished = true
                throw error(.tooDeep, "elements are nested deeper than \(limits.maximumDepth) levels")
            }
            return .start(name: number, index: index)
        case .end:
            let frame = stack.removeLast()
            childCountsEnd = frame.countsStart
            endedName = frame.name
            // As libxml2's reader did: an end is placed on its element's start.
            currentLine = frame.line
            return .end
        case .text:
            if Int(event.count) > limits.maximumTextBytes {
                finished = true
                throw error(.tooLarge, "a text node is longer than \(limits.maximumTextBytes) bytes")
            }
            return .text(UnsafeBufferPointer(start: batch.text + Int(event.start), count: Int(event.count)))
        case .failure:
            finished = true
            let (kind, message) = batch.refusal ?? (.malformed, "the document is not well-formed XML")
            throw error(kind, message)
        }
    }

    /// Counts a child called `name` of the element whose counts start at `start`; how many of
    /// that name it has had, this one included.
    private func countChild(_ name: Int, from start: Int) -> Int { Self.count(name, in: &childCounts, end: &childCountsEnd, from: start) }

    /// Counts one more child called `name` (a number) among the counts from `start`, a run of
    /// distinct names with their counts; how many of that name there have been, this one included.
    static func count(_ name: Int, in counts: inout [(name: Int, count: Int)], from start: Int) -> Int {
        var end = counts.count
        return count(name, in: &counts, end: &end, from: start)
    }

    /// Counts one more child called `name` (a number) among the counts from `start` to `end`, a
    /// run of distinct names with their counts (those from `end` on are unused); how many of that
    /// name there have been, this one included.
    static func count(_ name: Int, in counts: inout [(name: Int, count: Int)], end: inout Int, from start: Int) -> Int {
        var i = start
        while i < end {
            if counts[i].name == name {
                counts[i].count += 1
                return counts[i].count
            }
            i += 1
        }
        if end < counts.count {
            counts[end] = (name, 1)
        } else {
            counts.append((name, 1))
        }
        end += 1
        return 1
    }

    /// A queued event: for a start, its name's number and its attributes in `attributes`; for
    /// text, its bytes in `text`.
    struct Event {
        enum Kind: UInt8 { case start, end, text, failure }

        var kind: Kind
        var name: Int32
        var line: Int32
        var start: Int32
        var count: Int32
    }

    /// The events of one chunk of input, and, with the last, how the document ended.
    final class Batch {
        /// The events, in memory of the batch's own as its text is: appending to an array cost
        /// a uniqueness check and more per event, on the thread that is the longest.
        @exclusivity(unchecked) private(set) var events: UnsafeMutablePointer<Event>
        @exclusivity(unchecked) private(set) var eventCount = 0
        @exclusivity(unchecked) private var eventCapacity: Int
        @exclusivity(unchecked) var attributes: [XMLAttribute] = []
        /// The names first met in this chunk, in the order of their numbers.
        var names: [XMLName] = []
        /// The events' text, in memory of the batch's own, so that a node's bytes stay put
        /// until the consumer moves on.
        @exclusivity(unchecked) var text: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var textCount = 0
        @exclusivity(unchecked) var textCapacity: Int
        var ended = false
        var endLine = 1
        var refusal: (kind: XMLError.Kind, message: String)?
        var readError: Error?
        var parserMessage: (text: String, line: Int?)?
        var wellFormed = true

        init(capacity: Int = 0, eventCapacity: Int = 0) {
            textCapacity = capacity
            text = .allocate(capacity: max(capacity, 1))
            self.eventCapacity = max(eventCapacity, 1)
            events = .allocate(capacity: self.eventCapacity)
        }

        deinit {
            text.deallocate()
            // Events hold no references: nothing to deinitialize.
            events.deallocate()
        }

        /// Adds an event, growing the memory as needed.
        @inline(__always)
        func add(_ event: Event) {
            if eventCount == eventCapacity { growEvents() }
            (events + eventCount).initialize(to: event)
            eventCount += 1
        }

        /// Doubles the room for events.
        @inline(never)
        private func growEvents() {
            let grown = UnsafeMutablePointer<Event>.allocate(capacity: eventCapacity * 2)
            grown.moveInitialize(from: events, count: eventCount)
            events.deallocate()
            events = grown
            eventCapacity *= 2
        }

        /// Adds a text node's bytes: a new text event, or more of the last one when `extending`.
        /// The callbacks' work on the batch is done in its own methods, where it is reached
        /// without a retain (from the callbacks, each access to the batch's arrays retained them).
        @inline(__always)
        func addText(_ bytes: UnsafePointer<UInt8>, _ count: Int, line: Int32, extending: Bool) {
            let at = textCount
            append(bytes, count)
            if extending {
                events[eventCount - 1].count += Int32(count)
            } else {
                add(Event(kind: .text, name: 0, line: line, start: Int32(at), count: Int32(count)))
            }
        }

        /// Moves the last event (a text node's) to `line`.
        func moveLastEvent(to line: Int32) {
            events[eventCount - 1].line = line
        }

        /// Adds an element's end.
        func addEnd() {
            add(Event(kind: .end, name: 0, line: 0, start: 0, count: 0))
        }

        /// Adds an element's start, its attributes being those from `firstAttribute` on.
        func addStart(name: Int, line: Int32, firstAttribute: Int) {
            let count = Int32(attributes.count - firstAttribute)
            add(Event(kind: .start, name: Int32(name), line: line, start: Int32(firstAttribute), count: count))
        }

        /// Adds text bytes, growing the buffer as needed.
        @inline(__always)
        func append(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
            if textCount + count > textCapacity { growText(to: textCount + count) }
            (text + textCount).update(from: bytes, count: count)
            textCount += count
        }

        /// Makes room for `needed` bytes of text, doubling the buffer.
        @inline(never)
        private func growText(to needed: Int) {
            var capacity = max(textCapacity * 2, 1024)
            while capacity < needed { capacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: text, count: textCount)
            text.deallocate()
            text = grown
            textCapacity = capacity
        }

        /// The failure to report at the end, most specific first: our refusal, the source's
        /// error, libxml2's message.
        func failure(file: String, line: Int?, path: String) -> XMLError? {
            if let refusal { return XMLError(refusal.kind, refusal.message, file: file, line: nil, path: "/") }
            if let readError {
                if let x = readError as? XMLError { return x }
                return XMLError(.io, "reading failed: \(readError)", file: file, line: line, path: path)
            }
            if let parserMessage {
                return XMLError(.malformed, parserMessage.text, file: file, line: parserMessage.line ?? line, path: path)
            }
            if !wellFormed {
                return XMLError(.malformed, "the document is not well-formed XML", file: file, line: line, path: path)
            }
            return nil
        }
    }

    // MARK: - The C side

    /// The push parser and what its callbacks reach through their context pointer: the byte
    /// source, the guards, the queue of events parsed from the last chunk, and the first
    /// failure seen.
    private final class Parser {
        let name: String
        let read: (UnsafeMutableRawBufferPointer) throws -> Int
        let limits: XMLLimits
        var guardian: PrologGuard
        var markup: MarkupGuard
        var context: xmlParserCtxtPtr?
        /// The document has ended, or parsing stopped on a failure.
        var ended = false

        @exclusivity(unchecked) var names = XMLNameTable()
        /// How many names earlier batches have introduced.
        var namesSent = 0
        /// The batch being filled.
        @exclusivity(unchecked) var batch: Batch { didSet { filling = Unmanaged.passUnretained(batch) } }
        /// `batch` for the callbacks, reached without a retain and release per event (a method
        /// called on `batch` retained it around the call): `batch` keeps it alive.
        @exclusivity(unchecked) private var filling: Unmanaged<Batch>
        /// The length of the text node being read, across chunks.
        @exclusivity(unchecked) var textRun = 0
        /// The batch's last event is a text node that more characters extend.
        @exclusivity(unchecked) var textOpen = false
        private var chunk: [UInt8] = Array(repeating: 0, count: 1 << 16)
        private var started = false
        /// Why reading stopped early: the source failed, or a guard refused the next chunk.
        private var readError: Error?
        private var refusal: (kind: XMLError.Kind, message: String)?

        // Pulling (see `pull`): libxml2 asks for bytes through `serve` and the callbacks hand
        // each full batch to `emit`.
        private var pulling = false
        private var emit: (Batch) -> Bool = { _ in false }
        /// The chunk's length and how much of it libxml2 has been given.
        private var chunkCount = 0
        private var chunkServed = 0
        /// Bytes held back from the end of the last piece (a CR or a `]`, at most two), served
        /// first next time.
        private var carried: (UInt8, UInt8) = (0, 0)
        private var carriedCount = 0
        /// The source has ended (it returned 0).
        private var sourceEnded = false
        /// libxml2 gets no more bytes: the consumer is gone, or reading failed or was refused.
        private var stopped = false
        /// The text node being read has so far come in pieces each cut by the end of libxml2's
        /// buffer, which the push parser would have handed over as one (see `characters`), and
        /// where in the input the last of them ended.
        @exclusivity(unchecked) private var cutPieces = false
        @exclusivity(unchecked) private var cutPieceEnd = 0
        /// Where in the input (counted from its start) the last node handed over ended: the
        /// push parser leaves a last byte after it unparsed (see `characters`, `pulledError`).
        @exclusivity(unchecked) private var parsedUpTo = 0

        init(name: String, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, limits: XMLLimits) {
            self.name = name
            self.read = read
            self.limits = limits
            self.guardian = PrologGuard(limit: limits.maximumPrologBytes)
            self.markup = MarkupGuard(limit: limits.maximumMarkupBytes)
            let first = Batch()
            self.batch = first
            self.filling = Unmanaged.passUnretained(first)
        }

        deinit {
            if let context { xmlFreeParserCtxt(context) }
        }

        /// The line the parser is at.
        var parserLine: Int {
            guard let input = context?.pointee.input else { return 1 }
            return Int(input.pointee.line)
        }

        /// Reads the next chunk and parses it; the batch of its events, with the document's end
        /// when it has come (or a failure has stopped it).
        func pump() -> Batch {
            batch = Self.emptyBatch()
            textOpen = false
            parse()
            return sealed()
        }

        /// Reads the next chunk and parses it into `batch`; at the end of the input, finishes
        /// the document. Sets `ended` when there is nothing more to parse.
        private func parse() {
            guard let count = readChunk() else {
                batch.readError = readError
                batch.refusal = refusal
                ended = true
                return
            }
            var offset = 0
            if !started {
                started = true
                // As libxml2's reader opens it: the first four bytes at creation (to find a byte
                // order mark), the options, then UTF-8 whatever the declaration says.
                let head = min(count, 4)
                let made = chunk.withUnsafeBytes { bytes in
                    xmlCreatePushParserCtxt(
                        Self.handler, Unmanaged.passUnretained(self).toOpaque(),
                        head == 4 ? bytes.baseAddress!.assumingMemoryBound(to: CChar.self) : nil, head == 4 ? 4 : 0, name)
                }
                guard let made else {
                    batch.parserMessage = ("libxml2 could not open a parser", nil)
                    ended = true
                    return
                }
                context = made
                if head == 4 { offset = 4 }
                xmlCtxtUseOptions(made, Self.options)
                if let utf8 = xmlFindCharEncodingHandler("UTF-8") { xmlSwitchToEncoding(made, utf8) }
            }
            guard let context else { return }
            _ = chunk.withUnsafeBytes { bytes in
                xmlParseChunk(
                    context, bytes.baseAddress!.assumingMemoryBound(to: CChar.self) + offset, Int32(count - offset), count == 0 ? 1 : 0)
            }
            // A namespace error leaves the document well-formed and parsing goes on (its
            // message fails the document at its end, as with libxml2's reader); anything else
            // stops it, after the events before it.
            if context.pointee.wellFormed == 0 || textRefusal != nil {
                if let textRefusal {
                    batch.refusal = textRefusal
                    batch.add(Event(kind: .failure, name: 0, line: Int32(clamping: parserLine), start: 0, count: 0))
                }
                ended = true
            } else if count == 0 {
                ended = true
            }
        }

        /// Reads the next chunk into `chunk` and passes it through the guards: its length (0 at
        /// the end of the source), or nil when reading failed or a guard refused it (said in
        /// `readError` or `refusal`).
        private func readChunk() -> Int? {
            var count = 0
            do {
                // At least 64 bytes for the first chunk, so the guard can tell what the input is,
                // unless the input is shorter.
                repeat {
                    let n = try chunk.withUnsafeMutableBytes { try read(UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
                    if n == 0 { break }
                    count += n
                } while !started && count < 64
            } catch {
                readError = error
                return nil
            }
            let verdict =
                count == 0 ? guardian.finish() : chunk.withUnsafeBytes { guardian.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if case .refused(let kind, let message) = verdict {
                refusal = (kind, message)
                return nil
            }
            guard chunk.withUnsafeBytes({ markup.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else {
                refusal = (.tooLarge, "a tag, comment or processing instruction is longer than \(markup.limit) bytes")
                return nil
            }
            return count
        }

        /// Parses the whole document with libxml2 pulling the bytes (`serve`), handing each
        /// batch of events to `emit` as it fills, the last with the document's end; stops early
        /// when `emit` returns false (the reader was dropped).
        func pull(_ emit: @escaping (Batch) -> Bool) {
            pulling = true
            self.emit = emit
            batch = Self.emptyBatch()
            let me = Unmanaged.passUnretained(self).toOpaque()
            if let made = xmlCreateIOParserCtxt(Self.handler, me, Self.readInput, nil, me, XML_CHAR_ENCODING_NONE) {
                context = made
                xmlCtxtUseOptions(made, Self.options)
                if let utf8 = xmlFindCharEncodingHandler("UTF-8") { xmlSwitchToEncoding(made, utf8) }
                xmlParseDocument(made)
            } else {
                batch.parserMessage = ("libxml2 could not open a parser", nil)
            }
            if let textRefusal {
                batch.refusal = textRefusal
                batch.add(Event(kind: .failure, name: 0, line: Int32(clamping: parserLine), start: 0, count: 0))
            }
            ended = true
            let done = sealed()
            done.readError = readError
            if let refusal { done.refusal = refusal }
            _ = emit(done)
            self.emit = { _ in false }
        }

        /// The options both modes open libxml2 with: no network, the declared encoding
        /// ignored, CDATA sections as text.
        static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOCDATA.rawValue)

        /// A batch with room for a chunk's events and text, so that they are not grown by
        /// copying: a 64 KiB chunk of indented XML holds a few thousand events.
        static func emptyBatch() -> Batch {
            Batch(capacity: 1 << 16, eventCapacity: 4096)
        }

        /// The batch filled so far with the names it introduced, and, once parsing has ended,
        /// how it ended.
        private func sealed() -> Batch {
            let done = batch
            if names.count > namesSent {
                done.names = (namesSent..<names.count).map { names.name($0) }
                namesSent = names.count
            }
            if ended {
                done.ended = true
                done.endLine = parserLine
                if done.parserMessage == nil { done.parserMessage = parserMessage }
                if let context, context.pointee.wellFormed == 0 { done.wellFormed = false }
            }
            return done
        }

        /// When pulling, hands the batch over once it holds about a chunk's worth; called
        /// between elements, never inside a text node.
        @inline(__always)
        private func handOverIfFull() {
            guard pulling else { return }
            guard filling._withUnsafeGuaranteedRef({ $0.eventCount >= 4096 || $0.textCount >= 1 << 16 }) else { return }
            let full = sealed()
            self.batch = Self.emptyBatch()
            if !emit(full), let context {
                stopped = true
                xmlStopParser(context)
            }
        }

        /// Fills libxml2's buffer with up to `length` bytes of the source, a chunk at a time
        /// through the guards as `parse` does; 0 at the end, -1 once reading failed or was
        /// refused (after the bytes before that chunk). After a well-formedness error the
        /// input ends, as the push parser stops after the chunk with the error.
        func serve(_ buffer: UnsafeMutablePointer<UInt8>, _ length: Int) -> Int32 {
            if stopped { return -1 }
            if let context, context.pointee.wellFormed == 0 { return 0 }
            var count = 0
            if carriedCount > 0 {
                buffer[0] = carried.0
                if carriedCount > 1 { buffer[1] = carried.1 }
                count = carriedCount
                carriedCount = 0
            }
            while count < length {
                if chunkServed == chunkCount {
                    if sourceEnded { break }
                    guard let n = readChunk() else {
                        stopped = true
                        break
                    }
                    started = true
                    chunkCount = n
                    chunkServed = 0
                    if n == 0 {
                        sourceEnded = true
                        break
                    }
                }
                let n = min(length - count, chunkCount - chunkServed)
                chunk.withUnsafeBytes {
                    (buffer + count).update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + chunkServed, count: n)
                }
                chunkServed += n
                count += n
            }
            // A piece that ends in a CR or `]` keeps them for the next: libxml2's fast text path
            // stops at the end of its buffer, and there it would miss a CR LF pair or `]]>`
            // that the push parser, which sees the whole text, handles.
            if !stopped && !(sourceEnded && chunkServed == chunkCount) {
                var held = 0
                while held < 2 && count - held > 1 && (buffer[count - 1 - held] == 0x0D || buffer[count - 1 - held] == UInt8(ascii: "]")) {
                    held += 1
                }
                if held > 0 {
                    carried = (buffer[count - held], held > 1 ? buffer[count - 1] : 0)
                    carriedCount = held
                    count -= held
                }
            }
            if count == 0 && stopped { return -1 }
            return Int32(count)
        }

        /// Every byte of the source has gone to libxml2.
        private var inputExhausted: Bool { sourceEnded && chunkServed == chunkCount && carriedCount == 0 }

        /// Where libxml2 is in the input, counted from its start, and how long the input it has is.
        private func position(_ input: xmlParserInputPtr) -> (at: Int, end: Int) {
            guard let base = input.pointee.base, let cur = input.pointee.cur, let end = input.pointee.end else { return (0, 0) }
            let consumed = Int(input.pointee.consumed)
            return (consumed + (cur - base), consumed + (end - base))
        }

        /// Notes, when pulling, where the start tag or end tag just handed over ends (the start
        /// callback comes before its `>` is taken).
        @inline(__always)
        private func noteTagEnd() {
            guard pulling, let context, let input = context.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base
            else { return }
            parsedUpTo = Int(input.pointee.consumed) + (cur - base) + (cur.pointee == UInt8(ascii: ">") ? 1 : 0)
        }

        /// libxml2's message for an error met while pulling, as the push parser words the same
        /// error (checked by cutting and damaging documents, see `XMLPullReaderModesTests`): no
        /// line for a start tag without its end, one wording for a document without an element,
        /// a double hyphen in a comment without the comment, `<!` inside the root element as
        /// an error in the content; and at the very end of a cut-off document "Extra content
        /// at the end of the document" where the pull parser names what was cut, or when one
        /// byte is left after the last node (see `characters`). A NUL byte ends the pull
        /// parser's input.
        private func pulledError(code: Int32, text: String, line: Int?) -> (String, Int?) {
            guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else { return (text, line) }
            let atEnd = inputExhausted && cur >= end
            switch code {
            case Int32(XML_ERR_GT_REQUIRED.rawValue) where text.hasPrefix("Couldn't find end of Start Tag "):
                guard let suffix = text.range(of: " line ", options: .backwards) else { return (text, line) }
                return (String(text[..<suffix.lowerBound]), line)
            case _ where inputExhausted && position(input).end - parsedUpTo == 1:
                // One byte after the last node: the push parser never parsed it, nor counted
                // the line it ends.
                let lineFeed = input.pointee.base.map { end > $0 && (end - 1).pointee == 0x0A } ?? false
                return ("Extra content at the end of the document", line.map { lineFeed ? $0 - 1 : $0 })
            case _
            where atEnd
                && (Self.cutShortCodes.contains(code) || (text.hasPrefix("ParsePI: PI ") && text.hasSuffix(" space expected"))
                    || text == "StartTag: invalid element name"):
                return ("Extra content at the end of the document", line)
            case Int32(XML_ERR_NAME_REQUIRED.rawValue)
            where inputExhausted && text == "StartTag: invalid element name" && cur < end && cur.pointee == UInt8(ascii: "!")
                && end - cur < 8:
                // `<!` and fewer than 9 bytes at the end, which the push parser waits on.
                return ("Extra content at the end of the document", line)
            case Int32(XML_ERR_DOCUMENT_EMPTY.rawValue):
                return ("Document is empty", line)
            case Int32(XML_ERR_HYPHEN_IN_COMMENT.rawValue) where text.hasPrefix("Double hyphen within comment: "):
                return ("Double hyphen within comment", line)
            case Int32(XML_ERR_NAME_REQUIRED.rawValue)
            where text == "StartTag: invalid element name" && cur < end && cur.pointee == UInt8(ascii: "!")
                && context?.pointee.nameNr ?? 0 > 0:
                return ("internal error: detected an error in element content", line)
            case Int32(XML_ERR_TAG_NOT_FINISHED.rawValue) where cur < end && cur.pointee == 0:
                return ("Char 0x0 out of allowed range", line)
            default:
                return (text, line)
            }
        }

        /// The errors the pull parser reports, at the end of a cut-off document, for what the
        /// push parser calls extra content at the end (and a processing instruction cut before
        /// its space).
        private static let cutShortCodes: Set<Int32> = Set(
            [XML_ERR_TAG_NOT_FINISHED, XML_ERR_PI_NOT_STARTED, XML_ERR_DOCUMENT_EMPTY, XML_ERR_CDATA_NOT_FINISHED].map {
                Int32($0.rawValue)
            })

        /// A text node over the limit, and libxml2's first error message.
        var textRefusal: (kind: XMLError.Kind, message: String)?
        /// Whether `textRefusal` is set, told without reading it (which retained its message).
        private var textRefused = false
        var parserMessage: (text: String, line: Int?)?

        // MARK: Callbacks

        /// The local name as libxml2's own tree builder has it: with an undeclared prefix (a
        /// namespace error, reported at the end), the whole qualified name.
        private func qualified(_ local: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?)
            -> UnsafePointer<UInt8>?
        {
            guard prefix != nil, uri == nil, let context, let full = xmlDictQLookup(context.pointee.dict, prefix, local) else {
                return local
            }
            return full
        }

        func start(
            _ local: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?, _ count: Int,
            _ values: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
        ) {
            textRun = 0
            textOpen = false
            let number = names.number(local: qualified(local, prefix, uri), namespace: uri)
            let first = filling._withUnsafeGuaranteedRef { $0.attributes.count }
            if count > 0, let values {
                for i in 0..<count {
                    let at = values + 5 * i
                    let number = names.number(local: qualified(at[0], at[1], at[2]), namespace: at[2])
                    let attribute = names.name(number)
                    let value: String
                    if let from = at[3], let to = at[4] {
                        value = Self.attributeValue(UnsafeBufferPointer(start: from, count: to - from))
                    } else {
                        value = ""
                    }
                    filling._withUnsafeGuaranteedRef { $0.attributes.append(XMLAttribute(attribute, value)) }
                }
            }
            let line = Int32(clamping: parserLine)
            filling._withUnsafeGuaranteedRef { $0.addStart(name: number, line: line, firstAttribute: first) }
            noteTagEnd()
            handOverIfFull()
        }

        /// An attribute value as libxml2's SAX2 interface hands it over without entity
        /// substitution: references decoded, except that an `&` comes as `&#38;` (for its tree
        /// builder to decode), which is decoded here. No other `&` can be in the value.
        static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                out.append(bytes[i])
                if bytes[i] == UInt8(ascii: "&"), i + 4 < bytes.count, bytes[i + 1] == UInt8(ascii: "#"), bytes[i + 2] == UInt8(ascii: "3"),
                    bytes[i + 3] == UInt8(ascii: "8"), bytes[i + 4] == UInt8(ascii: ";")
                {
                    i += 5
                } else {
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        func end() {
            textRun = 0
            textOpen = false
            filling._withUnsafeGuaranteedRef { $0.addEnd() }
            noteTagEnd()
            handOverIfFull()
        }

        /// A text node's next piece. Text that libxml2 still hands over after a
        /// well-formedness error (its fast text path does not look) is dropped: the document has
        /// failed there. When pulling, libxml2 also cuts text at the end of its buffer, where
        /// the push parser, which waits for the `<` after it, hands the run over whole: the
        /// event then takes the line of the first piece not so cut, as it would have; and text
        /// that is the one last byte after the last node, which the push parser leaves
        /// unparsed, is left out.
        /// A piece goes on from a cut one when it starts where that ended, counted from the start
        /// of the input (libxml2 moves its buffer; a comment may come between).
        func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
            guard !textRefused, let context, context.pointee.wellFormed != 0 else { return }
            var moveLine = false
            if pulling, let input = context.pointee.input, let base = input.pointee.base, let end = input.pointee.end {
                let inBuffer = bytes >= base && bytes < end
                let consumed = Int(input.pointee.consumed)
                let start = consumed + (bytes - base)
                let goesOn = textOpen && cutPieces && inBuffer && start == cutPieceEnd
                if !goesOn && inputExhausted && consumed + (end - base) - parsedUpTo == 1 { return }
                moveLine = goesOn
                cutPieces = (textOpen ? goesOn : true) && inBuffer && bytes + count == end
                cutPieceEnd = start + count
                parsedUpTo = inBuffer ? start + count : position(input).at
            }
            textRun += count
            if textRun > limits.maximumTextBytes {
                textRefusal = (.tooLarge, "a text node is longer than \(limits.maximumTextBytes) bytes")
                textRefused = true
                xmlStopParser(context)
                return
            }
            // A node's text may come in several calls (around references, across chunks):
            // one event while nothing else comes between (told by a flag: reading the last event
            // retained the events' array).
            let line = Int32(clamping: parserLine)
            let extending = textOpen
            filling._withUnsafeGuaranteedRef {
                $0.addText(bytes, count, line: line, extending: extending)
                if moveLine { $0.moveLastEvent(to: line) }
            }
            textOpen = true
        }

        func parserError(_ error: UnsafePointer<xmlError>) {
            guard parserMessage == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            var text = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
            while text.last == "\n" || text.last == " " { text.removeLast() }
            let line = error.pointee.line > 0 ? Int(error.pointee.line) : nil
            parserMessage = pulling ? pulledError(code: error.pointee.code, text: text, line: line) : (text, line)
        }

        /// Runs `body` on the parser behind a callback's context pointer, without retaining it
        /// (the parser outlives every parse call; a retain and release per callback were a
        /// tenth of the callbacks' own work).
        private static func parser(_ context: UnsafeMutableRawPointer?, _ body: (Parser) -> Void) {
            Unmanaged<Parser>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
        }

        /// The SAX2 handlers; libxml2 copies the struct into each parser context.
        static let handler: UnsafeMutablePointer<xmlSAXHandler> = {
            let h = UnsafeMutablePointer<xmlSAXHandler>.allocate(capacity: 1)
            h.initialize(to: xmlSAXHandler())
            h.pointee.initialized = UInt32(XML_SAX2_MAGIC)
            h.pointee.startElementNs = { context, local, prefix, uri, _, _, count, _, values in
                parser(context) { $0.start(local, prefix, uri, Int(count), values) }
            }
            h.pointee.endElementNs = { context, _, _, _ in parser(context) { $0.end() } }
            let characters: charactersSAXFunc = { context, bytes, count in
                guard let bytes, count > 0 else { return }
                parser(context) { $0.characters(bytes, Int(count)) }
            }
            h.pointee.characters = characters
            h.pointee.ignorableWhitespace = characters
            h.pointee.cdataBlock = characters
            h.pointee.serror = { context, error in
                guard let context, let error else { return }
                parser(context) { $0.parserError(error) }
            }
            return h
        }()

        /// libxml2's read callback when pulling (see `serve`).
        static let readInput: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer, length > 0 else { return -1 }
            return Unmanaged<Parser>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.serve(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), Int(length))
            }
        }
    }
}
