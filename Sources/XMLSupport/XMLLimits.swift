/// Bounds a document must stay within; what exceeds them is refused, not truncated.
public struct XMLLimits: Hashable, Sendable {
    /// The deepest element nesting accepted (CalDAV bodies nest about ten deep).
    public var maximumDepth: Int
    /// The longest single text node, in bytes (one calendar-data body); libxml2's own limit
    /// without XML_PARSE_HUGE is the same 10 MB, and calport never sets that flag.
    public var maximumTextBytes: Int
    /// The longest prolog (XML declaration, comments and processing instructions before the
    /// root element) that is scanned for a document type declaration.
    public var maximumPrologBytes: Int
    /// The longest tag (with its attributes), comment or processing instruction (`MarkupGuard`).
    public var maximumMarkupBytes: Int

    /// Limits with calport's defaults unless given.
    public init(
        maximumDepth: Int = 256, maximumTextBytes: Int = 10_000_000, maximumPrologBytes: Int = 65_536, maximumMarkupBytes: Int = 1 << 20
    ) {
        self.maximumDepth = maximumDepth
        self.maximumTextBytes = maximumTextBytes
        self.maximumPrologBytes = maximumPrologBytes
        self.maximumMarkupBytes = maximumMarkupBytes
    }
}
