import Foundation

/// A generated archive for the live tests: several calendars of events (and a few to-dos)
/// with time zones, attendees, and weekly series whose moved occurrences are written at the
/// end of their file, away from their series (a push must still send them as one resource).
enum LiveArchive {
    static let calendars = ["Work", "Home", "Team Café", "Travel"]

    /// Writes `items` items (distinct UIDs) over the calendars into `folder`, one .ics each;
    /// returns the files.
    @discardableResult
    static func write(items: Int, to folder: URL, sequence: Int = 0) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [URL] = []
        for (c, name) in calendars.enumerated() {
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//live archive//EN\r\nX-WR-CALNAME:\(name)\r\n"
            text += zones
            var overrides = ""
            for i in stride(from: c, to: items, by: calendars.count) {
                let (body, moved) = item(i, calendar: c, sequence: sequence)
                text += body
                overrides += moved
            }
            text += overrides + "END:VCALENDAR\r\n"
            let file = folder.appendingPathComponent("calendar-\(c).ics")
            try Data(text.utf8).write(to: file)
            files.append(file)
        }
        return files
    }

    static func uid(_ i: Int) -> String { "live-\(i)@calport.test" }

    static func item(_ i: Int, calendar: Int, sequence: Int) -> (String, String) {
        let zone = i % 2 == 0 ? "Europe/Berlin" : "America/New_York"
        let day = 1 + (i / 24) % 28, month = 1 + (i / (24 * 28)) % 12, hour = i % 24
        let start = String(format: "2025%02d%02dT%02d0000", month, day, hour)
        let end = String(format: "2025%02d%02dT%02d3000", month, day, hour)
        if i % 25 == 7 {
            let todo = "BEGIN:VTODO\r\nUID:\(uid(i))\r\nDTSTAMP:20250101T000000Z\r\nSUMMARY:Task \(i)\r\nDUE;TZID=\(zone):\(start)\r\n"
                + "SEQUENCE:\(sequence)\r\nLAST-MODIFIED:20250101T000000Z\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\n"
            return (todo, "")
        }
        var event = "BEGIN:VEVENT\r\nUID:\(uid(i))\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;TZID=\(zone):\(start)\r\n"
            + "DTEND;TZID=\(zone):\(end)\r\nSUMMARY:Item \(i) of calendar \(calendar)\r\nSEQUENCE:\(sequence)\r\n"
            + "LAST-MODIFIED:20250101T000000Z\r\nDESCRIPTION:Line one\\nline two\\, with a comma\r\n"
        if i % 3 == 0 {
            event += "ORGANIZER;CN=Olga Organizer:mailto:olga@example.com\r\n"
                + "ATTENDEE;CN=Ana;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:ana@example.com\r\n"
                + "ATTENDEE;CN=Bo;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bo@example.com\r\n"
        }
        var moved = ""
        if i % 10 == 0 {
            event += "RRULE:FREQ=WEEKLY;COUNT=10\r\n"
            for week in [2, 5] {
                let original = Calendar(identifier: .gregorian).date(
                    byAdding: .day, value: 7 * week,
                    to: DateComponents(calendar: Calendar(identifier: .gregorian), year: 2025, month: month, day: day, hour: hour).date!)!
                let parts = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day, .hour], from: original)
                let rid = String(format: "%04d%02d%02dT%02d0000", parts.year!, parts.month!, parts.day!, parts.hour!)
                let movedHour = (parts.hour! + 1) % 24
                let newStart = String(format: "%04d%02d%02dT%02d0000", parts.year!, parts.month!, parts.day!, movedHour)
                let newEnd = String(format: "%04d%02d%02dT%02d3000", parts.year!, parts.month!, parts.day!, movedHour)
                moved += "BEGIN:VEVENT\r\nUID:\(uid(i))\r\nDTSTAMP:20250101T000000Z\r\nRECURRENCE-ID;TZID=\(zone):\(rid)\r\n"
                    + "DTSTART;TZID=\(zone):\(newStart)\r\nDTEND;TZID=\(zone):\(newEnd)\r\nSUMMARY:Item \(i), moved (week \(week))\r\n"
                    + "SEQUENCE:\(sequence)\r\nLAST-MODIFIED:20250101T000000Z\r\nEND:VEVENT\r\n"
            }
        }
        return (event + "END:VEVENT\r\n", moved)
    }

    static let zones = """
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        TZNAME:CEST\r
        DTSTART:19700329T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        END:DAYLIGHT\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        TZNAME:CET\r
        DTSTART:19701025T030000\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VTIMEZONE\r
        TZID:America/New_York\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:-0500\r
        TZOFFSETTO:-0400\r
        TZNAME:EDT\r
        DTSTART:19700308T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
        END:DAYLIGHT\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:-0400\r
        TZOFFSETTO:-0500\r
        TZNAME:EST\r
        DTSTART:19701101T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
        END:STANDARD\r
        END:VTIMEZONE\r

        """
}
