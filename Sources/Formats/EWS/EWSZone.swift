import CalendarModel
import TimeZones

/// How one TZID is written to EWS: the rules that turn its wall times into the UTC instants EWS
/// stores, and the zone element (`StartTimeZone`/`EndTimeZone`): a Windows id when CLDR has one
/// (what Exchange itself returns), else a full `TimeZoneDefinition` built from the zone's
/// current rule — never an IANA name, which Exchange does not know.
final class EWSZone {
    /// Exchange's name for the zone, when there is one (`W. Europe Standard Time`, `UTC`).
    let windowsID: String?
    /// The zone's rules (nil for UTC).
    let rules: CompiledZone?
    /// The IANA zone, for messages.
    let zoneID: String

    init(zoneID: String, windowsID: String?, rules: CompiledZone?) {
        self.zoneID = zoneID
        self.windowsID = windowsID
        self.rules = rules
    }

    /// The instant a wall time names in this zone (RFC 5545 §3.3.5 for gaps and repeats).
    func utcSeconds(wall: Int) -> Int {
        rules?.utcSeconds(wallSeconds: wall) ?? wall
    }

    /// The wall time of an instant in this zone.
    func wallSeconds(utc: Int) -> Int {
        utc + (rules?.offset(utcSeconds: utc) ?? 0)
    }

    /// UTC, as Exchange names it.
    static let utc = EWSZone(zoneID: "UTC", windowsID: "UTC", rules: nil)

    /// Writes `<tag Id="…"/>`, or a `TimeZoneDefinition` (MS-OXWSGTZ) with the zone's standard and
    /// daylight periods and the yearly transitions of its current rule when no Windows id fits.
    /// `year` picks the offsets of a zone without a rule (its state at the item's start).
    func write(_ tag: StaticString, to xml: inout EWSXMLEmitter, atUTC instant: Int) {
        if let windowsID {
            xml.empty(tag, attributes: ["Id": windowsID])
            return
        }
        // Outlook and Exchange call a zone of their own making "Customized Time Zone".
        xml.open(tag, attribute: "Id", "Customized Time Zone")
        xml.open("t:Periods")
        let footer = rules?.footer
        if let footer, let dstOffset = footer.daylightOffset, let dstStart = footer.daylightStart, let dstEnd = footer.daylightEnd,
            case .monthWeekDay = dstStart.day, case .monthWeekDay = dstEnd.day
        {
            // The transitions below name periods by Id.
            xml.empty("t:Period", attributes: ["Bias": Self.bias(footer.standardOffset), "Name": "Standard", "Id": "std"])
            xml.empty("t:Period", attributes: ["Bias": Self.bias(dstOffset), "Name": "Daylight", "Id": "dst"])
            xml.close("t:Periods")
            xml.open("t:TransitionsGroups")
            xml.open("t:TransitionsGroup", " Id=\"0\"")
            Self.recurringTransition(to: "dst", dstStart, into: &xml)
            Self.recurringTransition(to: "std", dstEnd, into: &xml)
            xml.close("t:TransitionsGroup")
            xml.close("t:TransitionsGroups")
        } else {
            // No yearly rule EWS can state: the offset in force at the item's start.
            let offset = rules?.offset(utcSeconds: instant) ?? 0
            xml.empty("t:Period", attributes: ["Bias": Self.bias(offset), "Name": "Standard", "Id": "std"])
            xml.close("t:Periods")
            xml.open("t:TransitionsGroups")
            xml.open("t:TransitionsGroup", " Id=\"0\"")
            xml.open("t:Transition")
            xml.element("t:To", attribute: "Kind", "Period", "std")
            xml.close("t:Transition")
            xml.close("t:TransitionsGroup")
            xml.close("t:TransitionsGroups")
        }
        xml.open("t:Transitions")
        xml.open("t:Transition")
        xml.element("t:To", attribute: "Kind", "Group", "0")
        xml.close("t:Transition")
        xml.close("t:Transitions")
        xml.close(tag)
    }

    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    private static func recurringTransition(to period: String, _ rule: PosixTimeZoneRule.DateRule, into xml: inout EWSXMLEmitter) {
        guard case .monthWeekDay(let month, let week, let weekday) = rule.day else { return }
        xml.open("t:RecurringDayTransition")
        xml.element("t:To", attribute: "Kind", "Period", period)
        xml.element("t:TimeOffset", duration(rule.time))
        xml.element("t:Month", integer: month)
        xml.element("t:DayOfWeek", weekdayNames[weekday % 7])
        // POSIX's week 5 is "the last"; EWS says -1.
        xml.element("t:Occurrence", integer: week >= 5 ? -1 : week)
        xml.close("t:RecurringDayTransition")
    }

    /// EWS's bias: what is added to local time to get UTC, as an xs:duration (`-PT1H` for UTC+1).
    static func bias(_ offsetEast: Int) -> String {
        let bias = -offsetEast
        return (bias < 0 ? "-" : "") + duration(abs(bias))
    }

    /// Seconds as an xs:duration (`PT2H30M`, `PT0M`).
    static func duration(_ seconds: Int) -> String {
        var text = seconds < 0 ? "-PT" : "PT"
        let s = abs(seconds)
        if s / 3600 > 0 { text += "\(s / 3600)H" }
        if s / 60 % 60 > 0 || s == 0 { text += "\(s / 60 % 60)M" }
        if s % 60 > 0 { text += "\(s % 60)S" }
        return text
    }
}

/// Resolves TZIDs to `EWSZone`s once each: the writer meets the same one or two zones on nearly
/// every item, so the last one is kept at hand and the rest in a small table.
struct EWSZoneTable {
    /// One resolver for the process: it caches by name, and resolving is the costly part.
    static let resolver = TimeZoneResolver()

    private var zones: [String: EWSZone?] = [:]
    private var last: (tzid: String, zone: EWSZone?)?

    /// The zone a TZID names, or nil when it names none calport knows.
    mutating func zone(_ tzid: String) -> EWSZone? {
        if let last, last.tzid == tzid { return last.zone }
        let zone: EWSZone?
        if let known = zones[tzid] {
            zone = known
        } else {
            zone = Self.resolve(tzid)
            zones[tzid] = zone
        }
        last = (tzid, zone)
        return zone
    }

    private static func resolve(_ tzid: String) -> EWSZone? {
        let resolver = Self.resolver
        guard let id = resolver.resolveName(tzid).zoneID else { return nil }
        if ["UTC", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "GMT", "Etc/GMT"].contains(id) { return .utc }
        guard let rules = resolver.database.zone(id) else { return nil }
        return EWSZone(zoneID: id, windowsID: resolver.windowsID(for: id), rules: rules)
    }
}
