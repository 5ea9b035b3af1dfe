/// An `XMLPullReader` opened on first use, so that a failure to open comes where reading
/// starts, in order with everything else the reading reports.
public struct LazyXMLPullReader {
    private let name: String
    private let read: (UnsafeMutableRawBufferPointer) throws -> Int
    private let parsesAhead: Bool
    private var made: XMLPullReader?

    /// A reader of `name` to be opened over `read` (see `XMLPullReader.init`).
    public init(name: String, parsesAhead: Bool = false, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.name = name
        self.parsesAhead = parsesAhead
        self.read = read
    }

    /// The reader, opened now if it was not yet.
    public mutating func get() throws -> XMLPullReader {
        if let made { return made }
        let opened = try XMLPullReader(name: name, parsesAhead: parsesAhead, read: read)
        made = opened
        return opened
    }
}
