import CalendarModel

/// Receives the iCalendar form of a typed entry piece by piece, in output order, from
/// `ICalendarMapper.emit(_:to:)`. The mapper's `component(from:)` builds the generic tree from
/// it (for jCal and xCal); the ICS writer writes bytes from it directly, so the order of the
/// typed properties is stated once, in `emit`, for every format.
public protocol ICalendarEmitter {
    /// Opens a component (`BEGIN:name`).
    mutating func begin(_ name: String)
    /// Closes the component opened last.
    mutating func end(_ name: String)
    /// A property made from a typed field, with the parameters recorded for it.
    mutating func property(_ name: TypedName, _ parameters: [Parameter], _ value: TypedValue)
    /// ATTENDEE or ORGANIZER; its parameters come from `forEachParameter(of:words:_:)`.
    mutating func participant(_ name: TypedName, _ participant: Participant, words: ParticipantWords)
    /// A property kept as it was read, or a rare typed one built whole.
    mutating func property(_ property: Property)
    /// A component kept as it was read.
    mutating func component(_ component: Component)
    /// Typed fields of the entry itself (not of its alarms) that `emit` leaves out, as if unset.
    var leftOut: EmittedFields { get }
}

extension ICalendarEmitter {
    /// Every field is emitted: a constant, so a writer's specialized walk checks nothing.
    @inlinable public var leftOut: EmittedFields { [] }
}

/// Fields of an event or reminder that `ICalendarMapper.emit` can leave out, so that a tree
/// without some fields is built without first copying the entry and clearing them.
public struct EmittedFields: OptionSet, Sendable {
    public let rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let uid = Self(rawValue: 1 << 0), timestamp = Self(rawValue: 1 << 1), start = Self(rawValue: 1 << 2)
    public static let end = Self(rawValue: 1 << 3), duration = Self(rawValue: 1 << 4), transparency = Self(rawValue: 1 << 5)
    public static let recurrenceID = Self(rawValue: 1 << 6), recurrenceRules = Self(rawValue: 1 << 7)
    public static let recurrenceDates = Self(rawValue: 1 << 8), exceptionDates = Self(rawValue: 1 << 9)
    public static let title = Self(rawValue: 1 << 10), location = Self(rawValue: 1 << 11), geo = Self(rawValue: 1 << 12)
    public static let structuredLocation = Self(rawValue: 1 << 13), notes = Self(rawValue: 1 << 14), url = Self(rawValue: 1 << 15)
    public static let status = Self(rawValue: 1 << 16), classification = Self(rawValue: 1 << 17), priority = Self(rawValue: 1 << 18)
    public static let categories = Self(rawValue: 1 << 19), organizer = Self(rawValue: 1 << 20), attendees = Self(rawValue: 1 << 21)
    public static let sequence = Self(rawValue: 1 << 22), created = Self(rawValue: 1 << 23), lastModified = Self(rawValue: 1 << 24)
    /// The generic properties (`CalendarItem.properties`).
    public static let properties = Self(rawValue: 1 << 25)
    /// Alarms and the other sub-components.
    public static let components = Self(rawValue: 1 << 26)
}

extension EmittedFields {
    /// The property names `ICalendarMapper.emit` makes from each typed field of an event: the one list
    /// of them (`ICalendarRemainder` tells typed properties from generic ones by it; a test holds it to
    /// what `emit` writes).
    public static let eventPropertyNames: [(field: EmittedFields, names: [String])] = [
        (.uid, ["UID"]), (.timestamp, ["DTSTAMP"]), (.start, ["DTSTART"]), (.end, ["DTEND"]), (.duration, ["DURATION"]),
        (.transparency, ["TRANSP"]), (.recurrenceID, ["RECURRENCE-ID"]), (.recurrenceRules, ["RRULE"]),
        (.recurrenceDates, ["RDATE"]), (.exceptionDates, ["EXDATE"]), (.title, ["SUMMARY"]), (.location, ["LOCATION"]),
        (.geo, ["GEO"]), (.structuredLocation, ["X-APPLE-STRUCTURED-LOCATION"]), (.notes, ["DESCRIPTION"]), (.url, ["URL"]),
        (.status, ["STATUS"]), (.classification, ["CLASS"]), (.priority, ["PRIORITY"]), (.categories, ["CATEGORIES"]),
        (.organizer, ["ORGANIZER"]), (.attendees, ["ATTENDEE"]), (.sequence, ["SEQUENCE"]), (.created, ["CREATED"]),
        (.lastModified, ["LAST-MODIFIED"]),
    ]
}

/// The name of a property the typed model has a field for, with its default value type looked
/// up in `PropertyTable` once, so that a writer does not look the name up for every line.
public struct TypedName: Sendable {
    /// The property name.
    public let name: String
    /// The table's default value type; nil for a name without a definition.
    public let defaultType: ValueType?

    /// A name and its table facts.
    public init(_ name: String) {
        self.name = name
        defaultType = PropertyTable.info(name).defaultType
    }

    // The names of the typed fields `emit` writes.
    @usableFromInline static let uid = TypedName("UID"), dtstamp = TypedName("DTSTAMP"), dtstart = TypedName("DTSTART")
    @usableFromInline static let dtend = TypedName("DTEND"), duration = TypedName("DURATION"), transp = TypedName("TRANSP")
    @usableFromInline static let due = TypedName("DUE"), completed = TypedName("COMPLETED")
    @usableFromInline static let percentComplete = TypedName("PERCENT-COMPLETE"), recurrenceID = TypedName("RECURRENCE-ID")
    @usableFromInline static let rrule = TypedName("RRULE"), rdate = TypedName("RDATE"), exdate = TypedName("EXDATE")
    @usableFromInline static let summary = TypedName("SUMMARY"), location = TypedName("LOCATION"), geo = TypedName("GEO")
    @usableFromInline static let description = TypedName("DESCRIPTION"), url = TypedName("URL"), status = TypedName("STATUS")
    @usableFromInline static let classification = TypedName("CLASS"), priority = TypedName("PRIORITY")
    @usableFromInline static let categories = TypedName("CATEGORIES"), organizer = TypedName("ORGANIZER")
    @usableFromInline static let attendee = TypedName("ATTENDEE"), sequence = TypedName("SEQUENCE"), created = TypedName("CREATED")
    @usableFromInline static let lastModified = TypedName("LAST-MODIFIED"), action = TypedName("ACTION"), trigger = TypedName("TRIGGER")
    @usableFromInline static let repeatCount = TypedName("REPEAT"), proximity = TypedName("X-APPLE-PROXIMITY")
}

/// The value of a property made from a typed field. Single values are cases of their own so
/// that emitting one allocates nothing (a `PropertyValue` holds an array).
public enum TypedValue {
    case text(String)
    case dateTime(CalendarDateTime)
    case integer(Int)
    case value(PropertyValue)

    /// The generic value.
    public var propertyValue: PropertyValue {
        switch self {
        case .text(let t): .text([t])
        case .dateTime(let d): .dateTimes([d])
        case .integer(let n): .integer([n])
        case .value(let v): v
        }
    }
}

/// The vocabulary words of a participant's CUTYPE, ROLE and PARTSTAT; nil when the field is
/// unset or the vocabulary has no word for it.
public struct ParticipantWords {
    public var type: String?
    public var role: String?
    public var status: String?

    public init(type: String?, role: String?, status: String?) {
        self.type = type
        self.role = role
        self.status = status
    }
}

/// One parameter's values: `one` saves the array a single value would need.
public enum ParameterValues {
    case one(String)
    case list([String])
}

// The walk below is inlinable so that each emitter gets its own specialized copy (the ICS
// writer's lives in ICSFormat): unspecialized, every emitter call went through a witness table
// and every typed value was built and copied in memory before the call could look at it.
extension ICalendarMapper {
    /// Emits a typed entry: typed fields in a stable order, then the generic properties in their
    /// original order, then alarms and the other sub-components.
    @inlinable
    public func emit<E: ICalendarEmitter>(_ entry: CalendarEntry, to out: inout E) {
        switch entry {
        case .event(let event):
            let item = event.item
            let leftOut = out.leftOut
            out.begin("VEVENT")
            emitHead(item, to: &out)
            if !leftOut.contains(.end), let end = event.end { out.property(.dtend, parameters(.dtend, item), .dateTime(end)) }
            if !leftOut.contains(.duration), let d = event.duration {
                out.property(.duration, parameters(.duration, item), .value(.duration(d)))
            }
            if !leftOut.contains(.transparency), let t = event.transparency { out.property(.transp, parameters(.transp, item), .text(t)) }
            emitTail(item, to: &out)
            // A birthday that came from a format without vendor marks gets some, so that reading
            // the output back (here or in a sabre/dav server) knows it is a birthday again.
            if let birthday = event.birthday, !BirthdayMarks.hasMarks(item) {
                for p in BirthdayMarks.marks(for: birthday, startYear: item.start?.date.year) { out.property(p) }
            }
            emitComponents(item, to: &out)
            out.end("VEVENT")
        case .reminder(let reminder):
            let item = reminder.item
            out.begin("VTODO")
            emitHead(item, to: &out)
            if let due = reminder.due { out.property(.due, parameters(.due, item), .dateTime(due)) }
            if let d = reminder.duration { out.property(.duration, parameters(.duration, item), .value(.duration(d))) }
            if let c = reminder.completionDate { out.property(.completed, parameters(.completed, item), .dateTime(c)) }
            if let p = reminder.percentComplete { out.property(.percentComplete, parameters(.percentComplete, item), .integer(p)) }
            emitTail(item, to: &out)
            emitComponents(item, to: &out)
            out.end("VTODO")
        case .timeZone(let c), .other(let c):
            out.component(c)
        }
    }

    /// Emits an alarm.
    @inlinable
    public func emit<E: ICalendarEmitter>(_ alarm: Alarm, to out: inout E) {
        func parameters(_ name: TypedName) -> [Parameter] {
            alarm.propertyParameters.isEmpty ? [] : alarm.propertyParameters[name.name] ?? []
        }
        out.begin("VALARM")
        // An alarm read without ACTION (invalid, but seen) has the empty word and gets none back.
        if alarm.action != .other("") { out.property(.action, parameters(.action), .text(Self.actionWord(alarm.action))) }
        switch alarm.trigger {
        case .relative(let d, let toEnd):
            var p = parameters(.trigger)
            if toEnd { p.insert(Parameter("RELATED", "END"), at: 0) }
            out.property(.trigger, p, .value(.duration(d)))
        case .absolute(let d): out.property(.trigger, parameters(.trigger), .dateTime(d))
        case nil: break
        }
        if let v = alarm.repeatInterval { out.property(.duration, parameters(.duration), .value(.duration(v))) }
        if let v = alarm.repeatCount { out.property(.repeatCount, parameters(.repeatCount), .integer(v)) }
        if let v = alarm.uid { out.property(.uid, parameters(.uid), .text(v)) }
        if let v = alarm.description { out.property(.description, parameters(.description), .text(v)) }
        if let v = alarm.summary { out.property(.summary, parameters(.summary), .text(v)) }
        for a in alarm.attendees { out.participant(.attendee, a, words: words(for: a)) }
        if let v = alarm.proximity { out.property(.proximity, parameters(.proximity), .text(v.rawValue)) }
        if let v = alarm.structuredLocation { out.property(structuredLocationProperty(v)) }
        for p in alarm.properties { out.property(p) }
        for c in alarm.components { out.component(c) }
        out.end("VALARM")
    }

    /// The typed properties that open a component, in a stable order.
    @inlinable
    func emitHead<E: ICalendarEmitter>(_ item: CalendarItem, to out: inout E) {
        let leftOut = out.leftOut
        if !leftOut.contains(.uid), let uid = item.uid { out.property(.uid, parameters(.uid, item), .text(uid)) }
        if !leftOut.contains(.timestamp), let stamp = item.timestamp { out.property(.dtstamp, parameters(.dtstamp, item), .dateTime(stamp)) }
        if !leftOut.contains(.start), let start = item.start { out.property(.dtstart, parameters(.dtstart, item), .dateTime(start)) }
    }

    @inlinable
    func emitTail<E: ICalendarEmitter>(_ item: CalendarItem, to out: inout E) {
        let leftOut = out.leftOut
        if !leftOut.contains(.recurrenceID), let id = item.recurrenceID {
            var p = parameters(.recurrenceID, item)
            if item.recurrenceAppliesToFuture { p.append(Parameter("RANGE", "THISANDFUTURE")) }
            out.property(.recurrenceID, p, .dateTime(id))
        }
        if !leftOut.contains(.recurrenceRules) { for rule in item.recurrenceRules { out.property(.rrule, [], .value(.recurrence(rule))) } }
        if !leftOut.contains(.recurrenceDates) { for list in item.recurrenceDates { out.property(.rdate, list.extraParameters, Self.value(of: list)) } }
        if !leftOut.contains(.exceptionDates) { for list in item.exceptionDates { out.property(.exdate, list.extraParameters, Self.value(of: list)) } }
        if !leftOut.contains(.title), let title = item.title { out.property(.summary, parameters(.summary, item), .text(title)) }
        if !leftOut.contains(.location), let location = item.location { out.property(.location, parameters(.location, item), .text(location)) }
        if !leftOut.contains(.geo), let geo = item.geo {
            out.property(.geo, parameters(.geo, item), .value(.geo(latitude: geo.latitude, longitude: geo.longitude)))
        }
        if !leftOut.contains(.structuredLocation), let loc = item.structuredLocation { out.property(structuredLocationProperty(loc)) }
        if !leftOut.contains(.notes), let notes = item.notes { out.property(.description, parameters(.description, item), .text(notes)) }
        if !leftOut.contains(.url), let url = item.url { out.property(.url, parameters(.url, item), .value(.uri(url))) }
        if !leftOut.contains(.status), let status = item.status { out.property(.status, parameters(.status, item), .text(Self.statusWord(status))) }
        if !leftOut.contains(.classification), let c = item.classification {
            out.property(.classification, parameters(.classification, item), .text(Self.classificationWord(c)))
        }
        if !leftOut.contains(.priority), let p = item.priority { out.property(.priority, parameters(.priority, item), .integer(p)) }
        if !leftOut.contains(.categories) { for group in item.categories { out.property(.categories, [], .value(.text(group))) } }
        if !leftOut.contains(.organizer), let organizer = item.organizer { out.participant(.organizer, organizer, words: words(for: organizer)) }
        if !leftOut.contains(.attendees) { for attendee in item.attendees { out.participant(.attendee, attendee, words: words(for: attendee)) } }
        if !leftOut.contains(.sequence), let s = item.sequence { out.property(.sequence, parameters(.sequence, item), .integer(s)) }
        if !leftOut.contains(.created), let c = item.created { out.property(.created, parameters(.created, item), .dateTime(c)) }
        if !leftOut.contains(.lastModified), let m = item.lastModified { out.property(.lastModified, parameters(.lastModified, item), .dateTime(m)) }
        if !leftOut.contains(.properties) { for p in item.properties { out.property(p) } }
    }

    @inlinable
    func emitComponents<E: ICalendarEmitter>(_ item: CalendarItem, to out: inout E) {
        if out.leftOut.contains(.components) { return }
        for alarm in item.alarms { emit(alarm, to: &out) }
        for c in item.components { out.component(c) }
    }

    /// The parameters recorded for a typed property; most items have none, which skips hashing
    /// the name.
    @inlinable
    func parameters(_ name: TypedName, _ item: CalendarItem) -> [Parameter] {
        item.propertyParameters.isEmpty ? [] : item.propertyParameters[name.name] ?? []
    }

    @inlinable
    static func value(of list: CalendarItem.DateList) -> TypedValue {
        .value(list.periods.isEmpty ? .dateTimes(list.dates) : .periods(list.periods))
    }

    // Doors for the inlined walk above to the words of the typed fields, which stay internal
    // beside the readers' word tables.
    @usableFromInline
    static func statusWord(_ status: CalendarItem.Status) -> String { word(status) }

    @usableFromInline
    static func classificationWord(_ c: CalendarItem.Classification) -> String { word(c) }

    @usableFromInline
    static func actionWord(_ action: Alarm.Action) -> String { word(action) }
}

/// Builds the generic component tree from what `emit` says.
struct ComponentBuilder: ICalendarEmitter {
    private var open: [Component] = []
    private(set) var finished: Component?
    let leftOut: EmittedFields

    init(leavingOut leftOut: EmittedFields = []) { self.leftOut = leftOut }

    mutating func begin(_ name: String) {
        // Room for an event's usual properties (a sub-component's) at once: grown one by one,
        // the list was reallocated five or six times per component.
        var component = Component(name: name)
        component.properties.reserveCapacity(open.isEmpty ? 32 : 8)
        open.append(component)
    }

    mutating func end(_ name: String) {
        let done = open.removeLast()
        if open.isEmpty { finished = done } else { open[open.count - 1].components.append(done) }
    }

    mutating func property(_ name: TypedName, _ parameters: [Parameter], _ value: TypedValue) {
        open[open.count - 1].properties.append(Property(name: name.name, parameters: parameters, value: value.propertyValue))
    }

    mutating func participant(_ name: TypedName, _ participant: Participant, words: ParticipantWords) {
        open[open.count - 1].properties.append(ICalendarMapper.participantProperty(name.name, participant, words: words))
    }

    mutating func property(_ property: Property) { open[open.count - 1].properties.append(property) }

    mutating func component(_ component: Component) { open[open.count - 1].components.append(component) }
}
