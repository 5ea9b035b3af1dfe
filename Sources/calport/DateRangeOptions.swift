import ArgumentParser
import CalendarModel
import Conversion
import Recurrence
import TimeZones

/// `--start`, `--end`, `--expand`, `--max-occurrences`: the date-range query of `convert`.
struct DateRangeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep items with an occurrence ending after WHEN: 2024-05-01, 2024-05-01T09:00, 2024-05-01T09:00:00Z or 2024-05-01T09:00+02:00; without a zone, in --tz's zone (UTC for keep and utc).",
            valueName: "WHEN"))
    var start: String?

    @Option(help: ArgumentHelp("Keep items with an occurrence starting before WHEN (same forms as --start).", valueName: "WHEN"))
    var end: String?

    @Flag(
        help: "Write each occurrence of a recurring item as an item of its own (same UID, with RECURRENCE-ID), sorted by start, then UID.")
    var expand = false

    @Option(
        help: ArgumentHelp(
            "Most occurrences one recurring item may yield; a warning says when the limit cuts a series.", valueName: "N"))
    var maxOccurrences = 100_000

    @Option(
        name: .customLong("lower-rscale"),
        help: ArgumentHelp(
            "Write lunar and other non-Gregorian rules (RFC 7529 RSCALE) as dates, in this window: FROM..TO (YYYY-MM-DD), FROM.., ..TO, or .. for 30 years from each series' start. Targets that cannot hold such rules (CSV, Exchange) always get them as dates.",
            valueName: "FROM..TO"))
    var lowerRSCALE: String?

    /// The `--lower-rscale` window, when given.
    func loweringWindow() throws -> RSCALELowering.Window? {
        do {
            return try lowerRSCALE.map { try RSCALELowering.Window(text: $0) }
        } catch let error as CalendarError {
            throw ValidationError(error.diagnostic.message)
        }
    }

    /// The query these options ask for: a WHEN without zone is read in `--tz ZONE` (UTC with
    /// `--tz keep` or `--tz utc`); floating times in `--floating-tz`.
    func makeQuery(timeZones: TimeZoneOptions? = nil) throws -> RecurrenceQuery {
        var defaultZone: String?
        if case .zone(let zone)? = timeZones?.output { defaultZone = zone }
        let floatingTimeZone = timeZones?.floatingZone
        do {
            return try RecurrenceQuery(
                startText: start, endText: end, expand: expand, maxOccurrences: maxOccurrences, defaultZone: defaultZone,
                floatingTimeZone: floatingTimeZone)
        } catch let error as RecurrenceError {
            throw ValidationError(error.message)
        }
    }

    func validate() throws {
        _ = try makeQuery()
        _ = try loweringWindow()
    }
}
