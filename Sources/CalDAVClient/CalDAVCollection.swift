import Foundation

/// A calendar collection as PROPFIND describes it (RFC 4791 §5.2, RFC 6578, CalendarServer
/// and Apple extensions).
public struct CalDAVCollection: Sendable, Equatable {
    /// The collection's URL, ending in "/".
    public var url: URL
    /// DAV:displayname.
    public var displayName: String?
    /// Apple's calendar-color, as the server gave it.
    public var color: String?
    /// CalDAV's calendar-description.
    public var description: String?
    /// calendar-timezone: a whole VCALENDAR holding one VTIMEZONE, as text.
    public var timeZone: String?
    /// supported-calendar-component-set (`VEVENT`, `VTODO`, …); empty when not reported.
    public var components: [String] = []
    /// The user lacks write privileges, or the server says read-only.
    public var isReadOnly = false
    /// A CalendarServer subscribed collection (a feed, not a calendar to write into).
    public var isSubscription = false
    /// RFC 6578 sync token, when the server supports sync-collection.
    public var syncToken: String?
    /// CalendarServer's ctag.
    public var ctag: String?
    /// Apple's calendar-order.
    public var order: String?

    /// A collection at `url` with nothing else known.
    public init(url: URL) {
        self.url = url
    }
}

/// One calendar object resource: where it is, its entity tag, and its data as the server
/// stores it (nil when only listed).
public struct CalDAVResource: Sendable, Equatable {
    /// The resource's URL.
    public var url: URL
    /// DAV:getetag, quotes included.
    public var etag: String?
    /// The iCalendar text.
    public var calendarData: String?

    /// A resource at `url`.
    public init(url: URL, etag: String?, calendarData: String?) {
        self.url = url
        self.etag = etag
        self.calendarData = calendarData
    }
}

/// What a sync-collection report (RFC 6578) says changed since a token.
public struct CalDAVChanges: Sendable, Equatable {
    /// The token to ask with next time.
    public var syncToken: String
    /// Resources added or changed, with their entity tags.
    public var changed: [CalDAVResource] = []
    /// Resources removed.
    public var removed: [URL] = []
}

/// What a URL turned out to be, and the calendars it leads to.
public struct CalDAVDiscovery: Sendable {
    /// The authenticated user's principal, when the server names one.
    public var principal: URL?
    /// The calendar homes (where new calendars are created).
    public var homes: [URL] = []
    /// The URL itself, when it is a calendar collection.
    public var collection: CalDAVCollection?
    /// Every calendar collection found in the homes (or the one collection).
    public var calendars: [CalDAVCollection] = []

    /// Nothing found yet.
    public init() {}
}

/// How a conditional PUT ended.
public enum CalDAVPutOutcome: Sendable, Equatable {
    /// Stored; the new entity tag when the server gave one (else read it back).
    case stored(etag: String?, created: Bool)
    /// 412: the resource exists (If-None-Match) or changed (If-Match) — or, on Xandikos, the
    /// UID is stored under another name (`no-uid-conflict`).
    case preconditionFailed(uidConflict: Bool)
    /// 409 Conflict: Radicale's answer to a UID stored under another name.
    case conflict(message: String)
}
