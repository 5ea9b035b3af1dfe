/// Why an XML document was refused, with where: the input's name, the line, and the element
/// path (`/multistatus/response[2]/propstat/prop`).
public struct XMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: Hashable, Sendable {
        /// Not well-formed XML (libxml2's message says why).
        case malformed
        /// A document type declaration: refused because it is how entity expansion
        /// (billion laughs) and external entities (XXE) get in; no CalDAV or xCal body has one.
        case documentType
        /// An entity reference other than the five predefined ones and character references.
        case entityReference
        /// Elements nested deeper than the limit.
        case tooDeep
        /// A text node or the prolog longer than the limit.
        case tooLarge
        /// An encoding other than UTF-8 (declared or by byte-order mark).
        case unsupportedEncoding
        /// Reading the input failed.
        case io
    }

    /// What went wrong.
    public var kind: Kind
    /// The explanation shown to the user.
    public var message: String
    /// The input's name as the user gave it.
    public var file: String
    /// 1-based line, when libxml2 knows it.
    public var line: Int?
    /// The element path where the problem was found ("/" before the root element).
    public var path: String

    /// An error of `kind` at a place.
    public init(_ kind: Kind, _ message: String, file: String, line: Int?, path: String) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.path = path
    }

    /// `file:line: path: message`.
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(path): \(message)"
    }
}
