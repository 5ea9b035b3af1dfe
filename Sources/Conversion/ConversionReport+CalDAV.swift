extension ConversionReport {
    /// What talking to CalDAV servers did: the report's `calDAV` section, filled by a push
    /// (`CalDAVPush`) and by a pull into a vdir (`CalDAVVdirSync`), and shown by the HTML page.
    public struct Server: Codable, Sendable, Equatable {
        /// "push" (files or a server into a server) or "pull" (a server into a vdir).
        public var direction: String
        /// The server URLs of the command line (the push's `-o`, each pulled input), without
        /// userinfo.
        public var servers: [String]
        /// Every server calendar written or read, in order.
        public var calendars: [ServerCalendar] = []
        /// HTTP requests by method, retries included.
        public var requests: [String: Int] = [:]
        /// Requests retried (429, 5xx, timeouts, dropped connections).
        public var retries = 0

        /// An empty section for a run in `direction` with `servers` (their userinfo is removed here).
        public init(direction: String, servers: [String]) {
            self.direction = direction
            self.servers = servers.map(SecretRedaction.text)
        }
    }

    /// What happened on one server calendar: a push's outcomes per item, a pull's changes.
    public struct ServerCalendar: Codable, Sendable, Equatable {
        /// The collection's URL (never with credentials), or "(not pushed)".
        public var url: String
        /// Its display name.
        public var title: String?
        /// Items (one resource per UID) created on the server.
        public var created = 0
        /// Items that replaced the server's copy (a conflict the local version won).
        public var updated = 0
        /// Items the server already held, equal item by item (nothing sent).
        public var unchanged = 0
        /// Items left alone: a conflict the server's copy won (`--on-conflict`), or the
        /// calendar's kind (birthday, subscription).
        public var skipped = 0
        /// Conflicts (the server's copy differs) decided for the server's copy: skipped.
        public var serverWon = 0
        /// Conflicts decided for the local version: updated.
        public var localWon = 0
        /// Items that could not be written.
        public var failed = 0
        /// Pull: resources fetched.
        public var pulled = 0
        /// Pull: resources removed from the output because the server no longer has them.
        public var deleted = 0
        /// Pull: how changes were found: "full", "sync-collection" or "etag".
        public var syncMethod: String?
        /// The first 20 items of each outcome but `unchanged`, with their places and the reason.
        public var examples: [ServerItem] = []

        /// An empty tally for the collection at `url` (its userinfo is removed here).
        public init(url: String, title: String?) {
            self.url = SecretRedaction.text(url)
            self.title = title
        }
    }

    /// One item's outcome on a server.
    public struct ServerItem: Codable, Sendable, Equatable {
        /// created, updated, skipped, failed, would-create, would-update, pulled, deleted.
        public var outcome: String
        /// The item's UID (empty for a pulled or deleted resource).
        public var uid: String
        /// The resource's path on the server.
        public var href: String?
        /// Where the item was read (`file:line`), or for a pull the file written or removed.
        public var place: String?
        /// For a conflict: "server" or "local", the side whose version is now on the server.
        public var winner: String?
        /// Why.
        public var reason: String

        /// An outcome of the item `uid` (the resource `href`, read at `place`).
        public init(outcome: String, uid: String, href: String?, place: String?, winner: String? = nil, reason: String) {
            self.outcome = outcome
            self.uid = uid
            self.href = href
            self.place = place
            self.winner = winner
            self.reason = reason
        }
    }
}
