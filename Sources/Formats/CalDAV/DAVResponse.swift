import XMLSupport

/// One DAV:response of a multistatus (RFC 4918 §14.24), read whole: its hrefs, its own
/// status, the properties found (2xx propstats) and those not (other propstats).
struct DAVResponse {
    /// A property a propstat reported with a status other than 2xx.
    struct Missing {
        var name: XMLName
        var status: String
    }

    var hrefs: [String] = []
    /// The response-level status line, when there is one (e.g. sync-collection's removals).
    var status: String?
    var properties: [XMLName: XMLElement] = [:]
    var missing: [Missing] = []
    var line: Int
    var path: String

    /// The status code of a status line (`HTTP/1.1 404 Not Found` → 404).
    static func code(_ statusLine: String) -> Int? {
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }

    init(_ element: XMLElement) {
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
    var href: String? { hrefs.first }

    /// The names inside DAV:resourcetype, when it was reported.
    var resourceTypes: Set<XMLName>? {
        properties[DAVNames.resourcetype].map { Set($0.children.map(\.name)) }
    }

    /// A calendar collection: resourcetype says calendar or subscribed; or, with no
    /// resourcetype, an href ending in "/" and a property only collections have.
    var isCalendarCollection: Bool {
        if let types = resourceTypes {
            return types.contains(DAVNames.calendar) || types.contains(DAVNames.subscribed)
        }
        return (href?.hasSuffix("/") ?? false) && properties.keys.contains { DAVNames.collectionProperties.contains($0) }
    }

    /// Some other collection (a calendar home, an inbox, a principal).
    var isOtherCollection: Bool {
        if let types = resourceTypes { return types.contains(DAVNames.collection) && !isCalendarCollection }
        return href?.hasSuffix("/") ?? false
    }
}
