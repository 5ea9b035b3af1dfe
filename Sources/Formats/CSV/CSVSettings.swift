import CalendarModel

/// The CSV formats' settings, read from `ReadOptions.formatSettings` and
/// `WriteOptions.formatSettings` (the CLI fills them from `--locale`, `--date-format`,
/// `--time-format`, `--csv-tz` and `--bom`).
public struct CSVSettings: Sendable, Equatable {
    /// Keys in `formatSettings`.
    public static let localeKey = "csv.locale"
    public static let dateFormatKey = "csv.dateFormat"
    public static let timeFormatKey = "csv.timeFormat"
    public static let timeZoneKey = "csv.timeZone"
    public static let byteOrderMarkKey = "csv.bom"

    /// An ICU locale id (`de_DE`) whose short date and time patterns read and write dates.
    public var locale: String?
    /// An ICU date pattern (`dd.MM.yyyy`) that overrides the locale's.
    public var dateFormat: String?
    /// An ICU time pattern (`HH:mm`) that overrides the locale's.
    public var timeFormat: String?
    /// The zone naive Outlook and Google times are in; nil keeps them floating.
    public var timeZone: String?
    /// Whether to start the output with a UTF-8 byte-order mark (for Excel).
    public var byteOrderMark: Bool

    public init(locale: String? = nil, dateFormat: String? = nil, timeFormat: String? = nil, timeZone: String? = nil,
                byteOrderMark: Bool = false) {
        self.locale = locale
        self.dateFormat = dateFormat
        self.timeFormat = timeFormat
        self.timeZone = timeZone
        self.byteOrderMark = byteOrderMark
    }

    /// The settings a `formatSettings` dictionary carries; keys of other formats are ignored.
    public init(_ settings: [String: String]) {
        func value(_ key: String) -> String? {
            guard let v = settings[key]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
            return v
        }
        self.init(
            locale: value(Self.localeKey), dateFormat: value(Self.dateFormatKey), timeFormat: value(Self.timeFormatKey),
            timeZone: value(Self.timeZoneKey), byteOrderMark: ["1", "true", "yes"].contains(value(Self.byteOrderMarkKey)?.lowercased() ?? ""))
    }

    /// The settings as `formatSettings` entries.
    public var formatSettings: [String: String] {
        var result: [String: String] = [:]
        result[Self.localeKey] = locale
        result[Self.dateFormatKey] = dateFormat
        result[Self.timeFormatKey] = timeFormat
        result[Self.timeZoneKey] = timeZone
        if byteOrderMark { result[Self.byteOrderMarkKey] = "true" }
        return result
    }
}

extension String {
    /// The string without leading and trailing characters from `set`.
    func trimmingCharacters(in set: CSVCharacterSet) -> String {
        // Most cells start and end with a printable ASCII character: skip the Unicode property
        // lookups, which were the largest single cost of reading a row.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !set.contains($0) })!
        return String(scalars[first...last])
    }
}

/// The character classes the CSV code trims (Foundation stays out of this module's hot path).
enum CSVCharacterSet {
    case whitespaces

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .whitespaces: scalar.properties.isWhitespace || scalar == "\u{FEFF}"
        }
    }
}
