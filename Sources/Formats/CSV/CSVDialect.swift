/// Which CSV layout a file uses. Each is its own format id; reading finds the layout from the
/// header, so any of the three ids reads any of the three layouts.
public enum CSVDialect: String, CaseIterable, Sendable {
    /// Every model field flat, one event per row, so ICS → csv → ICS loses as little as possible.
    case flat = "csv"
    /// The columns Outlook exports and imports, with headers in the file's language.
    case outlook = "csv-outlook"
    /// The columns Google Calendar imports.
    case google = "csv-google"

    /// One line for `calport formats`.
    var summary: String {
        switch self {
        case .flat: "CSV with every event field (uid, zone, rule, alarms, attendees), for spreadsheets and round trips"
        case .outlook: "Outlook CSV (export/import columns; headers in en, de, fr, es, zh, ja)"
        case .google: "Google Calendar CSV import columns"
        }
    }
}
