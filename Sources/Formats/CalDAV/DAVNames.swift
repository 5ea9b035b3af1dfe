import XMLSupport

/// The WebDAV and CalDAV names calport reads and writes, by namespace URI (never by prefix).
public enum DAVNames {
    public static let dav = "DAV:"
    /// RFC 4791.
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// CalendarServer extensions: getctag, subscribed, source, shared.
    public static let calendarServer = "http://calendarserver.org/ns/"
    /// Apple iCal extensions: calendar-color, calendar-order, refreshrate.
    public static let apple = "http://apple.com/ns/ical/"
    /// sabre/dav extensions: read-only on shared calendars.
    public static let sabre = "http://sabredav.org/ns"

    public static let multistatus = XMLName(dav, "multistatus")
    public static let response = XMLName(dav, "response")
    public static let href = XMLName(dav, "href")
    public static let status = XMLName(dav, "status")
    public static let propstat = XMLName(dav, "propstat")
    public static let prop = XMLName(dav, "prop")
    public static let set = XMLName(dav, "set")
    public static let syncToken = XMLName(dav, "sync-token")
    public static let resourcetype = XMLName(dav, "resourcetype")
    public static let collection = XMLName(dav, "collection")
    public static let displayname = XMLName(dav, "displayname")
    public static let getetag = XMLName(dav, "getetag")
    public static let getcontenttype = XMLName(dav, "getcontenttype")
    public static let currentUserPrivilegeSet = XMLName(dav, "current-user-privilege-set")
    public static let privilege = XMLName(dav, "privilege")
    public static let mkcol = XMLName(dav, "mkcol")
    /// RFC 5397: the principal of the authenticated user.
    public static let currentUserPrincipal = XMLName(dav, "current-user-principal")
    /// RFC 6578: what a sync-collection report says of a token it no longer knows.
    public static let validSyncToken = XMLName(dav, "valid-sync-token")
    public static let error = XMLName(dav, "error")

    public static let mkcalendar = XMLName(caldav, "mkcalendar")
    public static let calendar = XMLName(caldav, "calendar")
    public static let calendarData = XMLName(caldav, "calendar-data")
    public static let calendarDescription = XMLName(caldav, "calendar-description")
    public static let calendarTimezone = XMLName(caldav, "calendar-timezone")
    public static let supportedComponents = XMLName(caldav, "supported-calendar-component-set")
    public static let comp = XMLName(caldav, "comp")
    /// RFC 4791 §6.2.1: where a principal's calendars are.
    public static let calendarHomeSet = XMLName(caldav, "calendar-home-set")
    /// RFC 4791 §5.3.2.1: the UID precondition a PUT can fail on.
    public static let noUIDConflict = XMLName(caldav, "no-uid-conflict")

    public static let getctag = XMLName(calendarServer, "getctag")
    public static let subscribed = XMLName(calendarServer, "subscribed")
    public static let source = XMLName(calendarServer, "source")
    public static let shared = XMLName(calendarServer, "shared")
    public static let sharedOwner = XMLName(calendarServer, "shared-owner")

    public static let calendarColor = XMLName(apple, "calendar-color")
    public static let calendarOrder = XMLName(apple, "calendar-order")
    public static let refreshrate = XMLName(apple, "refreshrate")

    public static let readOnly = XMLName(sabre, "read-only")

    /// Privileges that allow changing a collection's content (RFC 3744 §3).
    public static let writePrivileges: Set<XMLName> = [
        XMLName(dav, "write"), XMLName(dav, "write-content"), XMLName(dav, "bind"), XMLName(dav, "all"),
    ]

    /// Properties only a calendar collection has: with one of these and no resourcetype, a
    /// response whose href ends in "/" is taken for a calendar.
    public static let collectionProperties: Set<XMLName> = [
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
    public static let all = [href, etag, ctag, syncToken, order, components, shared]

    static func isCalDAV(_ name: String) -> Bool { name.hasPrefix("X-CALDAV-") }
}
