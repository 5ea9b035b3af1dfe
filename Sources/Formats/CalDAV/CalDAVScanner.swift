import CalendarModel
import XMLSupport

/// The first half of reading a CalDAV body: pulls it through libxml2 and hands on, in document
/// order, each DAV:response read whole, the sync token, an MKCALENDAR/MKCOL body, the end of
/// the multistatus, or the first failure. It logs nothing, so it can run on a thread of its
/// own while `CalDAVReader` reads the calendar data of the responses it already has.
final class CalDAVScanner {
    /// What the body holds that the reader acts on.
    enum Unit {
        /// A response, with its calendar data when that was read ahead on this thread.
        case response(DAVResponse, CalendarDataReadAhead.Read?)
        case syncToken(String)
        /// An MKCALENDAR or extended MKCOL request body (the whole document).
        case collectionBody(XMLElement)
        /// The multistatus has closed, on this line.
        case end(line: Int)
        /// The body stops being readable here: an XMLError or a CalendarError.
        case failure(Error)
    }

    private enum State {
        case start, multistatus, done
    }

    private let sourceName: String
    private var xml: LazyXMLPullReader
    private var state = State.start
    private let readAhead: CalendarDataReadAhead?

    /// A scanner of `source`; with `parsesAhead`, libxml2 parses on a thread of its own.
    init(source: ByteSource, sourceName: String, readAhead: CalendarDataReadAhead? = nil, parsesAhead: Bool = false) {
        self.sourceName = sourceName
        self.readAhead = readAhead
        self.xml = LazyXMLPullReader(name: sourceName, parsesAhead: parsesAhead) { try source.read(into: $0) }
    }

    /// The next unit, nil after the end or a failure.
    func next() -> Unit? {
        guard state != .done else { return nil }
        do {
            return try scan()
        } catch {
            state = .done
            return .failure(error)
        }
    }

    private func fail(_ xml: XMLPullReader, _ message: String) -> CalendarError {
        CalendarError(.data, file: sourceName, line: xml.line, location: xml.path, message)
    }

    private func scan() throws -> Unit? {
        let xml = try self.xml.get()
        while true {
            guard let event = try xml.next() else {
                throw fail(xml, "the document ends inside the multistatus")
            }
            switch (state, event) {
            case (_, .text):
                continue
            case (.start, .start(let name, let attributes)):
                switch name {
                case DAVNames.multistatus:
                    state = .multistatus
                case DAVNames.mkcalendar, DAVNames.mkcol:
                    let body = try xml.readElement(start: name, attributes: attributes)
                    state = .done
                    return .collectionBody(body)
                default:
                    if name.namespace == "urn:ietf:params:xml:ns:icalendar-2.0" {
                        throw fail(xml, "this is xCal, not a CalDAV body; read it with -f xcal")
                    }
                    throw fail(xml, "not a CalDAV body: the root element is \(name), not {DAV:}multistatus")
                }
            case (.multistatus, .start(let name, let attributes)):
                switch name {
                case DAVNames.response:
                    let response = DAVResponse(try xml.readElement(start: name, attributes: attributes))
                    return .response(response, readAhead?.read(response))
                case DAVNames.syncToken:
                    return .syncToken(try xml.readText(of: name).trimmingWhitespace)
                default:
                    try xml.skipElement()
                }
            case (.multistatus, .end):
                state = .done
                return .end(line: xml.line)
            default:
                throw fail(xml, "unexpected \(event)")
            }
        }
    }
}
