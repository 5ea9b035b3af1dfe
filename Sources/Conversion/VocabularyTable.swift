import CalendarModel
import Foundation

/// The participant vocabulary of every registered format as one table, one row per EventKit
/// value and one column per format (what `calport formats --vocabulary` prints). In a cell the
/// first word is the one written; the others are also read.
public struct VocabularyTable: Sendable {
    /// The tables, one column each, EventKit's first.
    public let vocabularies: [ParticipantVocabulary]

    /// The registry's vocabularies (EventKit's first) with a run's overrides applied.
    public init(registry: FormatRegistry = StandardFormats.registry, overrides: VocabularyOverrides = .none) {
        vocabularies = registry.vocabularies.map { $0.applying(overrides) }
    }

    /// The table as aligned plain text, ending in a newline.
    public func render() -> String {
        var sections: [String] = []
        sections.append(
            section(
                "role", field: \.roleField, values: ParticipantRole.eventKitCases,
                words: { v, value in v.roles.filter { $0.0 == value }.map(\.1) }))
        sections.append(
            section(
                "status", field: \.statusField, values: ParticipantStatus.eventKitCases,
                words: { v, value in v.statuses.filter { $0.0 == value }.map(\.1) }))
        sections.append(
            section(
                "type", field: \.typeField, values: ParticipantType.eventKitCases,
                words: { v, value in v.types.filter { $0.0 == value }.map(\.1) }))
        let folding = vocabularies.filter(\.caseInsensitive).map(\.formatID)
        var text = sections.joined(separator: "\n")
        text += "\nThe first word in a cell is written; all are read. '-': the format cannot say it.\n"
        text += "A word in several cells of a column reads as the first of them (Outlook CSV's attendee columns).\n"
        if !folding.isEmpty { text += "Case-insensitive: \(folding.joined(separator: ", ")).\n" }
        let keeping = vocabularies.filter(\.keepsUnknownWords).map(\.formatID)
        text += "Words no table knows are kept as written by: \(keeping.joined(separator: ", ")).\n"
        return text
    }

    private func section<T: CustomEventKitNamed>(
        _ title: String, field: KeyPath<ParticipantVocabulary, String>, values: [T],
        words: (ParticipantVocabulary, T) -> [String]
    ) -> String {
        var rows: [[String]] = [[title] + vocabularies.map(\.formatID), [""] + vocabularies.map { $0[keyPath: field] }]
        for value in values {
            rows.append(
                [VocabularyMapFile.caseName(value)]
                    + vocabularies.map { v in
                        let w = words(v, value)
                        return w.isEmpty ? "-" : w.joined(separator: " | ")
                    })
        }
        // Words an override gave a value no EventKit case has are none: overrides name EventKit
        // values only, so the rows above are complete.
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
