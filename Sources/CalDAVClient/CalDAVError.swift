/// Why a request to a CalDAV server failed, in the words the CLI turns into exit statuses:
/// nothing answered (69), the server kept failing (75), it refused the credentials (77), or
/// it answered something calport cannot go on from.
public struct CalDAVError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, each with its own exit status.
    public enum Kind: Sendable, Equatable {
        /// No connection could be made (refused, unknown host) after every retry.
        case unreachable
        /// 5xx, 429, timeouts or dropped connections on every attempt.
        case exhaustedRetries
        /// 401 or 403.
        case authentication
        /// Another status, or a body that is not what the protocol says.
        case protocolError
    }

    /// What kind of failure.
    public var kind: Kind
    /// The URL, without userinfo.
    public var url: String
    /// The last HTTP status, when there was an answer.
    public var status: Int?
    /// What happened, for a person.
    public var message: String

    /// A failure of `kind` at `url`.
    public init(_ kind: Kind, url: String, status: Int? = nil, _ message: String) {
        self.kind = kind
        self.url = url
        self.status = status
        self.message = message
    }

    public var description: String { "\(url): \(message)" }
}
