import CalendarModel
import XMLSupport

/// The first half of reading EWS: pulls the document through libxml2 and hands on, in document
/// order, the elements `EWSReader` interprets (each item read whole as a tree), the positions
/// of its response messages, and the end or the first failure. It logs nothing and knows no
/// model, so it can run on a thread of its own while the reader maps the items it already has.
final class EWSScanner {
    /// What the document holds that the reader acts on.
    enum Unit {
        case fault(XMLElement)
        /// A response message with a ResponseClass other than Error; where it starts only for a
        /// Warning (the one the reader reports: the path cost a String per item).
        case message(name: String, warningAt: (line: Int, path: String)?)
        case failedMessage(XMLElement)
        case timeZoneContext(XMLElement)
        case calendarItem(XMLElement)
        case itemChange(XMLElement)
        /// A SyncFolderItems Delete change.
        case delete(XMLElement)
        /// The root element has closed (or the input ended).
        case end(started: Bool, sawEWS: Bool)
        /// The document stops being readable here: an XMLError, or a CalendarError for a root
        /// that is not EWS.
        case failure(Error)
    }

    private let sourceName: String
    private var xml: LazyXMLPullReader
    private var started = false
    private var sawEWS = false
    private var done = false

    /// A scanner of `source`; with `parsesAhead`, libxml2 parses on a thread of its own, so
    /// that parsing, building the item trees and mapping them run on three threads.
    init(source: ByteSource, sourceName: String, parsesAhead: Bool = false) {
        self.sourceName = sourceName
        self.xml = LazyXMLPullReader(name: sourceName, parsesAhead: parsesAhead) { try source.read(into: $0) }
    }

    /// The next unit, nil after the end or a failure.
    func next() -> Unit? {
        guard !done else { return nil }
        do {
            if let unit = try scan() { return unit }
            done = true
            return .end(started: started, sawEWS: sawEWS)
        } catch {
            done = true
            return .failure(error)
        }
    }

    /// Reads on to the next unit; nil at the end of the document.
    private func scan() throws -> Unit? {
        let xml = try self.xml.get()
        while let event = try xml.next() {
            guard case .start(let name, let attributes) = event else { continue }
            if !started {
                started = true
                guard EWSNames.isSOAP(name) || EWSNames.isEWS(name) else {
                    throw CalendarError(
                        .data, file: sourceName, line: xml.line, location: xml.path,
                        "not an EWS document: the root element is \(name), not a SOAP envelope or an element of EWS's namespaces")
                }
            }
            if EWSNames.isEWS(name) { sawEWS = true }
            if EWSNames.isSOAP(name), name.local == "Fault" {
                return .fault(try xml.readElement(start: name, attributes: attributes))
            }
            if EWSNames.isMessages(name), name.local.hasSuffix("ResponseMessage"),
                let responseClass = attributes.first(where: { $0.name.local == "ResponseClass" })?.value
            {
                if responseClass == "Error" { return .failedMessage(try xml.readElement(start: name, attributes: attributes)) }
                return .message(name: name.local, warningAt: responseClass == "Warning" ? (xml.line, xml.path) : nil)
            }
            guard EWSNames.isTypes(name) else { continue }
            switch name.local {
            case "TimeZoneContext": return .timeZoneContext(try xml.readElement(start: name, attributes: attributes))
            case "CalendarItem": return .calendarItem(try xml.readEWSItem(start: name, attributes: attributes))
            case "ItemChange": return .itemChange(try xml.readElement(start: name, attributes: attributes))
            case "Delete" where xml.path.contains("Changes"): return .delete(try xml.readElement(start: name, attributes: attributes))
            case "Message", "MeetingRequest", "MeetingResponse", "MeetingCancellation", "MeetingMessage", "Task", "Contact",
                "DistributionList", "PostItem", "Item":
                // Not calendar items (meeting messages live in the inbox): skipped whole.
                try xml.skipElement()
            default:
                continue
            }
        }
        return nil
    }
}
