import CalendarModel
import Foundation
import ICalendarData
import JSONCoding

/// Turns jCal arrays (RFC 7265 §3) into the generic component tree that the iCalendar mapper
/// types, with the same conventions as the ICS reader: names upper-cased, the value typed by
/// the jCal type (so no VALUE parameter), TZID moved into the date-times it anchors,
/// REQUEST-STATUS kept as its iCalendar text, and anything that does not parse kept as an
/// `.unknown` value with a warning (an error in strict mode).
public struct JCalValueDecoder {
    /// The input's name, for errors.
    public let file: String
    /// The line where the value being read began.
    public let line: Int
    /// Whether repairs are errors.
    public let strict: Bool
    /// Where warnings go.
    public let log: DiagnosticLog

    /// A decoder whose errors and warnings name `file` and `line`.
    public init(file: String, line: Int, strict: Bool, log: DiagnosticLog) {
        self.file = file
        self.line = line
        self.strict = strict
        self.log = log
    }

    /// An error at `path` (a JSON pointer into the value being read).
    public func fail(_ path: String, _ message: String) -> CalendarError {
        CalendarError(.data, file: file, line: line, location: path.isEmpty ? nil : path, message)
    }

    /// A repair lenient mode makes and says so; strict mode refuses it.
    public func repair(_ path: String, _ message: String) throws {
        if strict { throw fail(path, message) }
        log.warning(file: file, line: line, location: path.isEmpty ? nil : path, message)
    }

    // The `path` of what is read next is made only for a message: JSON readers decode a
    // remainder of a few properties for every item, and paths made ahead were a visible share.

    /// A jCal component, `[name, [properties], [components]]`.
    public func component(_ v: JSONValue, _ path: @autoclosure () -> String) throws -> Component {
        guard let a = v.arrayValue, a.count == 3, let name = a[0].stringValue, let props = a[1].arrayValue,
            let comps = a[2].arrayValue
        else {
            throw fail(path(), "a jCal component is [name, [properties], [components]]")
        }
        return Component(
            name: name.uppercased(),
            properties: try props.enumerated().map { try property($1, "\(path())/1/\($0)") },
            components: try comps.enumerated().map { try component($1, "\(path())/2/\($0)") })
    }

    /// A jCal parameter object.
    public func parameters(_ v: JSONValue, _ path: @autoclosure () -> String) throws -> [Parameter] {
        guard let o = v.objectValue else { throw fail(path(), "parameters must be an object") }
        // Most properties have none: mapping an empty object still cost ~700 instructions.
        if o.members.isEmpty { return [] }
        return try o.members.map { m in
            let name = m.key.uppercased()
            switch m.value {
            case .string(let s): return Parameter(name, s)
            case .array(let values):
                return Parameter(
                    name: name,
                    values: try values.map { value in
                        guard let s = value.stringValue else { throw fail("\(path())/\(m.key)", "parameter values must be strings") }
                        return s
                    })
            case .number(let text):
                try repair("\(path())/\(m.key)", "parameter value \(text) is a number, not a string; read as text")
                return Parameter(name, text)
            case .bool(let b):
                try repair("\(path())/\(m.key)", "parameter value \(b) is a boolean, not a string; read as text")
                return Parameter(name, b ? "TRUE" : "FALSE")
            default:
                throw fail("\(path())/\(m.key)", "parameter values must be strings")
            }
        }
    }

    /// A jCal property, `[name, {parameters}, type, value, …]`.
    public func property(_ v: JSONValue, _ path: @autoclosure () -> String) throws -> Property {
        guard let a = v.arrayValue, a.count >= 3, let rawName = a[0].stringValue, let type = a[2].stringValue else {
            throw fail(path(), "a jCal property is [name, {parameters}, type, value, …]")
        }
        let name = rawName.uppercased()
        var params = try parameters(a[1], "\(path())/1")
        // RFC 7265 §3.5.1: the type replaces VALUE; a VALUE that slipped in is ignored for typing.
        let values = Array(a.dropFirst(3))
        var value = try self.value(values, type: type, property: name, parameters: params, path: path())
        if case .unknown(nil, let literal) = value, let i = params.firstIndex(where: { $0.name == JSONOutput.declaredTypeParameter }),
            params[i].values.count == 1
        {
            value = .unknown(type: params[i].value, literal: literal)
            params.remove(at: i)
        }
        value.anchor(inZoneOf: &params)
        return Property(name: name, parameters: params, value: value)
    }

    private struct Mismatch: Error {
        var message: String
    }

    private func strings(_ values: [JSONValue]) throws -> [String] {
        try values.map { v in
            guard let s = v.stringValue else { throw Mismatch(message: "expected a string, found \(v.typeName)") }
            return s
        }
    }

    /// The literal jCal text of values that could not be typed, for `.unknown`.
    private func literal(_ values: [JSONValue]) -> String {
        values.map { $0.stringValue ?? $0.description }.joined(separator: ",")
    }

    /// The typed value of a property from its jCal type and value elements.
    public func value(
        _ values: [JSONValue], type rawType: String, property: String, parameters: [Parameter], path: @autoclosure () -> String
    ) throws
        -> PropertyValue
    {
        let typeName = rawType.lowercased()
        if typeName == "unknown" {
            guard values.count == 1, let s = values[0].stringValue else { throw fail(path(), "an unknown value is one string") }
            return .unknown(type: nil, literal: s)
        }
        guard let type = Self.valueType(typeName), type != .geo else {
            // A type this table does not know (an X- type): kept as the literal it is.
            return .unknown(type: rawType.uppercased(), literal: literal(values))
        }
        let definition = PropertyTable.definition(property)
        do {
            return try typed(values, type: type, definition: definition)
        } catch let m as Mismatch {
            try repair(path(), "\(property.lowercased()) is not a valid \(typeName) value (\(m.message)); kept as text")
            // A rule is kept in RFC 5545's text, as the ICS reader keeps one, not as the JSON of its object.
            if type == .recur, values.count == 1, let o = values[0].objectValue,
                let text = try? Self.recurrenceText(o, untilMustParse: false)
            {
                return .unknown(type: type.rawValue, literal: text)
            }
            // GEO's pair in iCalendar's "latitude;longitude".
            if definition?.defaultType == .geo, values.count == 1, let pair = values[0].arrayValue {
                return .unknown(type: nil, literal: literal(pair).replacingOccurrences(of: ",", with: ";"))
            }
            return .unknown(type: type.rawValue, literal: literal(values))
        }
    }

    /// The value types by the length of their jCal names (RFC 7265 §3.6: lower-case), so that a
    /// name is compared with two or three others at most.
    private static let valueTypesByLength: [[(name: String, type: ValueType)]] = {
        var table = [[(name: String, type: ValueType)]](repeating: [], count: 16)
        for t in ValueType.allCases { table[t.lowercaseName.utf8.count].append((t.lowercaseName, t)) }
        return table
    }()

    /// The value type a lower-cased jCal type name names, as `ValueType(rawValue:)` of it
    /// upper-cased: upper-casing and matching the raw values cost ~900 instructions a property.
    private static func valueType(_ typeName: String) -> ValueType? {
        // Upper-casing maps some non-ASCII letters onto ASCII ones ("ı" → "I"): such names
        // go the long way.
        let length = typeName.utf8.count
        guard length < valueTypesByLength.count, typeName.utf8.allSatisfy({ $0 < 0x80 }) else {
            return ValueType(rawValue: typeName.uppercased())
        }
        return valueTypesByLength[length].first { $0.name == typeName }?.type
    }

    private func typed(_ values: [JSONValue], type: ValueType, definition: PropertyDefinition?) throws -> PropertyValue {
        guard !values.isEmpty else { throw Mismatch(message: "no value") }
        func single() throws -> JSONValue {
            guard values.count == 1 else { throw Mismatch(message: "\(values.count) values where one is allowed") }
            return values[0]
        }
        switch type {
        case .text:
            if definition?.isStructured == true {
                // REQUEST-STATUS (RFC 7265 §3.4.1.2): parts become the iCalendar text the model keeps.
                guard case .array(let parts) = try single() else { throw Mismatch(message: "a structured value is an array of strings") }
                return .unknown(type: nil, literal: try strings(parts).map(ICalendarValueText.escaped).joined(separator: ";"))
            }
            return .text(try strings(values))
        case .date, .dateTime:
            return .dateTimes(
                try strings(values).map { s in
                    guard let d = ISO8601Text.parseDateTime(s, allowDate: type == .date), d.isDateOnly == (type == .date) else {
                        throw Mismatch(message: "'\(s)'")
                    }
                    return d
                })
        case .period:
            return .periods(
                try values.map { v in
                    let parts: [String]
                    if let s = v.stringValue {
                        parts = s.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                    } else if let a = v.arrayValue {
                        parts = try strings(a)
                    } else {
                        throw Mismatch(message: "a period is [start, end or duration]")
                    }
                    // Dates are accepted where RFC 5545 wants date-times, as the ICS reader accepts them.
                    guard parts.count == 2, let start = ISO8601Text.parseDateTime(parts[0], allowDate: true) else {
                        throw Mismatch(message: "\(parts)")
                    }
                    if let d = ISO8601Text.parseDuration(parts[1]) { return CalendarPeriod(start: start, extent: .duration(d)) }
                    guard let end = ISO8601Text.parseDateTime(parts[1], allowDate: true) else { throw Mismatch(message: "'\(parts[1])'") }
                    return CalendarPeriod(start: start, extent: .end(end))
                })
        case .duration:
            guard let s = try single().stringValue, let d = ISO8601Text.parseDuration(s) else { throw Mismatch(message: "not a duration") }
            return .duration(d)
        case .utcOffset:
            guard let s = try single().stringValue, let o = ISO8601Text.parseUTCOffset(s) else {
                throw Mismatch(message: "not a UTC offset")
            }
            return .utcOffset(o)
        case .recur:
            guard let o = try single().objectValue else { throw Mismatch(message: "a recurrence rule is an object") }
            return .recurrence(try recurrence(o))
        case .integer:
            return .integer(
                try values.map { v in
                    if let n = v.intValue { return n }
                    if let d = v.doubleValue, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
                    throw Mismatch(message: "\(v) is not an integer")
                })
        case .float:
            if definition?.defaultType == .geo || (values.count == 1 && values[0].arrayValue?.count == 2) {
                // GEO (RFC 7265 §3.4.1.1): [latitude, longitude].
                guard case .array(let pair) = try single(), pair.count == 2, let lat = pair[0].doubleValue, let lon = pair[1].doubleValue,
                    lat.isFinite, lon.isFinite
                else {
                    throw Mismatch(message: "geo is [latitude, longitude]")
                }
                return .geo(latitude: lat, longitude: lon)
            }
            return .float(
                try values.map { v in
                    // 1e309 is a JSON number but no FLOAT: it would be written as "inf".
                    guard let d = v.doubleValue, d.isFinite else { throw Mismatch(message: "\(v) is not a number") }
                    return d
                })
        case .geo:
            throw Mismatch(message: "geo is not a jCal type")
        case .boolean:
            guard let b = try single().boolValue else { throw Mismatch(message: "not true or false") }
            return .boolean(b)
        case .binary:
            guard let s = try single().stringValue, let data = Data(base64Encoded: s) else { throw Mismatch(message: "not base64") }
            return .binary([UInt8](data))
        case .uri:
            guard let s = try single().stringValue else { throw Mismatch(message: "not a string") }
            return .uri(s)
        case .calAddress:
            guard let s = try single().stringValue else { throw Mismatch(message: "not a string") }
            return .calendarAddress(s)
        case .time:
            var utc = false
            let times = try strings(values).map { s -> TimeOfDay in
                guard let (t, isUTC) = ISO8601Text.parseTime(s) else { throw Mismatch(message: "'\(s)'") }
                if isUTC { utc = true }
                return t
            }
            return .times(times, utc: utc)
        }
    }

    /// RFC 7265 §3.6.10: the object's parts become RFC 5545 rule text, parsed by the model's own
    /// rule parser so both syntaxes are checked alike.
    /// A jCal recurrence rule object.
    public func recurrence(_ o: JSONObject) throws -> RecurrenceRule {
        do {
            return try RecurrenceRule(rfc5545: try Self.recurrenceText(o, untilMustParse: true))
        } catch let e as RecurrenceRule.SyntaxError {
            throw Mismatch(message: e.message)
        }
    }

    /// RFC 7265 §3.6.10: the rule's members as RFC 5545's `NAME=a,b` parts, UNTIL in the basic form (as written
    /// when it is no date, unless `untilMustParse`).
    static func recurrenceText(_ o: JSONObject, untilMustParse: Bool) throws -> String {
        var parts: [(name: String, values: [String])] = []
        for m in o.members {
            let key = m.key.uppercased()
            let items = m.value.arrayValue ?? [m.value]
            let texts = try items.map { v -> String in
                switch v {
                case .string(let s):
                    if key == "UNTIL" {
                        if let d = ISO8601Text.parseDateTime(s, allowDate: true) { return d.basicISO }
                        if untilMustParse { throw Mismatch(message: "until '\(s)'") }
                    }
                    return s
                case .number(let n): return n
                default: throw Mismatch(message: "rule part \(m.key) must be numbers or strings")
                }
            }
            parts.append((key, texts))
        }
        return ICalendarValueText.recurrence(parts)
    }
}
