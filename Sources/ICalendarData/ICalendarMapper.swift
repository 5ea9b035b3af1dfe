import CalendarModel

/// Maps between the generic iCalendar component tree (what ICS, jCal and xCal parse into) and
/// the typed model. Reading puts each property into its typed field when the field is free and
/// the value has the expected type; everything else stays a generic property, so nothing is
/// lost. Writing emits typed fields in a stable order, then the generic properties in their
/// original order.
public struct ICalendarMapper: Sendable {
    /// The participant words in use (ICS, jCal and xCal share RFC 5545's).
    public var vocabulary: ParticipantVocabulary

    public init(vocabulary: ParticipantVocabulary = ICalendarVocabulary.vocabulary(formatID: "ics")) {
        self.vocabulary = vocabulary
    }

    /// The typed entry for a top-level component of a VCALENDAR.
    public func entry(from component: Component) -> CalendarEntry {
        if let entry = item(from: component) { return entry }
        switch component.name {
        case "VTIMEZONE": return .timeZone(component)
        default: return .other(component)
        }
    }

    /// The component for a typed entry.
    public func component(from entry: CalendarEntry) -> Component {
        component(from: entry, leavingOut: [])
    }

    /// The tree of an event or reminder without the fields `leftOut` names: what
    /// `component(from:)` gives for a copy of the entry with those fields unset, without the
    /// copy (a comparison of two events leaves out the fields it found equal).
    public func component(from entry: CalendarEntry, leavingOut leftOut: EmittedFields) -> Component {
        switch entry {
        case .timeZone(let c), .other(let c): return c
        case .event, .reminder:
            var builder = ComponentBuilder(leavingOut: leftOut)
            emit(entry, to: &builder)
            return builder.finished ?? Component(name: "")
        }
    }
}
