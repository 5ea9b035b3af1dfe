import CalendarModel

/// A rule the engine refuses to expand, with the reason; callers turn it into a diagnostic
/// with the item's place.
public struct RecurrenceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal this is.
    public enum Kind: Hashable, Sendable {
        /// RFC 7529 RSCALE other than GREGORIAN, SKIP other than OMIT, or leap months.
        case unsupported
        /// A rule that breaks RFC 5545 §3.3.10 in a way that leaves nothing sensible to expand.
        case invalid
    }

    /// Whether the rule is unsupported or invalid.
    public var kind: Kind
    /// What is wrong, for a diagnostic.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
