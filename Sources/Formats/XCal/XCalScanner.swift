import CalendarModel
import XMLSupport

/// The first half of reading xCal: pulls the document through libxml2 and hands on, in
/// document order, the structural events (`icalendar`, `vcalendar`, `components`, stray text)
/// with where they are, and every other element read whole as a tree: a calendar's
/// properties, each component, anything misplaced that `XCalReader` skips with a warning. It
/// interprets nothing, so it can run on a thread of its own while the reader decodes.
///
/// Which elements come whole follows from depth alone, as `XCalReader`'s states do: a child of
/// `icalendar` other than `vcalendar`, a child of `vcalendar` other than `components`, and a
/// child of `components`.
final class XCalScanner {
    enum Unit {
        /// A structural start or end, or text that is not whitespace (whitespace between
        /// elements is dropped here: the reader ignores it wherever it is).
        case event(XMLEvent, line: Int, path: String)
        /// An element read whole.
        case tree(XCalTree)
        /// The input ended (the root closed or the document stopped).
        case documentEnd(line: Int, path: String)
        /// The document stops being readable here (an XMLError).
        case failure(Error)
    }

    private var xml: LazyXMLPullReader
    private var trees = XCalTreeBuilder()
    /// The depth of a `vcalendar`: 1 when it is the root (a bare `vcalendar`), else 2.
    private var calendarDepth = 2
    private var done = false

    /// A scanner of `source`; with `parsesAhead`, libxml2 parses on a thread of its own, so
    /// that the trees are built on a second and decoded on a third (see `XMLPullReader.init`).
    init(source: ByteSource, sourceName: String, parsesAhead: Bool = false) {
        self.xml = LazyXMLPullReader(name: sourceName, parsesAhead: parsesAhead) { try source.read(into: $0) }
    }

    /// The next unit, nil after the end or a failure.
    func next() -> Unit? {
        guard !done else { return nil }
        do {
            return try scan()
        } catch {
            done = true
            return .failure(error)
        }
    }

    private func scan() throws -> Unit {
        let xml = try self.xml.get()
        while let node = try xml.nextNode() {
            let event: XMLEvent
            switch node {
            case .text(let bytes):
                // Indentation is ASCII: told by its bytes without making a String of it.
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) { continue }
                let t = String(decoding: bytes, as: UTF8.self)
                if t.allSatisfy(\.isWhitespace) { continue }
                event = .text(t)
            case .start(let name, let attributes, _):
                event = .start(name, attributes: attributes)
                let depth = xml.depth
                if depth == 1 && name == XCalNames.vcalendar { calendarDepth = 1 }
                let whole =
                    (depth == calendarDepth && calendarDepth == 2 && name != XCalNames.vcalendar)
                    || (depth == calendarDepth + 1 && name != XCalNames.components) || depth == calendarDepth + 2
                if whole { return .tree(try trees.read(xml, start: name, attributes: attributes)) }
            case .end(let name):
                event = .end(name)
            }
            return .event(event, line: xml.line, path: xml.path)
        }
        done = true
        return .documentEnd(line: xml.line, path: xml.path)
    }
}
