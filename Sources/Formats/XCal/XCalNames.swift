import XMLSupport

/// RFC 6321's namespace and the value-type element used for each parameter (§3.5 and the
/// schema in Appendix A): most parameters hold `<text>`, a few `<uri>`, `<cal-address>` or
/// `<boolean>`.
enum XCalNames {
    static let namespace = "urn:ietf:params:xml:ns:icalendar-2.0"
    /// xCard's namespace (RFC 6351): recognized only to say it is not xCal.
    static let vCardNamespace = "urn:ietf:params:xml:ns:vcard-4.0"

    static func name(_ local: String) -> XMLName { XMLName(namespace, local) }

    static let icalendar = name("icalendar")
    static let vcalendar = name("vcalendar")
    static let properties = name("properties")
    static let components = name("components")
    static let parameters = name("parameters")

    /// The value element for each parameter whose values are not `<text>`.
    static let parameterValueTypes: [String: String] = [
        "ALTREP": "uri", "DIR": "uri",
        "DELEGATED-FROM": "cal-address", "DELEGATED-TO": "cal-address", "MEMBER": "cal-address", "SENT-BY": "cal-address",
        "RSVP": "boolean",
    ]

    /// Where calport writes an iCalendar name that is not a valid XML name (`BEGIN:000` in
    /// fuzzed files): `<c:property name="…">` in this namespace, which RFC 6321 §5 lets other
    /// readers ignore and calport reads back as the named property.
    static let extensionNamespace = "urn:calport:xcal-extension"

    /// The parameters RFC 5545 and its extensions define; any other parameter's values are
    /// `<unknown>` (RFC 6321 §5).
    static let knownParameters: Set<String> = [
        "ALTREP", "CN", "CUTYPE", "DELEGATED-FROM", "DELEGATED-TO", "DIR", "ENCODING", "FMTTYPE", "FBTYPE", "LANGUAGE",
        "MEMBER", "PARTSTAT", "RANGE", "RELATED", "RELTYPE", "ROLE", "RSVP", "SENT-BY", "TZID", "VALUE",
        // RFC 7986, RFC 6638, RFC 9073, RFC 9253
        "DISPLAY", "EMAIL", "FEATURE", "LABEL", "SCHEDULE-AGENT", "SCHEDULE-FORCE-SEND", "SCHEDULE-STATUS", "ORDER",
        "SCHEMA", "DERIVED", "LINKREL", "GAP",
    ]

    /// Whether `name` (lower-cased) can stand as an XML element name: a letter or `_` first,
    /// then letters, digits, `-`, `.` or `_`.
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        func letter(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F }
        guard letter(first) else { return false }
        return name.utf8.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E }
    }

    /// The VALUE parameter written beside an `<unknown>` value whose source declared a type
    /// (RFC 6321 §5 keeps unknown values as text; the declared type must survive the trip).
    static let declaredTypeParameter = "VALUE"
}
