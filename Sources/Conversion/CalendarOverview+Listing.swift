import CalendarModel

extension CalendarOverview {
    /// EventKit's names for calendar types, as its calendar lists show them.
    static func typeName(_ kind: Calendar.Kind) -> String {
        switch kind {
        case .local: "Local"
        case .calDAV: "CalDAV"
        case .exchange: "Exchange"
        case .subscription: "Subscribed"
        case .birthday: "Birthdays"
        }
    }

    /// What `calport inspect` prints for the calendar: its place in the file, title, type,
    /// source, colour, whether it can be modified, where a subscription comes from, counts.
    public func listing(number: Int) -> String {
        var lines = ["\(number). \(title ?? "(untitled)")"]
        lines.append("   type: \(kind.rawValue) (\(Self.typeName(kind)))")
        if let source { lines.append("   source: \(source.title) (\(source.kind.rawValue))") }
        lines.append("   color: \(color ?? "none")")
        lines.append("   allows modifications: \(allowsContentModifications ? "yes" : "no")")
        if kind == .subscription {
            lines.append("   subscribed from: \(subscriptionURL ?? "(no URL given)")")
            lines.append("   refresh: \(refreshInterval.map { "every \(Self.durationText($0))" } ?? "as the client decides")")
        }
        var counts = "   events: \(events)"
        if birthdays > 0 { counts += " (\(birthdays) birthdays)" }
        counts += ", reminders: \(reminders), recurring: \(recurringItems), time zones: \(timeZones), other components: \(otherComponents)"
        lines.append(counts)
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 5545 §3.3.6 text of a duration (`P1W`, `PT1H`), as sources write refresh intervals.
    static func durationText(_ d: CalendarDuration) -> String {
        var text = d.isNegative ? "-P" : "P"
        if d.weeks > 0 { text += "\(d.weeks)W" }
        if d.days > 0 { text += "\(d.days)D" }
        if d.hours > 0 || d.minutes > 0 || d.seconds > 0 {
            text += "T"
            if d.hours > 0 { text += "\(d.hours)H" }
            if d.minutes > 0 { text += "\(d.minutes)M" }
            if d.seconds > 0 { text += "\(d.seconds)S" }
        }
        return text == "P" || text == "-P" ? "PT0S" : text
    }
}
