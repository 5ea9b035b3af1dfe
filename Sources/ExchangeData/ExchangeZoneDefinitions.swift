import CalendarModel
import TimeZones

/// The VTIMEZONEs of the calendar being written, for TZIDs that name no zone by themselves
/// (Outlook's "Fabrikam Pacific (2007 rules)", or the name of an EWS TimeZoneDefinition the EWS
/// reader made a VTIMEZONE of). Exchange knows zones by name, so before an Exchange writer states
/// such a time it is moved onto the known zone the definition agrees with (what calport's
/// time-zone stage does in a conversion run); when none agrees, onto UTC at the instant the
/// definition's own rules give, and when there is no definition, onto UTC as it stands. In both
/// of the last cases the zone is lost (a series no longer follows its DST changes) and the
/// writer reports it.
public struct ExchangeZoneDefinitions {
    /// How the times of one TZID are moved.
    public enum Move: Hashable {
        /// Onto a known zone (an IANA id), wall times unchanged.
        case knownZone(String)
        /// Onto UTC, at the instants the stream's own VTIMEZONE gives.
        case utcByDefinition(VTimeZoneRules)
        /// Onto UTC, wall times read as UTC: no definition says more.
        case utcAsWritten
    }

    private static let resolver = TimeZoneResolver()
    private var definitions: [String: Component] = [:]
    /// How each TZID is moved over the years of the events met so far (a definition agrees with
    /// a known zone over some years and not others, as `TimeZoneNormalizer` judges).
    private var moves: [String: Move] = [:]
    /// TZIDs met that name a zone by themselves (what a name resolves to never changes): every
    /// time of every event is checked, and a file names a handful of zones, so a look through
    /// them (lengths first) spares resolving the name (a lock and a hashed look-up) each time.
    private var namedZones = FirstZoneNames<Void>(capacity: 32)

    /// No definitions yet.
    public init() {}

    /// Remembers a VTIMEZONE of the stream (a later one of the same TZID replaces it).
    public mutating func add(_ definition: Component) {
        guard case .text(let values)? = definition.property("TZID")?.value, let tzid = values.first else { return }
        definitions[tzid] = definition
        moves = moves.filter { !$0.key.hasPrefix(tzid + "|") }
    }

    /// `event` with every time in a zone no name resolves moved as `Move` says; `lost` gets a
    /// message for each TZID whose zone did not survive (moved onto UTC), for the writer to report.
    public mutating func resolving(_ event: Event, lost: inout [String]) -> Event {
        var unknown: [String] = []
        let named = namedZones
        var newlyNamed: [String] = []
        func visit(_ field: DateTimeField, _ value: CalendarDateTime) {
            guard case .zone(let tzid) = value.reference else { return }
            if named.value(tzid) != nil || newlyNamed.contains(tzid) || unknown.contains(tzid) { return }
            if Self.resolver.resolveName(tzid).zoneID == nil {
                unknown.append(tzid)
            } else {
                newlyNamed.append(tzid)
            }
        }
        event.item.forEachDateTime(visit)
        if let end = event.end { visit(.end, end) }
        for tzid in newlyNamed { namedZones.remember(tzid, ()) }
        guard !unknown.isEmpty else { return event }
        let years = TimeZoneNormalizer.years(of: .event(event))
        var chosen: [String: Move] = [:]
        for tzid in unknown {
            let move = self.move(tzid, years: years)
            chosen[tzid] = move
            switch move {
            case .knownZone: break
            case .utcByDefinition:
                lost.append(
                    "TZID \"\(tzid)\" names no zone Exchange knows and its VTIMEZONE agrees with none; times written as the UTC instants it gives"
                )
            case .utcAsWritten:
                lost.append("TZID \"\(tzid)\" names no zone Exchange knows and there is no VTIMEZONE for it; times written as if UTC")
            }
        }
        var result = event
        result.mapDateTimes { _, value in
            guard case .zone(let tzid) = value.reference, let move = chosen[tzid] else { return }
            switch move {
            case .knownZone(let zone): value.reference = .zone(zone)
            case .utcByDefinition(let rules):
                value = value.withWallSeconds(rules.utcSeconds(wallSeconds: value.wallSecondsSinceEpoch))
                value.reference = .utc
            case .utcAsWritten: value.reference = .utc
            }
        }
        return result
    }

    private mutating func move(_ tzid: String, years: ClosedRange<Int>) -> Move {
        let key = "\(tzid)|\(years)"
        if let known = moves[key] { return known }
        let resolution = Self.resolver.resolve(tzid, definition: definitions[tzid], years: years)
        let move: Move =
            if let zone = resolution.zoneID {
                .knownZone(zone)
            } else if let rules = resolution.definitionRules {
                .utcByDefinition(rules)
            } else {
                .utcAsWritten
            }
        moves[key] = move
        return move
    }
}
