/// The report as one HTML page a person opens after a migration: the run, the totals, each
/// calendar with a timeline of its events per month, what was lost, the warnings, what merging
/// chose and what a push to (or pull from) a CalDAV server did.
///
/// The page stands alone: its style is inline, the timeline is inline SVG, there is no script,
/// font, image or link outside it, so it opens from a file, offline, and prints. Long lists
/// (warnings, conflicts, places) show their count and their first entries, so a 100,000-item
/// archive gives a page of a few hundred kilobytes; the JSON report has the rest.
///
/// Every figure a program may check carries `data-figure="…"` (the totals, each calendar's
/// counts under `data-cal`, losses under `data-loss`, merge figures, each server calendar's
/// push or pull figures under `data-caldav`), and each
/// timeline mark its month and calendar in `data-month`, `data-calendar` and a `<title>`.
public struct HTMLReport {
    /// How many warnings are listed one by one; the rest are counted.
    static let warningsShown = 100
    /// How many files the warnings-by-file table lists.
    static let warningFilesShown = 20
    /// How many calendars the calendar table lists; the rest are summed in one row.
    static let calendarsShown = 200
    /// How many merge conflicts, superseded versions, failed inputs and server items (per
    /// outcome) are listed.
    static let choicesShown = 50
    /// How many places of each loss are listed (the JSON report keeps 20).
    static let lossPlacesShown = 5

    let report: ConversionReport

    /// A page for `report`.
    public init(_ report: ConversionReport) {
        self.report = report
    }

    /// One calendar of one output, numbered in the order of the outputs.
    struct CalendarRow {
        var index: Int
        var output: String
        var counts: ConversionReport.CalendarCounts
        var name: String { counts.title ?? "(untitled calendar)" }
    }

    var calendarRows: [CalendarRow] {
        var rows: [CalendarRow] = []
        for output in report.outputs {
            for counts in output.calendars { rows.append(CalendarRow(index: rows.count, output: output.path, counts: counts)) }
        }
        return rows
    }

    /// The whole page.
    public func render() -> String {
        let rows = calendarRows
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="calport \(HTMLText.escape(report.run?.calportVersion ?? CalPortVersion.current))">
            <title>calport report\(report.run.map { " — " + HTMLText.escape($0.startedAt) } ?? "")</title>
            <style>\(Self.style)</style>
            </head>
            <body>

            """
        html += header()
        html += "<main>\n"
        html += totals()
        html += calendars(rows)
        html += timeline(rows)
        html += losses()
        html += warnings()
        if let merge = report.merge { html += self.merge(merge) }
        if let server = report.calDAV { html += calDAV(server) }
        html += inputs()
        html += "</main>\n<footer><p>Written by calport \(HTMLText.escape(report.run?.calportVersion ?? CalPortVersion.current)). "
        html +=
            "Long lists show their first entries; the JSON report (<code>--report FILE.json</code>) has every warning and conflict.</p></footer>\n"
        html += "</body>\n</html>\n"
        return html
    }

    // MARK: - Sections

    private func header() -> String {
        var html = "<header>\n<h1>calport migration report</h1>\n"
        let failed = report.inputs.filter { $0.status == "failed" }.count
        var status: [String] = []
        status.append(report.dryRun ? "<span class=\"badge warn\">dry run — nothing written</span>" : "")
        if failed > 0 {
            status.append(
                "<span class=\"badge bad\">\(HTMLText.number(failed)) of \(HTMLText.count(report.inputs.count, "input")) failed</span>")
        } else if !report.inputs.isEmpty {
            status.append("<span class=\"badge good\">all \(HTMLText.count(report.inputs.count, "input")) converted</span>")
        }
        if let server = report.calDAV, server.direction == "push" {
            let failed = server.calendars.reduce(0) { $0 + $1.failed }, skipped = server.calendars.reduce(0) { $0 + $1.skipped }
            if failed > 0 { status.append("<span class=\"badge bad\">\(HTMLText.count(failed, "item")) not written to the server</span>") }
            if skipped > 0 { status.append("<span class=\"badge warn\">\(HTMLText.count(skipped, "item")) skipped on the server</span>") }
        }
        let lost = report.losses.reduce(0) { $0 + $1.count }
        status.append(
            lost > 0
                ? "<span class=\"badge warn\">\(HTMLText.count(report.losses.count, "field")) not kept (\(HTMLText.count(lost, "value")))</span>"
                : "<span class=\"badge good\">nothing lost</span>")
        html += "<p class=\"status\">" + status.filter { !$0.isEmpty }.joined(separator: " ") + "</p>\n"
        html += "<dl class=\"run\">\n"
        if let run = report.run {
            html +=
                "<dt>Command</dt><dd><code data-figure=\"run.command\">\(HTMLText.escape(run.commandLine.map(Self.shellWord).joined(separator: " ")))</code></dd>\n"
            html +=
                "<dt>Started</dt><dd><time datetime=\"\(HTMLText.escape(run.startedAt))\">\(HTMLText.escape(run.startedAt.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")))</time></dd>\n"
            html += "<dt>Duration</dt><dd>\(HTMLText.duration(run.durationSeconds))</dd>\n"
            html += "<dt>calport</dt><dd>\(HTMLText.escape(run.calportVersion))</dd>\n"
        }
        html += "<dt>Output format</dt><dd><code>\(HTMLText.escape(report.outputFormat))</code></dd>\n"
        let paths = report.outputs.map(\.path)
        if !paths.isEmpty {
            let shown = paths.prefix(5).map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")
            html += "<dt>Written to</dt><dd>\(shown)\(paths.count > 5 ? " and \(HTMLText.number(paths.count - 5)) more" : "")</dd>\n"
        }
        html += "</dl>\n</header>\n"
        return html
    }

    private func totals() -> String {
        let t = report.totals
        let warnings = report.warnings.filter { $0.severity == "warning" }.count
        let errors = report.warnings.count - warnings
        let cards: [(String, String, Int)] = [
            ("calendars", "Calendars", t.calendars), ("events", "Events", t.events), ("reminders", "Reminders", t.reminders),
            ("timeZones", "Time zones", t.timeZones), ("occurrences", "Occurrences", t.occurrences),
            ("otherComponents", "Other components", t.otherComponents), ("warnings", "Warnings", warnings), ("errors", "Errors", errors),
            ("losses", "Values not kept", report.losses.reduce(0) { $0 + $1.count }),
        ]
        var html = "<section id=\"totals\" aria-labelledby=\"totals-h\">\n<h2 id=\"totals-h\">Totals</h2>\n<dl class=\"cards\">\n"
        for (key, label, value) in cards {
            html += "<div><dt>\(label)</dt><dd data-figure=\"totals.\(key)\">\(HTMLText.number(value))</dd></div>\n"
        }
        html += "</dl>\n"
        html +=
            "<p class=\"note\">Occurrences are items that are one occurrence of a series (they carry a RECURRENCE-ID). Other components are kept as they were (VJOURNAL, VFREEBUSY, …).</p>\n"
        html += "</section>\n"
        return html
    }

    private func calendars(_ rows: [CalendarRow]) -> String {
        var html = "<section id=\"calendars\" aria-labelledby=\"calendars-h\">\n<h2 id=\"calendars-h\">Calendars</h2>\n"
        guard !rows.isEmpty else { return html + "<p>No calendar was written.</p>\n</section>\n" }
        let severalOutputs = report.outputs.count > 1
        html +=
            "<table class=\"numbers\">\n<caption>\(HTMLText.count(rows.count, "calendar")) written\(severalOutputs ? " to \(HTMLText.count(report.outputs.count, "output"))" : "")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">Calendar</th><th scope=\"col\">Type</th>\(severalOutputs ? "<th scope=\"col\">Output</th>" : "")"
        html +=
            "<th scope=\"col\">Events</th><th scope=\"col\">Reminders</th><th scope=\"col\">Time zones</th><th scope=\"col\">Occurrences</th><th scope=\"col\">Other</th><th scope=\"col\">Months with events</th></tr></thead>\n<tbody>\n"
        for row in rows.prefix(Self.calendarsShown) {
            let c = row.counts
            let months = c.eventsByMonth.months
            let span =
                months.first.map { first in
                    let last = months[months.count - 1]
                    return
                        "\(MonthlyCounts.label(year: first.year, month: first.month)) – \(MonthlyCounts.label(year: last.year, month: last.month)) (\(HTMLText.number(months.count)))"
                } ?? "—"
            html +=
                "<tr data-cal=\"\(row.index)\"><th scope=\"row\" data-figure=\"title\">\(HTMLText.escape(row.name))</th><td>\(typeBadges(c))</td>"
            if severalOutputs { html += "<td><code>\(HTMLText.escape(row.output))</code></td>" }
            html +=
                "<td data-figure=\"events\">\(HTMLText.number(c.events))</td><td data-figure=\"reminders\">\(HTMLText.number(c.reminders))</td>"
            html +=
                "<td data-figure=\"timeZones\">\(HTMLText.number(c.timeZones))</td><td data-figure=\"occurrences\">\(HTMLText.number(c.occurrences))</td>"
            html += "<td data-figure=\"otherComponents\">\(HTMLText.number(c.otherComponents))</td><td class=\"text\">\(span)</td></tr>\n"
        }
        html += "</tbody>\n"
        if rows.count > Self.calendarsShown {
            let rest = rows.dropFirst(Self.calendarsShown).map(\.counts)
            func sum(_ key: KeyPath<ConversionReport.CalendarCounts, Int>) -> String {
                HTMLText.number(rest.reduce(0) { $0 + $1[keyPath: key] })
            }
            html +=
                "<tfoot><tr><th scope=\"row\" colspan=\"\(severalOutputs ? 3 : 2)\">\(HTMLText.count(rest.count, "more calendar")) (together)</th>"
            html +=
                "<td>\(sum(\.events))</td><td>\(sum(\.reminders))</td><td>\(sum(\.timeZones))</td><td>\(sum(\.occurrences))</td><td>\(sum(\.otherComponents))</td><td></td></tr></tfoot>\n"
        }
        html += "</table>\n</section>\n"
        return html
    }

    /// The calendar's type in words (colour only repeats them).
    private func typeBadges(_ c: ConversionReport.CalendarCounts) -> String {
        let words: [String: String] = [
            "local": "local", "calDAV": "CalDAV", "exchange": "Exchange", "subscription": "subscription", "birthday": "birthday",
        ]
        var html =
            "<span class=\"badge kind-\(HTMLText.escape(c.kind))\" data-figure=\"kind\">\(HTMLText.escape(words[c.kind] ?? c.kind))</span>"
        if c.readOnly { html += " <span class=\"badge ro\" data-figure=\"readOnly\">read-only</span>" }
        return html
    }

    private func losses() -> String {
        var html = "<section id=\"losses\" aria-labelledby=\"losses-h\">\n<h2 id=\"losses-h\">Losses</h2>\n"
        guard !report.losses.isEmpty else {
            return html + "<p data-figure=\"losses.none\">The target format held every field: nothing was lost.</p>\n</section>\n"
        }
        html +=
            "<p>The target format (<code>\(HTMLText.escape(report.outputFormat))</code>) could not hold these fields; each row counts the values dropped and names the first places.</p>\n"
        html += "<table>\n<caption>\(HTMLText.count(report.losses.count, "field")) not kept</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">Field</th><th scope=\"col\" class=\"num\">Dropped</th><th scope=\"col\">First places</th><th scope=\"col\">What happened (first)</th></tr></thead>\n<tbody>\n"
        for loss in report.losses.sorted(by: { ($1.count, $0.field) < ($0.count, $1.field) }) {
            let places = loss.places.prefix(Self.lossPlacesShown).map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")
            let more = loss.count - min(loss.count, Self.lossPlacesShown)
            html += "<tr data-loss=\"\(HTMLText.escape(loss.field))\"><th scope=\"row\"><code>\(HTMLText.escape(loss.field))</code></th>"
            html += "<td class=\"num\" data-figure=\"count\">\(HTMLText.number(loss.count))</td>"
            html += "<td>\(places)\(more > 0 ? " <span class=\"more\">and \(HTMLText.number(more)) more</span>" : "")</td>"
            html += "<td>\(HTMLText.escape(loss.message))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</section>\n"
        return html
    }

    private func warnings() -> String {
        var html = "<section id=\"warnings\" aria-labelledby=\"warnings-h\">\n<h2 id=\"warnings-h\">Warnings</h2>\n"
        let all = report.warnings
        guard !all.isEmpty else { return html + "<p data-figure=\"warnings.none\">No warning.</p>\n</section>\n" }
        // Per file: how many, and where the first was; in order of first appearance, busiest first.
        var byFile: [String: (warnings: Int, errors: Int, first: Int, firstPlace: String)] = [:]
        for (i, w) in all.enumerated() {
            var entry = byFile[w.file] ?? (0, 0, i, Self.place(w))
            if w.severity == "warning" { entry.warnings += 1 } else { entry.errors += 1 }
            byFile[w.file] = entry
        }
        let files = byFile.sorted {
            ($1.value.warnings + $1.value.errors, $0.value.first) < ($0.value.warnings + $0.value.errors, $1.value.first)
        }
        html += "<p>\(HTMLText.count(all.count, "message")) in \(HTMLText.count(files.count, "file")).</p>\n"
        html +=
            "<table>\n<caption>By file\(files.count > Self.warningFilesShown ? " (the \(Self.warningFilesShown) with most)" : "")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">File</th><th scope=\"col\" class=\"num\">Warnings</th><th scope=\"col\" class=\"num\">Errors</th><th scope=\"col\">First at</th></tr></thead>\n<tbody>\n"
        for (file, entry) in files.prefix(Self.warningFilesShown) {
            html += "<tr><th scope=\"row\">\(Self.fileCell(file))</th><td class=\"num\">\(HTMLText.number(entry.warnings))</td>"
            html += "<td class=\"num\">\(HTMLText.number(entry.errors))</td><td>\(Self.fileCell(entry.firstPlace))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        let shown = all.prefix(Self.warningsShown)
        html +=
            "<table class=\"messages\">\n<caption>\(all.count > shown.count ? "The first \(HTMLText.number(shown.count)) of \(HTMLText.count(all.count, "message"))" : "Every message")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">Place</th><th scope=\"col\">Severity</th><th scope=\"col\">Message</th></tr></thead>\n<tbody>\n"
        for w in shown {
            html +=
                "<tr><td>\(Self.fileCell(Self.place(w)))</td><td><span class=\"badge \(w.severity == "warning" ? "warn" : "bad")\">\(HTMLText.escape(w.severity))</span></td>"
            html += "<td>\(HTMLText.escape(w.message))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</section>\n"
        return html
    }

    /// A file or place in a cell. A message about the whole batch names every input joined by
    /// commas; that list is shortened to its first name and a count, the rest in a tooltip.
    static func fileCell(_ place: String) -> String {
        let parts = place.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count > 2 else { return "<code>\(HTMLText.escape(place))</code>" }
        return
            "<code title=\"\(HTMLText.escape(place))\">\(HTMLText.escape(String(parts[0])))</code> <span class=\"more\">and \(HTMLText.number(parts.count - 1)) more inputs</span>"
    }

    /// `file:line`, `file (location)` or `file`.
    static func place(_ m: ConversionReport.Message) -> String {
        if let line = m.line { return "\(m.file):\(line)" }
        if let location = m.location { return "\(m.file) (\(location))" }
        return m.file
    }

    private func merge(_ merge: ConversionReport.Merge) -> String {
        var html = "<section id=\"merge\" aria-labelledby=\"merge-h\">\n<h2 id=\"merge-h\">Merge decisions</h2>\n"
        html +=
            "<p>Items with the same UID (and RECURRENCE-ID) in several inputs: the newest version by SEQUENCE, then LAST-MODIFIED, was written.</p>\n"
        let figures: [(String, String, Int)] = [
            ("versionsRead", "Versions read", merge.versionsRead), ("distinctItems", "Items written", merge.distinctItems),
            ("superseded", "Older versions dropped", merge.superseded),
            ("identicalCopies", "Identical copies dropped", merge.identicalCopies),
            ("conflicts", "Conflicts (equally new, different)", merge.conflicts.count),
        ]
        html += "<dl class=\"cards\">\n"
        for (key, label, value) in figures {
            html += "<div><dt>\(label)</dt><dd data-figure=\"merge.\(key)\">\(HTMLText.number(value))</dd></div>\n"
        }
        html += "</dl>\n"
        html += choices(merge.conflicts, caption: "Conflicts: the later input won", id: "conflicts", total: merge.conflicts.count)
        html += choices(merge.supersededExamples, caption: "Older versions dropped", id: "superseded", total: merge.superseded)
        html += "</section>\n"
        return html
    }

    private func choices(_ list: [ConversionReport.Choice], caption: String, id: String, total: Int) -> String {
        guard !list.isEmpty else { return "" }
        let shown = list.prefix(Self.choicesShown)
        var html =
            "<table id=\"\(id)\" class=\"choices\">\n<caption>\(caption)\(total > shown.count ? " — the first \(HTMLText.number(shown.count)) of \(HTMLText.number(total))" : "")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">UID</th><th scope=\"col\">Kept</th><th scope=\"col\">Dropped</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
        for c in shown {
            let rid = c.recurrenceID.map { "<br><span class=\"more\">RECURRENCE-ID \(HTMLText.escape($0))</span>" } ?? ""
            html +=
                "<tr><th scope=\"row\"><code>\(HTMLText.escape(c.uid))</code>\(rid)</th><td><code>\(HTMLText.escape(c.kept))</code></td>"
            html += "<td><code>\(HTMLText.escape(c.dropped))</code></td><td>\(HTMLText.escape(c.reason))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    /// A push's or pull's outcome per server calendar, the requests it took, and the first
    /// items of each outcome with their places.
    private func calDAV(_ server: ConversionReport.Server) -> String {
        let pull = server.direction == "pull"
        var html = "<section id=\"caldav\" aria-labelledby=\"caldav-h\">\n"
        html += "<h2 id=\"caldav-h\">\(pull ? "Pull from the CalDAV server" : "Push to the CalDAV server")</h2>\n"
        let servers = server.servers.map { "<code>\(HTMLText.escape(SecretRedaction.text($0)))</code>" }.joined(separator: ", ")
        html += "<p>\(server.servers.count > 1 ? "Servers" : "Server"): <span data-figure=\"calDAV.server\">\(servers)</span></p>\n"
        if report.dryRun { html += "<p class=\"note\">A dry run: the figures say what would have been done; nothing was written.</p>\n" }
        let keys: [(String, String, KeyPath<ConversionReport.ServerCalendar, Int>)] =
            pull
            ? [("pulled", "Pulled", \.pulled), ("deleted", "Deleted", \.deleted)]
            : [
                ("created", "Created", \.created), ("updated", "Updated", \.updated), ("unchanged", "Unchanged", \.unchanged),
                ("skipped", "Skipped", \.skipped), ("serverWon", "Conflicts: server won", \.serverWon),
                ("localWon", "Conflicts: local won", \.localWon), ("failed", "Failed", \.failed),
            ]
        html +=
            "<table class=\"numbers\">\n<caption>Per calendar</caption>\n<thead><tr><th scope=\"col\">Calendar</th><th scope=\"col\">Collection</th>"
        for (_, label, _) in keys { html += "<th scope=\"col\">\(label)</th>" }
        html += pull ? "<th scope=\"col\">Sync method</th></tr></thead>\n<tbody>\n" : "</tr></thead>\n<tbody>\n"
        for (i, c) in server.calendars.enumerated() {
            html +=
                "<tr data-caldav=\"\(i)\"><th scope=\"row\" data-figure=\"title\">\(HTMLText.escape(c.title ?? "(untitled calendar)"))</th>"
            html += "<td class=\"text\"><code>\(HTMLText.escape(SecretRedaction.text(c.url)))</code></td>"
            for (key, _, path) in keys {
                let value = c[keyPath: path]
                let flag = value > 0 && (key == "failed" || key == "skipped") ? " class=\"\(key == "failed" ? "bad" : "warn")\"" : ""
                html += "<td data-figure=\"\(key)\"\(flag)>\(HTMLText.number(value))</td>"
            }
            if pull { html += "<td class=\"text\" data-figure=\"syncMethod\">\(HTMLText.escape(c.syncMethod ?? "—"))</td>" }
            html += "</tr>\n"
        }
        html += "</tbody>\n<tfoot><tr><th scope=\"row\" colspan=\"2\">All calendars</th>"
        for (key, _, path) in keys {
            html += "<td data-figure=\"calDAV.\(key)\">\(HTMLText.number(server.calendars.reduce(0) { $0 + $1[keyPath: path] }))</td>"
        }
        html += pull ? "<td></td></tr></tfoot>\n</table>\n" : "</tr></tfoot>\n</table>\n"
        if !pull {
            html +=
                "<p class=\"note\">A conflict is an item the server holds in another version: <code>--on-conflict</code> decided it (newer, skip or overwrite). The server's version winning leaves the item skipped, the local one winning updates it.</p>\n"
        }
        let requests = server.requests.sorted { $0.key < $1.key }.map { "\(HTMLText.escape($0.key)) \(HTMLText.number($0.value))" }
        if !requests.isEmpty {
            html +=
                "<p>HTTP requests: \(requests.joined(separator: ", ")); <span data-figure=\"calDAV.retries\">\(HTMLText.number(server.retries))</span> retried.</p>\n"
        }
        // The first items of each outcome, most needing attention first.
        let order = ["failed", "skipped", "updated", "would-update", "created", "would-create", "deleted", "pulled"]
        let titles = [
            "failed": "Failed", "skipped": "Skipped", "updated": "Updated", "would-update": "Would be updated", "created": "Created",
            "would-create": "Would be created", "deleted": "Deleted (removed on the server)", "pulled": "Pulled",
        ]
        let totals: [String: KeyPath<ConversionReport.ServerCalendar, Int>] = [
            "failed": \.failed, "skipped": \.skipped, "updated": \.updated, "would-update": \.updated, "created": \.created,
            "would-create": \.created, "deleted": \.deleted, "pulled": \.pulled,
        ]
        for outcome in order {
            let items = server.calendars.flatMap { c in c.examples.filter { $0.outcome == outcome }.map { (c.title, $0) } }
            guard !items.isEmpty else { continue }
            let total = totals[outcome].map { path in server.calendars.reduce(0) { $0 + $1[keyPath: path] } } ?? items.count
            html += serverItems(items, caption: titles[outcome] ?? outcome, id: "caldav-\(outcome)", total: total)
        }
        html += "</section>\n"
        return html
    }

    private func serverItems(_ items: [(String?, ConversionReport.ServerItem)], caption: String, id: String, total: Int) -> String {
        let shown = items.prefix(Self.choicesShown)
        var html =
            "<table id=\"\(id)\" class=\"choices\">\n<caption>\(caption)\(total > shown.count ? " — the first \(HTMLText.number(shown.count)) of \(HTMLText.number(total))" : "")</caption>\n"
        html +=
            "<thead><tr><th scope=\"col\">UID</th><th scope=\"col\">Calendar</th><th scope=\"col\">Place</th><th scope=\"col\">Resource</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
        for (title, item) in shown {
            let winner =
                item.winner.map {
                    " <span class=\"badge \($0 == "server" ? "warn" : "good")\" data-winner=\"\(HTMLText.escape($0))\">\(HTMLText.escape($0)) won</span>"
                }
                ?? ""
            html +=
                "<tr><th scope=\"row\"><code>\(HTMLText.escape(item.uid))</code>\(winner)</th><td>\(HTMLText.escape(title ?? "(untitled calendar)"))</td>"
            html += "<td><code>\(HTMLText.escape(item.place ?? ""))</code></td><td><code>\(HTMLText.escape(item.href ?? ""))</code></td>"
            html += "<td>\(HTMLText.escape(item.reason))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    private func inputs() -> String {
        var html = "<section id=\"inputs\" aria-labelledby=\"inputs-h\">\n<h2 id=\"inputs-h\">Inputs</h2>\n"
        let failed = report.inputs.filter { $0.status == "failed" }
        html += "<p><span data-figure=\"inputs.converted\">\(HTMLText.number(report.inputs.count - failed.count))</span> converted, "
        html += "<span data-figure=\"inputs.failed\">\(HTMLText.number(failed.count))</span> failed"
        html +=
            report.skippedFiles.isEmpty
            ? ".</p>\n" : ", \(HTMLText.count(report.skippedFiles.count, "file")) skipped (no calendar format claims them).</p>\n"
        if !failed.isEmpty {
            html +=
                "<table>\n<caption>Failed inputs\(failed.count > Self.choicesShown ? " — the first \(Self.choicesShown)" : "")</caption>\n"
            html += "<thead><tr><th scope=\"col\">Input</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
            for input in failed.prefix(Self.choicesShown) {
                html +=
                    "<tr><th scope=\"row\"><code>\(HTMLText.escape(input.file))</code></th><td>\(HTMLText.escape(input.error ?? ""))</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        if report.inputs.count - failed.count > 0 {
            let converted = report.inputs.filter { $0.status != "failed" }.map(\.file)
            let shown = converted.prefix(20).map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")
            html +=
                "<p class=\"list\">Converted: \(shown)\(converted.count > 20 ? " and \(HTMLText.number(converted.count - 20)) more" : "").</p>\n"
        }
        if !report.skippedFiles.isEmpty {
            let shown = report.skippedFiles.prefix(20).map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")
            html +=
                "<p class=\"list\">Skipped: \(shown)\(report.skippedFiles.count > 20 ? " and \(HTMLText.number(report.skippedFiles.count - 20)) more" : "").</p>\n"
        }
        html += "</section>\n"
        return html
    }

    /// A command-line word quoted for a POSIX shell when it needs quoting.
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { c in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || "-_./:=@,+%".unicodeScalars.contains(c)
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
