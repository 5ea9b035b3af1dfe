import ArgumentParser
import Conversion

/// Options of a run whose input or output is a CalDAV URL.
struct CalDAVArguments: ParsableArguments {
    @Option(help: "Retries of a request that failed with 429, 5xx, a timeout or a dropped connection, with exponential backoff honoring Retry-After.")
    var retries = 5

    @Option(help: ArgumentHelp("Seconds before the first retry (doubling each time).", visibility: .hidden))
    var retryDelay = 0.5

    @Option(help: "Seconds one request may take.")
    var timeout = 60.0

    @Option(help: "Push: an item the server holds in another version: newer (SEQUENCE, then LAST-MODIFIED), skip or overwrite.")
    var onConflict: CalDAVOptions.ConflictPolicy = .newer

    @Option(help: "Push: put everything into the calendar of this name (created under the home when missing).")
    var calendar: String?

    @Flag(help: "Push: let a scheduling server mail invitations (by default ORGANIZER and ATTENDEE get SCHEDULE-AGENT=CLIENT).")
    var sendInvitations = false

    @Flag(help: "Push: read back what was pushed and compare item by item; differences are errors.")
    var verify = false

    @Option(help: "Pull: a file keeping sync tokens and ETags, so the next run asks only for changes (--layout vdir).")
    var state: String?

    @Option(help: "Push: the journal that lets a killed run resume (default: beside --state, else under $XDG_STATE_HOME/calport/).")
    var journal: String?

    /// The options as Conversion takes them; `jobs` is `-j` (requests in flight, default 4).
    func options(jobs: Int?) -> CalDAVOptions {
        var o = CalDAVOptions()
        o.retries = retries
        o.retryDelay = retryDelay
        o.timeout = timeout
        o.connections = jobs ?? 4
        o.onConflict = onConflict
        o.calendarName = calendar
        o.sendInvitations = sendInvitations
        o.verify = verify
        o.statePath = state
        o.journalPath = journal
        return o
    }
}

extension CalDAVOptions.ConflictPolicy: ExpressibleByArgument {}
