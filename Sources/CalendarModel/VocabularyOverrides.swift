/// Participant words a user adds to or changes in the format vocabularies for one run
/// (`calport --map FILE`), carried as a value in `ReadOptions` and `WriteOptions` so that no
/// global table ever changes.
public struct VocabularyOverrides: Hashable, Sendable {
    /// Words for one kind of value: each word names the value it stands for.
    public struct Words: Hashable, Sendable {
        /// Role words (ROLE, JSCalendar roles, CSV columns) and the values they mean.
        public var roles: [String: ParticipantRole]
        /// Status words (PARTSTAT, participationStatus) and the values they mean.
        public var statuses: [String: ParticipantStatus]
        /// Type words (CUTYPE, kind) and the values they mean.
        public var types: [String: ParticipantType]

        /// Words for roles, statuses and types; empty by default.
        public init(
            roles: [String: ParticipantRole] = [:], statuses: [String: ParticipantStatus] = [:],
            types: [String: ParticipantType] = [:]
        ) {
            self.roles = roles
            self.statuses = statuses
            self.types = types
        }

        /// Whether there is nothing to change.
        public var isEmpty: Bool { roles.isEmpty && statuses.isEmpty && types.isEmpty }
    }

    /// Words every format takes.
    public var everyFormat: Words
    /// Words for one format, by format id; they win over `everyFormat`.
    public var byFormat: [String: Words]

    /// Overrides for every format and for single formats.
    public init(everyFormat: Words = Words(), byFormat: [String: Words] = [:]) {
        self.everyFormat = everyFormat
        self.byFormat = byFormat
    }

    /// No overrides at all.
    public static let none = VocabularyOverrides()

    /// Whether nothing changes.
    public var isEmpty: Bool { everyFormat.isEmpty && byFormat.values.allSatisfy(\.isEmpty) }
}

extension ParticipantVocabulary {
    /// This vocabulary with a run's overrides applied: an overriding word stops meaning what
    /// it meant and means the value it is given; a value that had no word is written with the
    /// first word given for it, so the override works in both directions.
    public func applying(_ overrides: VocabularyOverrides) -> ParticipantVocabulary {
        guard !overrides.isEmpty else { return self }
        var v = self
        for words in [overrides.everyFormat, overrides.byFormat[formatID]].compactMap({ $0 }) {
            // Sorted so the result does not depend on dictionary order.
            for (word, value) in words.roles.sorted(by: { $0.key < $1.key }) {
                v.roles = Self.redefine(word, as: value, in: v.roles, v.caseInsensitive)
            }
            for (word, value) in words.statuses.sorted(by: { $0.key < $1.key }) {
                v.statuses = Self.redefine(word, as: value, in: v.statuses, v.caseInsensitive)
            }
            for (word, value) in words.types.sorted(by: { $0.key < $1.key }) {
                v.types = Self.redefine(word, as: value, in: v.types, v.caseInsensitive)
            }
        }
        return v
    }

    private static func redefine<T: Equatable>(_ word: String, as value: T, in table: [(T, String)], _ caseInsensitive: Bool) -> [(
        T, String
    )] {
        let key = caseInsensitive ? word.uppercased() : word
        var out = table.filter { (caseInsensitive ? $0.1.uppercased() : $0.1) != key }
        out.append((value, word))
        return out
    }
}
