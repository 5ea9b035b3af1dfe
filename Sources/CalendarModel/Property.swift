/// A parameter of a property (RFC 5545 §3.2): a name and one or more values.
public struct Parameter: Hashable, Sendable {
    /// The name as it appeared, upper-cased.
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    public init(_ name: String, _ value: String) {
        self.init(name: name, values: [value])
    }

    /// The first value, for single-valued parameters.
    public var value: String { values.first ?? "" }
}

/// A property the typed model does not hold itself, kept with everything it carried so it
/// round-trips: X- and IANA properties, and known properties beyond what the model keeps.
public struct Property: Hashable, Sendable {
    /// The name, upper-cased (names are case-insensitive, RFC 5545 §2).
    public var name: String
    /// Parameters in their original order.
    public var parameters: [Parameter]
    public var value: PropertyValue

    public init(name: String, parameters: [Parameter] = [], value: PropertyValue) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The values of the first parameter called `name`, if any.
    public func parameter(_ name: String) -> Parameter? {
        parameters.first { $0.name == name }
    }
}

/// A property value, typed as the iCalendar data model types it (RFC 5545 §3.3); the same
/// model underlies jCal and xCal, so no serialization is implied.
public enum PropertyValue: Hashable, Sendable {
    /// TEXT values, unescaped; several when the property is a list (CATEGORIES, RESOURCES).
    case text([String])
    /// DATE and DATE-TIME values.
    case dateTimes([CalendarDateTime])
    case periods([CalendarPeriod])
    case duration(CalendarDuration)
    /// UTC-OFFSET in seconds.
    case utcOffset(Int)
    indirect case recurrence(RecurrenceRule)
    case integer([Int])
    case float([Double])
    case boolean(Bool)
    case geo(latitude: Double, longitude: Double)
    /// BINARY content, already base64-decoded.
    case binary([UInt8])
    case uri(String)
    case calendarAddress(String)
    /// TIME values (RFC 5545 §3.3.12).
    case times([TimeOfDay], utc: Bool)
    /// A value of a type this model does not interpret (X- properties without VALUE, unknown
    /// value types), kept as the literal text the source held.
    case unknown(type: String?, literal: String)
}

/// A component the typed model does not interpret (VJOURNAL, VFREEBUSY, VAVAILABILITY,
/// VTIMEZONE, X- components), kept as a tree so it round-trips.
public struct Component: Hashable, Sendable {
    /// The component name, upper-cased.
    public var name: String
    public var properties: [Property]
    public var components: [Component]

    public init(name: String, properties: [Property] = [], components: [Component] = []) {
        self.name = name
        self.properties = properties
        self.components = components
    }

    /// The first property called `name`.
    public func property(_ name: String) -> Property? {
        properties.first { $0.name == name }
    }
}
