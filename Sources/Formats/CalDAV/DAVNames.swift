import XMLSupport

/// The WebDAV and CalDAV names calport reads and writes, by namespace URI (never by prefix).
enum DAVNames {
    static let dav = "DAV:"
    /// RFC 4791.
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// CalendarServer extensions: getctag, subscribed, source, shared.
    static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple iCal extensions: calendar-color, calendar-order, refreshrate.
    static let apple = "http://apple.com/ns/ical/"
    /// sabre/dav extensions: read-only on shared calendars.
    static let sabre = "http://sabredav.org/ns"

    static let multistatus = XMLName(dav, "multistatus")
    static let response = XMLName(dav, "response")
    static let href = XMLName(dav, "href")
    static let status = XMLName(dav, "status")
    static let propstat = XMLName(dav, "propstat")
    static let prop = XMLName(dav, "prop")
    static let set = XMLName(dav, "set")
    static let syncToken = XMLName(dav, "sync-token")
    static let resourcetype = XMLName(dav, "resourcetype")
    static let collection = XMLName(dav, "collection")
    static let displayname = XMLName(dav, "displayname")
    static let getetag = XMLName(dav, "getetag")
    static let getcontenttype = XMLName(dav, "getcontenttype")
    static let currentUserPrivilegeSet = XMLName(dav, "current-user-privilege-set")
    static let privilege = XMLName(dav, "privilege")
    static let mkcol = XMLName(dav, "mkcol")

    static let mkcalendar = XMLName(caldav, "mkcalendar")
    static let calendar = XMLName(caldav, "calendar")
    static let calendarData = XMLName(caldav, "calendar-data")
    static let calendarDescription = XMLName(caldav, "calendar-description")
    static let calendarTimezone = XMLName(caldav, "calendar-timezone")
    static let supportedComponents = XMLName(caldav, "supported-calendar-component-set")
    static let comp = XMLName(caldav, "comp")

    static let getctag = XMLName(calendarServer, "getctag")
    static let subscribed = XMLName(calendarServer, "subscribed")
    static let source = XMLName(calendarServer, "source")
    static let shared = XMLName(calendarServer, "shared")
    static let sharedOwner = XMLName(calendarServer, "shared-owner")

    static let calendarColor = XMLName(apple, "calendar-color")
    static let calendarOrder = XMLName(apple, "calendar-order")
    static let refreshrate = XMLName(apple, "refreshrate")

    static let readOnly = XMLName(sabre, "read-only")

    /// Privileges that allow changing a collection's content (RFC 3744 §3).
    static let writePrivileges: Set<XMLName> = [
        XMLName(dav, "write"), XMLName(dav, "write-content"), XMLName(dav, "bind"), XMLName(dav, "all"),
    ]

    /// Properties only a calendar collection has: with one of these and no resourcetype, a
    /// response whose href ends in "/" is taken for a calendar.
    static let collectionProperties: Set<XMLName> = [
        displayname, calendarDescription, calendarColor, calendarOrder, calendarTimezone, supportedComponents, getctag,
        source, refreshrate,
    ]
}

/// The calendar and item properties that carry what a server knew and the model has no field
/// for; iCalendar-family writers keep them as X- properties, and the CalDAV writer turns them
/// back into WebDAV properties.
public enum CalDAVProperty {
    /// The resource's or the collection's href.
    public static let href = "X-CALDAV-HREF"
    /// The resource's entity tag (DAV:getetag), quotes included.
    public static let etag = "X-CALDAV-ETAG"
    /// CalendarServer's collection tag (CS:getctag).
    public static let ctag = "X-CALDAV-CTAG"
    /// The collection's sync token (DAV:sync-token, RFC 6578).
    public static let syncToken = "X-CALDAV-SYNC-TOKEN"
    /// Apple's calendar-order.
    public static let order = "X-CALDAV-ORDER"
    /// The supported-calendar-component-set, comma-separated (`VEVENT,VTODO`).
    public static let components = "X-CALDAV-COMPONENTS"
    /// CalendarServer sharing: `owner` (shared by this user) or `sharee` (shared with them).
    public static let shared = "X-CALDAV-SHARED"

    /// Every name above, in the order the reader sets them.
    static let all = [href, etag, ctag, syncToken, order, components, shared]

    static func isCalDAV(_ name: String) -> Bool { name.hasPrefix("X-CALDAV-") }
}
