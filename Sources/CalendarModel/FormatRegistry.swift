/// The formats calport knows, by id and by extension. Built once from an explicit list
/// (see `Conversion`'s registration); a duplicate id is a programming error reported loudly.
public struct FormatRegistry: Sendable {
    public enum RegistrationError: Error, CustomStringConvertible {
        case duplicateID(String)

        public var description: String {
            switch self {
            case .duplicateID(let id): "format id '\(id)' is registered twice"
            }
        }
    }

    /// Formats in registration order.
    public let formats: [any CalendarFormat]

    public init(_ formats: [any CalendarFormat]) throws {
        var seen = Set<String>()
        for format in formats where !seen.insert(format.id).inserted {
            throw RegistrationError.duplicateID(format.id)
        }
        self.formats = formats
    }

    /// The format with an id, case-insensitive.
    public func format(id: String) -> (any CalendarFormat)? {
        let wanted = id.lowercased()
        return formats.first { $0.id == wanted }
    }

    /// The first format claiming a file extension (without the dot): the one written for it.
    public func format(forExtension ext: String) -> (any CalendarFormat)? {
        let wanted = ext.lowercased()
        return formats.first { $0.fileExtensions.contains(wanted) }
    }

    /// Every format claiming a file extension, in registration order: the candidates an input
    /// with that extension is sniffed among (`.json` is calport's JSON, jCal or JSCalendar).
    public func formats(forExtension ext: String) -> [any CalendarFormat] {
        let wanted = ext.lowercased()
        return formats.filter { $0.fileExtensions.contains(wanted) }
    }

    /// The format an input with extension `ext` holds: the only claimant, else the first
    /// claimant whose sniffer accepts `prefix` (its first bytes), else the first claimant (whose
    /// reader then says what is wrong). Nil when no format claims the extension.
    public func format(forExtension ext: String, prefix: () throws -> [UInt8]) rethrows -> (any CalendarFormat)? {
        let candidates = formats(forExtension: ext)
        guard candidates.count > 1 else { return candidates.first }
        let bytes = try prefix()
        return candidates.first { $0.sniff(bytes) } ?? candidates[0]
    }

    /// The first format whose sniffer accepts the input's first bytes.
    public func format(sniffing prefix: [UInt8]) -> (any CalendarFormat)? {
        formats.first { $0.sniff(prefix) }
    }

    /// Every participant vocabulary: EventKit's display names first, then each format's, in
    /// registration order (what `calport formats --vocabulary` prints).
    public var vocabularies: [ParticipantVocabulary] { [.eventKit] + formats.compactMap(\.vocabulary) }
}
