/// The language of an Outlook header. It decides the words written for booleans, priorities and
/// sensitivities, and the locale whose date patterns read the file when none is given.
enum CSVLanguage: String, CaseIterable, Sendable {
    case english = "en", german = "de", french = "fr", spanish = "es", chinese = "zh", japanese = "ja"

    /// The locale an export in this language most likely came from.
    var defaultLocale: String {
        switch self {
        case .english: "en_US"
        case .german: "de_DE"
        case .french: "fr_FR"
        case .spanish: "es_ES"
        case .chinese: "zh_CN"
        case .japanese: "ja_JP"
        }
    }

    /// The header language for a locale id (`de_AT` → German); English when none matches.
    init(locale: String) {
        let language = locale.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map { String($0).lowercased() } ?? ""
        self = CSVLanguage(rawValue: language) ?? .english
    }
}
