/// What the EWS writer writes, read from `WriteOptions.formatSettings` (the CLI fills it from
/// `--ews-request`).
public struct EWSWriterSettings: Sendable, Equatable {
    /// The document the writer produces.
    public enum Document: String, Sendable, CaseIterable {
        /// What Exchange returns for GetItem: a `m:GetItemResponse` envelope, read-only fields
        /// (organizer, response types, modified and deleted occurrences) included (the default).
        case getItemResponse = "response"
        /// A `m:CreateItem` request (`SendMeetingInvitations="SendToNone"`) that an Exchange
        /// server accepts as it is; what CreateItem cannot set is reported as a loss.
        case createItemRequest = "create"
    }

    /// The key in `formatSettings`.
    public static let requestKey = "ews.request"

    /// The document to write.
    public var document: Document

    /// Settings that write `document`.
    public init(document: Document = .getItemResponse) {
        self.document = document
    }

    /// The settings a `formatSettings` dictionary carries; nil when `ews.request` names no
    /// document (the writer reports it as a usage error).
    public init?(_ settings: [String: String]) {
        guard let word = settings[Self.requestKey] else {
            self.init()
            return
        }
        guard let document = Document(rawValue: word.lowercased()) else { return nil }
        self.init(document: document)
    }

    /// The settings as `formatSettings` entries.
    public var formatSettings: [String: String] {
        document == .getItemResponse ? [:] : [Self.requestKey: document.rawValue]
    }
}
