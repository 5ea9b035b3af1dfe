import XMLSupport

/// One DAV:response of a multistatus (RFC 4918 §14.24), read whole: its hrefs, its own
/// status, the properties found (2xx propstats) and those not (other propstats).
public struct DAVResponse: Sendable {
    /// A property a propstat reported with a status other than 2xx.
    public struct Missing: Sendable {
        /// The property's name.
        public var name: XMLName
        /// The propstat's status line.
        public var status: String
    }

    /// The response's hrefs (one for a propstat response, several for a status response).
    public var hrefs: [String] = []
    /// The response-level status line, when there is one (e.g. sync-collection's removals).
    public var status: String?
    /// The properties a 2xx propstat reported, by name.
    public var properties: [XMLName: XMLElement] = [:]
    /// The properties reported with another status.
    public var missing: [Missing] = []
    /// Where the response element starts.
    public var line: Int
    /// The response element's XML path.
    public var path: String

    /// The status code of a status line (`HTTP/1.1 404 Not Found` → 404).
    public static func code(_ statusLine: String) -> Int? {
        // An ASCII line (every server's) by byte: split into Characters it cost 5k
        // instructions, and each response has one or two.
        let utf8 = statusLine.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            let words = utf8.split(separator: UInt8(ascii: " "), maxSplits: 2)
            guard words.count >= 2 else { return nil }
            return Int(Substring(words[1]))
        }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }

    /// The response read from its element.
    public init(_ element: XMLElement) {
        line = element.line
        path = element.path
        for child in element.children {
            switch child.name {
            case DAVNames.href: hrefs.append(child.trimmedText)
            case DAVNames.status: status = child.trimmedText
            case DAVNames.propstat:
                let statusLine = child.child(DAVNames.status)?.trimmedText ?? "HTTP/1.1 200 OK"
                let ok = Self.code(statusLine).map { (200..<300).contains($0) } ?? false
                for prop in child.children where prop.name == DAVNames.prop {
                    for p in prop.children {
                        if ok {
                            properties[p.name] = p
                        } else {
                            missing.append(Missing(name: p.name, status: statusLine))
                        }
                    }
                }
            default: break
            }
        }
    }

    /// The first href.
    public var href: String? { hrefs.first }

    /// The names inside DAV:resourcetype, when it was reported.
    public var resourceTypes: Set<XMLName>? {
        properties[DAVNames.resourcetype].map { Set($0.children.map(\.name)) }
    }

    /// A calendar collection: resourcetype says calendar or subscribed; or, with no
    /// resourcetype, an href ending in "/" and a property only collections have.
    public var isCalendarCollection: Bool {
        if let types = resourceTypes {
            return types.contains(DAVNames.calendar) || types.contains(DAVNames.subscribed)
        }
        return (href?.hasSuffix("/") ?? false) && properties.keys.contains { DAVNames.collectionProperties.contains($0) }
    }

    /// Some other collection (a calendar home, an inbox, a principal).
    public var isOtherCollection: Bool {
        if let types = resourceTypes { return types.contains(DAVNames.collection) && !isCalendarCollection }
        return href?.hasSuffix("/") ?? false
    }
}
