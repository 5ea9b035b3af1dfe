import XMLSupport

/// A multistatus body (RFC 4918 §13) read whole into its responses and its sync token: what a
/// CalDAV client needs from PROPFIND and REPORT answers, read by the same libxml2 pull reader
/// and `DAVResponse` as the `caldav` format.
public struct DAVMultistatus: Sendable {
    /// The responses in document order.
    public var responses: [DAVResponse] = []
    /// RFC 6578's DAV:sync-token, when the body has one.
    public var syncToken: String?

    /// Reads `bytes`; `name` is used in errors (the URL the body came from).
    public init(bytes: [UInt8], name: String) throws {
        var offset = 0
        let xml = try XMLPullReader(name: name) { buffer in
            let n = min(buffer.count, bytes.count - offset)
            guard n > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
            offset += n
            return n
        }
        var sawRoot = false
        while let event = try xml.next() {
            guard case .start(let element, let attributes) = event else { continue }
            if !sawRoot {
                guard element == DAVNames.multistatus else {
                    throw XMLError(.malformed, "the body is \(element), not {DAV:}multistatus", file: name, line: xml.line, path: xml.path)
                }
                sawRoot = true
                continue
            }
            switch element {
            case DAVNames.response:
                responses.append(DAVResponse(try xml.readElement(start: element, attributes: attributes)))
            case DAVNames.syncToken:
                syncToken = try xml.readText(of: element).trimmingWhitespace
            default:
                try xml.skipElement()
            }
        }
        guard sawRoot else { throw XMLError(.malformed, "the body is empty, not a multistatus", file: name, line: nil, path: "/") }
    }
}
