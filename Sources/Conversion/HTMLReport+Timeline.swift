extension HTMLReport {
    /// At most this many calendars get a row of their own; the others share one.
    static let timelineRowsShown = 40
    /// At most about this many marks are drawn (a mark is one month of one calendar, ~150
    /// bytes): the largest calendars get rows until the budget is spent, the rest share a row.
    static let timelineMarkBudget = 6000

    /// One row of the timeline: a calendar, or the calendars that did not get a row.
    struct TimelineRow {
        /// The `data-cal` value: the calendar's number in the calendar table, or "other".
        var key: String
        var name: String
        var events: Int
        var months: MonthlyCounts
    }

    /// The rows: the largest calendars (by events) while the row and mark budgets last, in
    /// table order, then one row for the rest.
    func timelineRows(_ rows: [CalendarRow]) -> [TimelineRow] {
        var chosen: Set<Int> = []
        var marks = 0
        for row in rows.sorted(by: { ($1.counts.events, $0.index) < ($0.counts.events, $1.index) }) {
            let cost = row.counts.eventsByMonth.count
            guard chosen.count < Self.timelineRowsShown, chosen.isEmpty || marks + cost <= Self.timelineMarkBudget else { break }
            chosen.insert(row.index)
            marks += cost
        }
        var result = rows.filter { chosen.contains($0.index) }.map {
            TimelineRow(key: String($0.index), name: $0.name, events: $0.counts.events, months: $0.counts.eventsByMonth)
        }
        let rest = rows.filter { !chosen.contains($0.index) }
        if !rest.isEmpty {
            var months = MonthlyCounts()
            for row in rest { months.add(row.counts.eventsByMonth) }
            result.append(
                TimelineRow(
                    key: "other", name: "\(HTMLText.count(rest.count, "other calendar")) together",
                    events: rest.reduce(0) { $0 + $1.counts.events }, months: months))
        }
        return result
    }

    func timeline(_ calendarRows: [CalendarRow]) -> String {
        var html = "<section id=\"timeline\" aria-labelledby=\"timeline-h\">\n<h2 id=\"timeline-h\">Timeline</h2>\n"
        let rows = timelineRows(calendarRows)
        let keys = rows.flatMap { $0.months.months.map { $0.year * 12 + $0.month - 1 } }
        guard let low = keys.min(), let high = keys.max() else {
            return html + "<p>No event to place on a timeline.</p>\n</section>\n"
        }
        // Whole years, so the axis starts and ends on a year's boundary.
        let firstYear = Self.floorDiv(low, 12), lastYear = Self.floorDiv(high, 12)
        let start = firstYear * 12, span = (lastYear - firstYear + 1) * 12
        let width = 1000.0, labelWidth = 210.0, plotX = labelWidth + 8, plotWidth = width - plotX - 12
        let monthWidth = plotWidth / Double(span)
        // Over a few years there is room to name each month under its bars.
        let namesMonths = monthWidth >= 24
        let rowHeight = 28.0, top = 6.0, axis = namesMonths ? 38.0 : 24.0
        let height = top + Double(rows.count) * rowHeight + axis
        let firstLabel = MonthlyCounts.label(year: firstYear, month: 1), lastLabel = MonthlyCounts.label(year: lastYear, month: 12)

        html +=
            "<p>Events per month by their start date, one row per calendar; a bar's height is its month's share of the calendar's busiest month. An empty stretch is a time without events.</p>\n"
        html +=
            "<figure>\n<svg class=\"timeline\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" role=\"group\" aria-labelledby=\"tl-title\" aria-describedby=\"tl-desc timeline-text\" xmlns=\"http://www.w3.org/2000/svg\">\n"
        html += "<title id=\"tl-title\">Events per month and calendar, \(firstLabel) to \(lastLabel)</title>\n"
        html +=
            "<desc id=\"tl-desc\">\(HTMLText.count(rows.count, "row")), one per calendar; each bar is one month with events and says its calendar, month and count. The list after the chart says the same in words.</desc>\n"

        // The year grid and its labels: at most about a dozen labels, on round years.
        let years = lastYear - firstYear + 1
        let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].first { years / $0 <= 12 } ?? max(1, years / 12)
        html += "<g class=\"axis\" aria-hidden=\"true\">\n"
        for year in firstYear...lastYear where Self.floorMod(year, step) == 0 || year == firstYear {
            let x = plotX + Double((year - firstYear) * 12) * monthWidth
            html += "<line x1=\"\(Self.n(x))\" x2=\"\(Self.n(x))\" y1=\"\(Self.n(top))\" y2=\"\(Self.n(height - axis + 4))\"/>"
            // A first year off the step's grid gets its line but no label (it would touch the next).
            guard step == 1 || Self.floorMod(year, step) == 0 else { continue }
            let labelX = step == 1 ? x + 6 * monthWidth : x
            html +=
                "<text x=\"\(Self.n(labelX))\" y=\"\(Self.n(height - 6))\" text-anchor=\"\(step == 1 ? "middle" : "start")\">\(year)</text>\n"
        }
        if namesMonths {
            let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            for k in 0..<span {
                let x = plotX + (Double(k) + 0.5) * monthWidth
                html +=
                    "<text class=\"month\" x=\"\(Self.n(x))\" y=\"\(Self.n(height - axis + 16))\" text-anchor=\"middle\">\(names[k % 12])</text>"
            }
            html += "\n"
        }
        html += "</g>\n"

        for (r, row) in rows.enumerated() {
            let rowTop = top + Double(r) * rowHeight
            let base = rowTop + rowHeight - 4
            let months = row.months.months
            let peak = months.map(\.count).max() ?? 0
            let label = row.name.count > 26 ? String(row.name.prefix(25)) + "…" : row.name
            html +=
                "<g class=\"row\" data-cal=\"\(row.key)\" data-calendar=\"\(HTMLText.escape(row.name))\" role=\"group\" aria-label=\"\(HTMLText.escape(row.name)): \(HTMLText.count(row.events, "event"))\">\n"
            html +=
                "<rect class=\"band\" x=\"0\" y=\"\(Self.n(rowTop))\" width=\"\(Self.n(width))\" height=\"\(Self.n(rowHeight))\" aria-hidden=\"true\"/>"
            html +=
                "<text class=\"label\" x=\"\(Self.n(labelWidth))\" y=\"\(Self.n(rowTop + rowHeight / 2 + 4))\" text-anchor=\"end\" aria-hidden=\"true\">\(HTMLText.escape(label)) <tspan class=\"count\">\(HTMLText.number(row.events))</tspan></text>"
            html +=
                "<line class=\"base\" x1=\"\(Self.n(plotX))\" x2=\"\(Self.n(plotX + plotWidth))\" y1=\"\(Self.n(base))\" y2=\"\(Self.n(base))\" aria-hidden=\"true\"/>\n"
            let gap = monthWidth > 3 ? 1.0 : 0
            for m in months {
                let x = plotX + Double(m.year * 12 + m.month - 1 - start) * monthWidth
                let h = max(2, (rowHeight - 8) * Double(m.count) / Double(max(peak, 1)))
                let month = MonthlyCounts.label(year: m.year, month: m.month)
                html +=
                    "<rect class=\"m\" x=\"\(Self.n(x))\" y=\"\(Self.n(base - h))\" width=\"\(Self.n(max(monthWidth - gap, 0.6)))\" height=\"\(Self.n(h))\" role=\"img\" data-month=\"\(month)\" data-count=\"\(m.count)\">"
                html += "<title>\(HTMLText.escape(row.name)), \(month): \(HTMLText.count(m.count, "event"))</title></rect>\n"
            }
            html += "</g>\n"
        }
        html +=
            "</svg>\n<figcaption>Events per month, \(firstLabel) to \(lastLabel); each row is labelled with its calendar and its number of events.</figcaption>\n</figure>\n"
        html += timelineText(rows)
        html += "</section>\n"
        return html
    }

    /// The chart in words: per row, the span, the busiest month and the stretches without events.
    private func timelineText(_ rows: [TimelineRow]) -> String {
        var html = "<ul id=\"timeline-text\" class=\"timeline-text\">\n"
        for row in rows {
            let months = row.months.months
            html += "<li><strong>\(HTMLText.escape(row.name))</strong>: "
            guard let first = months.first, let last = months.last, let busiest = months.max(by: { $0.count < $1.count }) else {
                html += "no events.</li>\n"
                continue
            }
            let firstKey = first.year * 12 + first.month - 1, lastKey = last.year * 12 + last.month - 1
            html +=
                "\(HTMLText.count(row.events, "event")) from \(MonthlyCounts.label(year: first.year, month: first.month)) to \(MonthlyCounts.label(year: last.year, month: last.month)), "
            html +=
                "in \(HTMLText.number(months.count)) of \(HTMLText.count(lastKey - firstKey + 1, "month")); busiest \(MonthlyCounts.label(year: busiest.year, month: busiest.month)) (\(HTMLText.number(busiest.count)))"
            // Stretches of empty months between months with events, longest first.
            var gaps: [(from: Int, to: Int)] = []
            var previous = firstKey
            for m in months.dropFirst() {
                let key = m.year * 12 + m.month - 1
                if key > previous + 1 { gaps.append((previous + 1, key - 1)) }
                previous = key
            }
            if !gaps.isEmpty {
                let longest = gaps.sorted { ($1.to - $1.from, $0.from) < ($0.to - $0.from, $1.from) }.prefix(5).sorted { $0.from < $1.from }
                let words = longest.map { gap -> String in
                    let from = Self.monthLabel(gap.from), to = Self.monthLabel(gap.to)
                    return gap.from == gap.to ? from : "\(from) to \(to) (\(gap.to - gap.from + 1) months)"
                }
                html +=
                    "; no events in \(words.joined(separator: ", "))\(gaps.count > longest.count ? " and \(HTMLText.count(gaps.count - longest.count, "shorter gap"))" : "")"
            }
            html += ".</li>\n"
        }
        html += "</ul>\n"
        return html
    }

    static func monthLabel(_ key: Int) -> String {
        let year = floorDiv(key, 12)
        return MonthlyCounts.label(year: year, month: key - year * 12 + 1)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorMod(_ a: Int, _ b: Int) -> Int { a - floorDiv(a, b) * b }

    /// A coordinate with at most one decimal (the page stays small at thousands of marks).
    static func n(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(Double(tenths) / 10)
    }
}
