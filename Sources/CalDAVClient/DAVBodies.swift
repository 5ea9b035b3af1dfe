/// The XML request bodies calport sends, with every text value escaped.
enum DAVBodies {
    static let xmlHeaders = ["Content-Type": "application/xml; charset=utf-8"]
    static let namespaces =
        #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/" xmlns:I="http://apple.com/ns/ical/""#

    static let discoveryProperties =
        "<D:resourcetype/><D:current-user-principal/><C:calendar-home-set/><D:displayname/><I:calendar-color/>"
        + "<C:calendar-description/><C:calendar-timezone/><C:supported-calendar-component-set/><D:current-user-privilege-set/>"
        + "<D:sync-token/><CS:getctag/><I:calendar-order/>"
    static let collectionProperties =
        "<D:resourcetype/><D:displayname/><I:calendar-color/><C:calendar-description/><C:calendar-timezone/>"
        + "<C:supported-calendar-component-set/><D:current-user-privilege-set/><D:sync-token/><CS:getctag/><I:calendar-order/>"
    static let etagProperties = "<D:resourcetype/><D:getetag/>"

    static func propfind(_ properties: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><D:propfind \#(namespaces)><D:prop>\#(properties)</D:prop></D:propfind>"#
    }

    static func multiget(_ hrefs: [String]) -> String {
        let list = hrefs.map { "<D:href>\(escape($0))</D:href>" }.joined()
        return #"<?xml version="1.0" encoding="utf-8"?><C:calendar-multiget \#(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>\#(list)</C:calendar-multiget>"#
    }

    static func calendarQuery(component: String, uid: String?, timeRange: (start: String, end: String)?) -> String {
        var inner = ""
        if let uid {
            inner += #"<C:prop-filter name="UID"><C:text-match collation="i;octet">\#(escape(uid))</C:text-match></C:prop-filter>"#
        }
        if let timeRange { inner += #"<C:time-range start="\#(escape(timeRange.start))" end="\#(escape(timeRange.end))"/>"# }
        return #"<?xml version="1.0" encoding="utf-8"?><C:calendar-query \#(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"#
            + #"<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="\#(component)">\#(inner)</C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#
    }

    static func syncCollection(token: String?) -> String {
        let tokenElement = token.map { "<D:sync-token>\(escape($0))</D:sync-token>" } ?? "<D:sync-token/>"
        return #"<?xml version="1.0" encoding="utf-8"?><D:sync-collection \#(namespaces)>\#(tokenElement)<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>"#
    }

    static func calendarProperties(displayName: String?, color: String?, description: String?, timeZone: String?) -> String {
        var p = ""
        if let displayName { p += "<D:displayname>\(escape(displayName))</D:displayname>" }
        if let color { p += "<I:calendar-color>\(escape(color))</I:calendar-color>" }
        if let description { p += "<C:calendar-description>\(escape(description))</C:calendar-description>" }
        if let timeZone { p += "<C:calendar-timezone>\(escape(timeZone))</C:calendar-timezone>" }
        return p
    }

    static func mkcalendar(_ properties: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><C:mkcalendar \#(namespaces)><D:set><D:prop>\#(properties)</D:prop></D:set></C:mkcalendar>"#
    }

    static func extendedMkcol(_ properties: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><D:mkcol \#(namespaces)><D:set><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>\#(properties)</D:prop></D:set></D:mkcol>"#
    }

    /// Text as XML character data or an attribute value.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
