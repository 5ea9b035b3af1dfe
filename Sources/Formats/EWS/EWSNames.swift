import XMLSupport

/// EWS's namespaces (Types.xsd, Messages.xsd, the SOAP envelopes) and how names are matched:
/// by namespace URI, with Microsoft's documentation's `https://` spellings accepted beside the
/// schema's `http://` ones, since documents copied from the docs carry them.
enum EWSNames {
    static let types = "http://schemas.microsoft.com/exchange/services/2006/types"
    static let messages = "http://schemas.microsoft.com/exchange/services/2006/messages"
    static let errors = "http://schemas.microsoft.com/exchange/services/2006/errors"
    static let soap11 = "http://schemas.xmlsoap.org/soap/envelope/"
    static let soap12 = "http://www.w3.org/2003/05/soap-envelope"

    private static func same(_ namespace: String, _ uri: String) -> Bool {
        namespace == uri || (namespace.hasPrefix("https://") && namespace.dropFirst(8) == uri.dropFirst(7))
    }

    static func isTypes(_ name: XMLName) -> Bool { same(name.namespace, types) }
    static func isMessages(_ name: XMLName) -> Bool { same(name.namespace, messages) }
    static func isErrors(_ name: XMLName) -> Bool { same(name.namespace, errors) }
    static func isSOAP(_ name: XMLName) -> Bool { same(name.namespace, soap11) || same(name.namespace, soap12) }
    /// Any of EWS's own namespaces.
    static func isEWS(_ name: XMLName) -> Bool { isTypes(name) || isMessages(name) || isErrors(name) }

    /// The simple CalendarItem fields calport keeps as `X-MS-EWS-<NAME>` properties so that an
    /// EWS writer can give them back; the rest of what Exchange reports about an item (sizes,
    /// rights, read-form URLs) is not calendar data and is left out.
    static let keptFields: [String] = [
        "IsMeeting", "IsOnlineMeeting", "AllowNewTimeProposal", "IsResponseRequested", "MyResponseType", "ConferenceType",
        "MeetingWorkspaceUrl", "NetShowUrl", "IsDraft", "AppointmentState", "ItemClass", "CalendarItemType",
    ]
}

extension XMLElement {
    // The lookups below walk `children` by index through a buffer pointer: `first(where:)` and
    // `for child in children` copy each element they pass (half a dozen retains and releases
    // for its Strings and arrays), and the mapper asks an item for ~60 names.

    /// The first child in the EWS types namespace with this local name.
    func ews(_ local: String) -> XMLElement? {
        guard let i = ewsIndex(local) else { return nil }
        return children[i]
    }

    /// Where the first child in the EWS types namespace with this local name is.
    private func ewsIndex(_ local: String) -> Int? {
        // Lengths first: most of an item's children differ in length from the one asked for,
        // which a String comparison would not see first.
        let length = local.utf8.count
        return children.withUnsafeBufferPointer { children in
            for i in children.indices where Self.matches(children[i].name, local, length) && EWSNames.isTypes(children[i].name) {
                return i
            }
            return nil
        }
    }

    /// All children in the EWS types namespace with this local name.
    func ewsAll(_ local: String) -> [XMLElement] {
        let length = local.utf8.count
        return children.filter { Self.matches($0.name, local, length) && EWSNames.isTypes($0.name) }
    }

    /// The trimmed text of the first such child, nil when absent or empty.
    func ewsText(_ local: String) -> String? {
        // The child's text only: a copy of the whole child retained and released each of its parts.
        guard let i = ewsIndex(local) else { return nil }
        let text = children[i].text
        // XML whitespace is ASCII (XML 1.0 §2.3 S): trimmed on the bytes, most texts have none.
        let bytes = text.utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return nil }
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return text }
        return String(text[first...last])
    }

    /// The first descendant (depth-first) with this local name, in any namespace.
    func descendant(_ local: String) -> XMLElement? {
        let length = local.utf8.count
        return children.withUnsafeBufferPointer { Self.descendant(local, length, in: $0) }
    }

    private static func descendant(_ local: String, _ length: Int, in children: UnsafeBufferPointer<XMLElement>) -> XMLElement? {
        for i in children.indices {
            if matches(children[i].name, local, length) { return children[i] }
            if !children[i].children.isEmpty,
                let found = children[i].children.withUnsafeBufferPointer({ descendant(local, length, in: $0) })
            {
                return found
            }
        }
        return nil
    }

    @inline(__always)
    private static func matches(_ name: XMLName, _ local: String, _ length: Int) -> Bool {
        name.local.utf8.count == length && name.local == local
    }
}
