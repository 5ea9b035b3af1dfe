/// One format's words for participant roles, statuses and types. Formats register their
/// vocabulary with the format registry, so the mapping is written once per format and printed
/// in one table (`calport formats --vocabulary`), never scattered through readers and writers.
public struct ParticipantVocabulary: Sendable {
    /// The format id this vocabulary belongs to.
    public var formatID: String
    /// What the words are (e.g. "ROLE", "PARTSTAT", "CUTYPE").
    public var roleField: String
    /// What the status words are (e.g. "PARTSTAT").
    public var statusField: String
    /// What the type words are (e.g. "CUTYPE").
    public var typeField: String
    /// Word for each EventKit value this format can express; the first entry for a value is the
    /// one written, later ones are accepted when reading.
    public var roles: [(ParticipantRole, String)]
    /// Status words, as `roles`.
    public var statuses: [(ParticipantStatus, String)]
    /// Type words, as `roles`.
    public var types: [(ParticipantType, String)]
    /// Whether words compare case-insensitively.
    public var caseInsensitive: Bool
    /// Whether the format can carry a word no table knows (`.other(word)`) as it was; false
    /// for formats whose "words" are fixed places, such as Outlook CSV's attendee columns.
    public var keepsUnknownWords: Bool

    /// A vocabulary with its words; words compare case-insensitively unless told otherwise.
    public init(
        formatID: String, roleField: String, statusField: String, typeField: String,
        roles: [(ParticipantRole, String)], statuses: [(ParticipantStatus, String)],
        types: [(ParticipantType, String)], caseInsensitive: Bool = true, keepsUnknownWords: Bool = true
    ) {
        self.formatID = formatID
        self.roleField = roleField
        self.statusField = statusField
        self.typeField = typeField
        self.roles = roles
        self.statuses = statuses
        self.types = types
        self.caseInsensitive = caseInsensitive
        self.keepsUnknownWords = keepsUnknownWords
    }

    private func same(_ a: String, _ b: String) -> Bool {
        a == b || (caseInsensitive && a.caseInsensitiveCompare(b))
    }

    /// The role a word names; an unknown word becomes `.other(word)` so it is kept.
    public func role(for word: String) -> ParticipantRole {
        // Exact spelling first: it is the common case and needs no case folding.
        roles.first { $0.1 == word }?.0 ?? roles.first { same($0.1, word) }?.0 ?? .other(word)
    }

    /// The status a word names; an unknown word becomes `.other(word)`.
    public func status(for word: String) -> ParticipantStatus {
        statuses.first { $0.1 == word }?.0 ?? statuses.first { same($0.1, word) }?.0 ?? .other(word)
    }

    /// The type a word names; an unknown word becomes `.other(word)`.
    public func type(for word: String) -> ParticipantType {
        types.first { $0.1 == word }?.0 ?? types.first { same($0.1, word) }?.0 ?? .other(word)
    }

    /// The word to write for a role, or nil when this format cannot express it.
    public func word(for role: ParticipantRole) -> String? {
        if case .other(let word) = role { return word }
        return roles.first { $0.0 == role }?.1
    }

    /// The word to write for a status, or nil when this format cannot express it.
    public func word(for status: ParticipantStatus) -> String? {
        if case .other(let word) = status { return word }
        return statuses.first { $0.0 == status }?.1
    }

    /// The word to write for a type, or nil when this format cannot express it.
    public func word(for type: ParticipantType) -> String? {
        if case .other(let word) = type { return word }
        return types.first { $0.0 == type }?.1
    }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool {
        count == other.count && uppercased() == other.uppercased()
    }
}

extension ParticipantVocabulary {
    /// EventKit's display names ("Non Participant", "In Process", "Room"): the words EventKit
    /// apps show, which `--map` files and CSV exports of EventKit data use.
    public static let eventKit = ParticipantVocabulary(
        formatID: "eventkit", roleField: "EKParticipantRole", statusField: "EKParticipantStatus",
        typeField: "EKParticipantType",
        roles: ParticipantRole.eventKitCases.map { ($0, $0.eventKitName) },
        statuses: ParticipantStatus.eventKitCases.map { ($0, $0.eventKitName) },
        types: ParticipantType.eventKitCases.map { ($0, $0.eventKitName) })
}
