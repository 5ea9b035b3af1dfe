/// Where an element was read, as its parent's place and its own step, turned into the text
/// `/multistatus/response[2]/propstat` only when a message asks for it. Building that text for
/// every element read into a tree cost more than reading the element; most are never named.
public final class XMLPath: Hashable, Sendable, CustomStringConvertible {
    private let parent: XMLPath?
    private let step: String
    private let index: Int

    /// A place given as its full text.
    public init(_ text: String) {
        self.parent = nil
        self.step = text
        self.index = 0
    }

    /// The place of the `index`-th child called `local` (counted among its siblings of that name)
    /// of the element at `parent`.
    public init(parent: XMLPath, local: String, index: Int) {
        self.parent = parent
        self.step = local
        self.index = index
    }

    /// The path's text; a child step reads `local` or `local[index]` after its parent's path.
    public var description: String {
        guard let parent else { return step }
        let text = parent.description + "/" + step
        return index > 1 ? text + "[\(index)]" : text
    }

    public static func == (a: XMLPath, b: XMLPath) -> Bool { a === b || a.description == b.description }

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
