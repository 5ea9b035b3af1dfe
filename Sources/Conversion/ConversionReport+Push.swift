extension ConversionReport {
    /// What a push to a CalDAV server did, per calendar (collection). Filled by the push; the
    /// HTML report shows a push section whenever this is present.
    public struct Push: Codable, Sendable, Equatable {
        /// The server's URL without userinfo (`SecretRedaction.text` strips it).
        public var server: String
        /// One entry per calendar pushed, in order.
        public var calendars: [PushCalendar] = []

        /// A push to `server` (its userinfo is removed here).
        public init(server: String, calendars: [PushCalendar] = []) {
            self.server = SecretRedaction.text(server)
            self.calendars = calendars
        }
    }

    /// One calendar's push: how many items were created, updated, left alone, skipped or failed.
    public struct PushCalendar: Codable, Sendable, Equatable {
        /// The calendar's title, if it has one.
        public var title: String?
        /// The collection's URL (or path) on the server, without userinfo.
        public var collection: String
        /// Items the server did not have (PUT with If-None-Match: *).
        public var created = 0
        /// Items replaced (PUT with If-Match).
        public var updated = 0
        /// Items the server already had as they are (nothing sent).
        public var unchanged = 0
        /// Items not written because of a conflict (both sides changed); see `skippedItems`.
        public var skipped = 0
        /// Of the conflicts, how many the server's version won (local change not written).
        public var serverWon = 0
        /// Of the conflicts, how many the local version won (server's copy replaced).
        public var localWon = 0
        /// Items the server refused or that failed after retries; see `failures`.
        public var failed = 0
        /// The first 100 conflicts with which side won.
        public var skippedItems: [PushItem] = []
        /// The first 100 failures with the server's answer.
        public var failures: [PushItem] = []

        /// An empty tally for the collection at `collection` (its userinfo is removed here).
        public init(title: String?, collection: String) {
            self.title = title
            self.collection = SecretRedaction.text(collection)
        }
    }

    /// One item of a push that did not simply go through.
    public struct PushItem: Codable, Sendable, Equatable {
        /// The item's UID.
        public var uid: String
        /// `file:line` of the local version, when known.
        public var place: String?
        /// For a conflict: "server" or "local", the side whose version was kept.
        public var winner: String?
        /// For a failure: the HTTP status, when there was one.
        public var status: Int?
        /// What happened, in words.
        public var message: String

        public init(uid: String, place: String? = nil, winner: String? = nil, status: Int? = nil, message: String) {
            self.uid = uid
            self.place = place
            self.winner = winner
            self.status = status
            self.message = message
        }
    }
}
