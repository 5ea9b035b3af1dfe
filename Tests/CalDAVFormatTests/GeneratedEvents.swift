import Foundation

/// A few hundred events to PUT to a real server, varied the way real calendars vary: UTC,
/// zoned (with their VTIMEZONE), floating and all-day times; weekly, monthly and daily rules
/// with COUNT, UNTIL and EXDATE; moved occurrences; attendees with names that need quoting
/// and escaping; titles with commas, semicolons, quotes, accents and line-folding length.
/// Deterministic: the same calendars every run.
enum GeneratedEvents {
    static let berlin = """
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

        """
    static let newYork = """
        BEGIN:VTIMEZONE\r
        TZID:America/New_York\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:-0500\r
        TZOFFSETTO:-0400\r
        TZNAME:EDT\r
        DTSTART:20070311T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
        END:DAYLIGHT\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:-0400\r
        TZOFFSETTO:-0500\r
        TZNAME:EST\r
        DTSTART:20071104T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
        END:STANDARD\r
        END:VTIMEZONE\r

        """

    static let people: [(name: String, email: String)] = [
        ("Zoë Müller", "zoe@example.com"), ("Smith, John", "john.smith@example.org"), ("李小龙", "bruce@example.cn"),
        ("O'Brien; Pat", "pat@example.ie"), ("Ana \"Ani\" López", "ana@example.es"), ("Bob", "bob@example.com"),
    ]
    static let statuses = ["ACCEPTED", "NEEDS-ACTION", "DECLINED", "TENTATIVE"]
    static let roles = ["REQ-PARTICIPANT", "OPT-PARTICIPANT", "CHAIR"]

    /// File name → iCalendar text of one calendar object resource.
    static func make(count: Int) -> [(name: String, ics: String)] {
        (0..<count).map { i in ("event-\(String(format: "%04d", i)).ics", resource(i)) }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Folds a content line at 75 octets without splitting a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var out: [UInt8] = []
        var count = 0
        for scalar in line.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if count + bytes.count > 75 {
                out += Array("\r\n ".utf8)
                count = 1
            }
            out += bytes
            count += bytes.count
        }
        return String(decoding: out, as: UTF8.self) + "\r\n"
    }

    static func resource(_ i: Int) -> String {
        let uid = "calport-\(i)-\(i * 7919 % 10007)@radicale.test"
        let day = 1 + i % 27, month = 1 + i % 12, hour = 7 + i % 11, minute = (i * 15) % 60
        let date = String(format: "2025%02d%02d", month, day)
        let time = String(format: "T%02d%02d00", hour, minute)
        let endTime = String(format: "T%02d%02d00", hour + 1, minute)
        var zones = ""
        var lines: [String] = ["UID:\(uid)", "DTSTAMP:20250101T120000Z", "SEQUENCE:\(i % 3)"]
        var anchor = ""
        switch i % 5 {
        case 0:
            let next = String(format: "2025%02d%02d", month, day + 1)
            lines += ["DTSTART;VALUE=DATE:\(date)", "DTEND;VALUE=DATE:\(next)"]
        case 1:
            lines += ["DTSTART:\(date)\(time)Z", "DTEND:\(date)\(endTime)Z"]
        case 2:
            zones = berlin
            anchor = ";TZID=Europe/Berlin"
            lines += ["DTSTART\(anchor):\(date)\(time)", "DURATION:PT\(30 + i % 4 * 15)M"]
        case 3:
            zones = newYork
            anchor = ";TZID=America/New_York"
            lines += ["DTSTART\(anchor):\(date)\(time)", "DTEND\(anchor):\(date)\(endTime)"]
        default:
            lines += ["DTSTART:\(date)\(time)", "DTEND:\(date)\(endTime)"]
        }
        let titles = [
            "Planning \(i)", "Review, part \(i); agenda", "Café with \"the team\" #\(i)",
            "Quarterly business review and budget planning session for the infrastructure group, number \(i)",
            "Übergabe – Schicht \(i)", "Line one\nline two (\(i))",
        ]
        lines.append("SUMMARY:" + escape(titles[i % titles.count]))
        if i % 7 == 0 { lines.append("LOCATION:" + escape("Room \(i % 9), Building B")) }
        let attendeeCount = i % 4
        if attendeeCount > 0 {
            lines.append("ORGANIZER;CN=\"\(people[0].name)\":mailto:\(people[0].email)")
            for k in 0..<attendeeCount {
                let p = people[(i + k) % people.count]
                let cn =
                    p.name.contains(where: { ",;:\"".contains($0) })
                    ? "\"" + p.name.replacingOccurrences(of: "\"", with: "^'") + "\"" : p.name
                lines.append(
                    "ATTENDEE;CN=\(cn);ROLE=\(roles[(i + k) % roles.count]);PARTSTAT=\(statuses[(i + k) % statuses.count]);RSVP=TRUE:mailto:\(p.email)"
                )
            }
        }
        var overrides: [[String]] = []
        if i % 3 == 0 && i % 5 != 0 {
            switch i % 4 {
            case 0: lines.append("RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO,WE,FR")
            case 1: lines.append("RRULE:FREQ=MONTHLY;BYMONTHDAY=\(day);UNTIL=20261231T235959Z")
            case 2: lines.append("RRULE:FREQ=DAILY;INTERVAL=2;COUNT=5")
            default: lines.append("RRULE:FREQ=YEARLY;BYMONTH=\(month);BYDAY=1MO")
            }
            if i % 2 == 0 {
                let local = i % 5 == 1 ? "\(date)\(time)Z" : "\(date)\(time)"
                lines.append("EXDATE\(anchor):\(local)")
            }
            if i % 9 == 0 {
                // A moved occurrence (RECURRENCE-ID): same UID, same resource.
                let rid = i % 5 == 1 ? "\(date)\(time)Z" : "\(date)\(time)"
                let moved = i % 5 == 1 ? "\(date)\(endTime)Z" : "\(date)\(endTime)"
                overrides.append([
                    "UID:\(uid)", "DTSTAMP:20250101T120000Z", "RECURRENCE-ID\(anchor):\(rid)", "DTSTART\(anchor):\(moved)",
                    "DURATION:PT1H", "SUMMARY:" + escape("Moved: " + titles[i % titles.count]),
                ])
            }
        } else if i % 5 == 0 && i % 3 == 0 {
            lines.append("RRULE:FREQ=YEARLY")
        }
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calport tests//Radicale round trip//EN\r\n" + zones
        text += "BEGIN:VEVENT\r\n" + lines.map(fold).joined() + "END:VEVENT\r\n"
        for o in overrides { text += "BEGIN:VEVENT\r\n" + o.map(fold).joined() + "END:VEVENT\r\n" }
        return text + "END:VCALENDAR\r\n"
    }
}
