import CalendarModel

/// What a header row says: the layout, the language of its names, and which column each cell
/// index holds.
struct CSVHeader {
    let dialect: CSVDialect
    /// The language of an Outlook header (English for Google and flat headers).
    let language: CSVLanguage
    /// The header names as written.
    let names: [String]
    /// For the Outlook and Google layouts: the column at each index, nil when unknown.
    let columns: [CSVColumn?]
    /// For the flat layout: the column at each index, nil when unknown.
    let flatColumns: [FlatColumn?]
    /// The first index of each column: rows look columns up by it, and a header can be wide.
    private let columnIndex: [CSVColumn: Int]
    private let flatIndex: [FlatColumn: Int]

    init(dialect: CSVDialect, language: CSVLanguage, names: [String], columns: [CSVColumn?], flatColumns: [FlatColumn?]) {
        self.dialect = dialect
        self.language = language
        self.names = names
        self.columns = columns
        self.flatColumns = flatColumns
        var columnIndex: [CSVColumn: Int] = [:]
        for (i, c) in columns.enumerated() { if let c, columnIndex[c] == nil { columnIndex[c] = i } }
        var flatIndex: [FlatColumn: Int] = [:]
        for (i, c) in flatColumns.enumerated() { if let c, flatIndex[c] == nil { flatIndex[c] = i } }
        self.columnIndex = columnIndex
        self.flatIndex = flatIndex
    }

    /// Header names that belong to no column of the layout (ignored when reading).
    var unknownNames: [String] {
        names.indices.filter { dialect == .flat ? flatColumns[$0] == nil : columns[$0] == nil }.map { names[$0] }
    }

    /// The index of a column, if the header has it.
    func index(of column: CSVColumn) -> Int? { columnIndex[column] }

    /// The index of a flat column, if the header has it.
    func index(of column: FlatColumn) -> Int? { flatIndex[column] }

    /// Finds the layout of a header. `preferred` settles a header that only has the columns
    /// Outlook and Google share and neither spelling of "All day event". Returns nil when the
    /// header has no start column in any layout.
    static func detect(_ names: [String], preferred: CSVDialect) -> CSVHeader? {
        // Names are looked up in tables keyed once, so a header of 100,000 columns takes as long
        // as its names do to read, not that times the vocabulary.
        let keys = names.map(key)
        let flat = keys.map { flatColumnsByKey[$0] }
        if flat.contains(.start) && flat.compactMap({ $0 }).count >= 3 {
            return CSVHeader(dialect: .flat, language: .english, names: names, columns: keys.map { _ in nil }, flatColumns: flat)
        }
        var best: (language: CSVLanguage, columns: [CSVColumn?], matched: Int)?
        for language in CSVLanguage.allCases {
            let columns = assign(keys, byKey: outlookColumnsByKey[language]!)
            let matched = columns.compactMap { $0 }.count
            if columns.contains(.startDate) && matched > (best?.matched ?? 0) { best = (language, columns, matched) }
        }
        guard let best else { return nil }
        let none = keys.map { _ -> FlatColumn? in nil }
        let outlook = CSVHeader(dialect: .outlook, language: best.language, names: names, columns: best.columns, flatColumns: none)
        if best.columns.contains(where: { $0.map(CSVColumn.outlookOnly.contains) ?? false }) { return outlook }
        let trimmed = names.map { $0.trimmingCharacters(in: .whitespaces) }
        let googleAllDay = CSVVocabulary.googleHeaders.first { $0.0 == .allDay }!.1
        let outlookAllDay = CSVVocabulary.outlookHeaders[.english]!.first { $0.0 == .allDay }!.1[0]
        let google = CSVHeader(dialect: .google, language: .english, names: names, columns: best.columns, flatColumns: none)
        if best.language == .english && trimmed.contains(googleAllDay) { return google }
        if trimmed.contains(outlookAllDay) { return outlook }
        return best.language == .english && preferred == .google ? google : outlook
    }

    /// The flat layout's columns by the key of their names. Built once: building the tables for
    /// every reader was 15% of a run over a small file.
    private static let flatColumnsByKey: [String: FlatColumn] = {
        var byKey: [String: FlatColumn] = [:]
        for column in FlatColumn.allCases where byKey[key(column.rawValue)] == nil { byKey[key(column.rawValue)] = column }
        return byKey
    }()

    /// Each language's Outlook columns by the keys of their spellings, in the table's order.
    private static let outlookColumnsByKey: [CSVLanguage: [String: [CSVColumn]]] = {
        var tables: [CSVLanguage: [String: [CSVColumn]]] = [:]
        for language in CSVLanguage.allCases {
            var byKey: [String: [CSVColumn]] = [:]
            for (column, spellings) in CSVVocabulary.outlookHeaders[language]! {
                for k in Set(spellings.map(key)) { byKey[k, default: []].append(column) }
            }
            tables[language] = byKey
        }
        return tables
    }()

    /// Matches names to a language's columns in order, so that repeated names (French "Début"
    /// for both start date and start time) take the columns one after the other.
    private static func assign(_ keys: [String], byKey: [String: [CSVColumn]]) -> [CSVColumn?] {
        var taken = Set<CSVColumn>()
        return keys.map { k in
            guard let column = byKey[k]?.first(where: { !taken.contains($0) }) else { return nil }
            taken.insert(column)
            return column
        }
    }

    /// How header names compare: trimmed, case-folded, inner spaces collapsed.
    static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased().split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).joined(separator: " ")
    }
}
