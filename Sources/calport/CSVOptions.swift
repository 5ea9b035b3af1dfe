import ArgumentParser
import CSVFormat

/// The CSV formats' options; they travel to the formats as `formatSettings` values.
struct CSVOptions: ParsableArguments {
    @Option(help: ArgumentHelp("ICU locale whose date and time patterns CSV cells use (e.g. de_DE).", valueName: "locale"))
    var locale: String?

    @Option(name: .customLong("date-format"), help: ArgumentHelp("ICU date pattern for CSV cells (e.g. dd.MM.yyyy).", valueName: "pattern"))
    var dateFormat: String?

    @Option(name: .customLong("time-format"), help: ArgumentHelp("ICU time pattern for CSV cells (e.g. HH:mm).", valueName: "pattern"))
    var timeFormat: String?

    @Option(name: .customLong("csv-tz"), help: ArgumentHelp("Time zone of naive Outlook/Google CSV times (default: floating).", valueName: "zone"))
    var timeZone: String?

    @Flag(name: .customLong("bom"), help: "Start CSV output with a UTF-8 byte-order mark (for Excel).")
    var byteOrderMark = false

    /// The options as format settings.
    var formatSettings: [String: String] {
        CSVSettings(locale: locale, dateFormat: dateFormat, timeFormat: timeFormat, timeZone: timeZone, byteOrderMark: byteOrderMark).formatSettings
    }
}
