import CICUShim
import CalendarModel

/// An ICU date or time pattern opened once for a locale, parsing and formatting wall-clock
/// fields (no zone is involved: CSV cells hold wall times).
final class ICUDatePattern {
    let pattern: String
    private let handle: OpaquePointer

    /// The letters ICU's date patterns give a meaning; any other unquoted ASCII letter is a
    /// mistake (`yyyy-MM-ddTHH:mm` needs `'T'`), which ICU itself only notices when formatting.
    private static let fieldLetters = Set("GyYuUrQqMLlwWdDFgEecabBhHkKjJCmsSAzZOvVXx")

    /// Opens `pattern` for `locale`; nil when the pattern is not a valid ICU pattern.
    init?(pattern: String, locale: String) {
        var quoted = false
        for c in pattern {
            if c == "'" { quoted.toggle() } else if !quoted && c.isASCII && c.isLetter && !Self.fieldLetters.contains(c) { return nil }
        }
        guard !quoted, let handle = cp_icu_date_pattern_open(locale, pattern) else { return nil }
        self.pattern = pattern
        self.handle = handle
    }

    deinit {
        cp_icu_date_pattern_close(handle)
    }

    /// Year, month, day, hour, minute and second of the whole text, or nil when it does not match.
    func parse(_ text: String) -> [Int]? {
        var fields = [Int32](repeating: 0, count: 6)
        guard cp_icu_date_pattern_parse(handle, text, &fields) == 1 else { return nil }
        return fields.map(Int.init)
    }

    /// The text for year, month, day, hour, minute and second.
    func format(_ fields: [Int]) -> String? {
        let values = fields.map { Int32(truncatingIfNeeded: $0) }
        var out = [CChar](repeating: 0, count: 128)
        guard cp_icu_date_pattern_format(handle, values, &out, 128) >= 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The locale's own pattern of a kind (with four-digit years and plain spaces).
    static func localePattern(_ locale: String, kind: Int32) -> String? {
        var out = [CChar](repeating: 0, count: 128)
        guard cp_icu_locale_date_pattern(locale, kind, &out, 128) > 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether ICU has data for the locale's language.
    static func isKnownLocale(_ locale: String) -> Bool { cp_icu_locale_is_known(locale) == 1 }
}
