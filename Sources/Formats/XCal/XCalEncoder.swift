import CalendarModel
import Foundation
import ICalendarData
import JSONCoding
import XMLSupport

/// Writes the generic component tree as xCal elements (RFC 6321 §3): lower-case names, a
/// `<parameters>` element when there are parameters (TZID supplied from zoned date-times),
/// then the value as typed elements.
///
/// Every element name is resolved once into the writer's tag (`XMLByteWriter.tag(_:)`) and
/// kept: by iCalendar name for properties, parameters, components and rule parts, one lookup
/// each; the value elements as fields. An archive writes about ten elements a property, so
/// names are not lower-cased, checked and qualified again each time.
struct XCalEncoder {
    /// Tags by iCalendar name; nil for a name that cannot be an XML name.
    private var named: [String: XMLTag?] = [:]
    /// What a parameter's values are written as, by parameter name.
    private var parameterValues: [String: ParameterValues] = [:]
    /// Rule parts' tags by the part's name as the rule prints it.
    private var ruleParts: [String: (XMLTag, Bool)] = [:]
    private let tags: ValueTags

    /// A parameter's element (nil: the name cannot be an XML name) and its values' element.
    private struct ParameterValues {
        var name: XMLTag?
        var tag: XMLTag
        var isBoolean: Bool
    }

    /// The value and structure elements, resolved once.
    private struct ValueTags {
        let properties, components, parameters: XMLTag
        let text, date, dateTime, period, start, end, duration, utcOffset, recur: XMLTag
        let integer, float, boolean, latitude, longitude, binary, uri, calAddress, time, unknown: XMLTag
        let code, description, data: XMLTag

        init(_ w: inout XMLByteWriter) {
            func t(_ local: String) -> XMLTag {
                // The xCal namespace is the writer's root namespace, so every name has a tag.
                w.tag(XCalNames.name(local))!
            }
            (properties, components, parameters) = (t("properties"), t("components"), t("parameters"))
            (text, date, dateTime, period, start, end) = (t("text"), t("date"), t("date-time"), t("period"), t("start"), t("end"))
            (duration, utcOffset, recur, integer, float) = (t("duration"), t("utc-offset"), t("recur"), t("integer"), t("float"))
            (boolean, latitude, longitude, binary, uri) = (t("boolean"), t("latitude"), t("longitude"), t("binary"), t("uri"))
            (calAddress, time, unknown, code, description, data) = (
                t("cal-address"), t("time"), t("unknown"), t("code"), t("description"), t("data")
            )
        }
    }

    /// An encoder for `w`, whose root namespace is xCal's.
    init(_ w: inout XMLByteWriter) {
        tags = ValueTags(&w)
    }

    static func name(_ local: String) -> XMLName { XCalNames.name(local) }

    /// The tag of an iCalendar name's element, or nil when the name cannot be an XML name.
    private mutating func tag(_ icalName: String, _ w: inout XMLByteWriter) -> XMLTag? {
        if let known = named[icalName] { return known }
        let local = icalName.lowercased()
        let t = XCalNames.isXMLName(local) ? w.tag(Self.name(local)) : nil
        named[icalName] = t
        return t
    }

    /// Opens the element for an iCalendar name, or calport's extension element when the name
    /// cannot be an XML name.
    private mutating func startNamed(_ icalName: String, kind: String, to w: inout XMLByteWriter) {
        if let t = tag(icalName, &w) {
            w.start(t)
        } else {
            w.start(XMLName(XCalNames.extensionNamespace, kind), attributes: [XMLAttribute(XMLName("", "name"), icalName)])
        }
    }

    /// `<properties>` and `<components>`.
    var propertiesTag: XMLTag { tags.properties }
    var componentsTag: XMLTag { tags.components }

    /// Opens a component's element.
    mutating func startComponent(_ name: String, to w: inout XMLByteWriter) {
        startNamed(name, kind: "component", to: &w)
    }

    mutating func write(_ component: Component, to w: inout XMLByteWriter) {
        startNamed(component.name, kind: "component", to: &w)
        if !component.properties.isEmpty {
            w.start(tags.properties)
            for p in component.properties { write(p, to: &w) }
            w.end()
        }
        if !component.components.isEmpty {
            w.start(tags.components)
            for c in component.components { write(c, to: &w) }
            w.end()
        }
        w.end()
    }

    mutating func write(_ property: Property, to w: inout XMLByteWriter) {
        startNamed(property.name, kind: "property", to: &w)
        var parameters = property.parameters
        if case .binary = property.value {
            // `<binary>` says base64 itself (RFC 6321 §3.6.1); the ICS writer restores the parameter.
            parameters.removeAll { $0.name == "ENCODING" && $0.values.map { $0.uppercased() } == ["BASE64"] }
        }
        if let zone = Self.anchorZone(property.value), !parameters.contains(where: { $0.name == "TZID" }) {
            parameters.insert(Parameter("TZID", zone), at: 0)
        }
        var period: (String, String)?
        if case .unknown(let type, _) = property.value {
            period = Self.periodParts(property)
            if period == nil, let type, !parameters.contains(where: { $0.name == XCalNames.declaredTypeParameter }) {
                parameters.append(Parameter(XCalNames.declaredTypeParameter, type))
            }
        }
        writeParameters(parameters, to: &w)
        if let (start, rest) = period {
            // A PERIOD that did not parse (RFC 6321's own `P1H`) keeps its shape, verbatim.
            w.start(tags.period)
            w.element(tags.start, text: CalendarDateTime(basicISO: start).map(ISO8601Text.dateTime) ?? start)
            if rest.hasPrefix("P") || rest.hasPrefix("+P") || rest.hasPrefix("-P") {
                w.element(tags.duration, text: rest)
            } else {
                w.element(tags.end, text: CalendarDateTime(basicISO: rest).map(ISO8601Text.dateTime) ?? rest)
            }
            w.end()
        } else {
            writeValue(property, to: &w)
        }
        w.end()
    }

    /// `<parameters>` with each parameter, when there are any.
    private mutating func writeParameters(_ parameters: [Parameter], to w: inout XMLByteWriter) {
        guard !parameters.isEmpty else { return }
        w.start(tags.parameters)
        for parameter in parameters { writeParameter(parameter.name, parameter.values, to: &w) }
        w.end()
    }

    /// One parameter's element and its values.
    private mutating func writeParameter<Values: Sequence<String>>(_ name: String, _ values: Values, to w: inout XMLByteWriter) {
        // One lookup for the parameter's element and its values'.
        let written = parameterValues(name, &w)
        if let t = written.name {
            w.start(t)
        } else {
            startNamed(name, kind: "parameter", to: &w)
        }
        for value in values {
            if written.isBoolean, ["TRUE", "FALSE"].contains(value.uppercased()) {
                w.element(tags.boolean, text: value.lowercased())
            } else {
                w.element(written.tag, text: value)
            }
        }
        w.end()
    }

    /// A property from a typed field: what `write(_: Property)` writes for
    /// `Property(name:parameters:value: value.propertyValue)`, without building it.
    mutating func write(_ name: String, _ parameters: [Parameter], _ value: TypedValue, to w: inout XMLByteWriter) {
        switch value {
        case .text(let text):
            startNamed(name, kind: "property", to: &w)
            writeParameters(parameters, to: &w)
            w.element(tags.text, text: text)
        case .dateTime(let d):
            startNamed(name, kind: "property", to: &w)
            if let zone = d.reference.zoneIdentifier, !parameters.contains(where: { $0.name == "TZID" }) {
                writeParameters([Parameter("TZID", zone)] + parameters, to: &w)
            } else {
                writeParameters(parameters, to: &w)
            }
            w.element(d.isDateOnly ? tags.date : tags.dateTime, text: ISO8601Text.dateTime(d))
        case .integer(let n):
            startNamed(name, kind: "property", to: &w)
            writeParameters(parameters, to: &w)
            w.element(tags.integer, text: String(n))
        case .value(let v):
            write(Property(name: name, parameters: parameters, value: v), to: &w)
            return
        }
        w.end()
    }

    /// ATTENDEE or ORGANIZER: what `write(_: Property)` writes for
    /// `ICalendarMapper.participantProperty`, without building it.
    mutating func write(_ name: String, _ participant: Participant, words: ParticipantWords, to w: inout XMLByteWriter) {
        startNamed(name, kind: "property", to: &w)
        var opened = false
        ICalendarMapper.forEachParameter(of: participant, words: words) { parameter, values in
            if !opened {
                w.start(tags.parameters)
                opened = true
            }
            switch values {
            case .one(let v): writeParameter(parameter, CollectionOfOne(v), to: &w)
            case .list(let l): writeParameter(parameter, l, to: &w)
            }
        }
        if opened { w.end() }
        w.element(tags.calAddress, text: participant.url)
        w.end()
    }

    /// The element a parameter's values are written in (RFC 6321 §3.5): its type's for the
    /// parameters RFC 5545 and its extensions define, `<unknown>` for any other; a boolean
    /// parameter's `TRUE`/`FALSE` goes in `<boolean>`, anything else it holds in `<text>`.
    private mutating func parameterValues(_ name: String, _ w: inout XMLByteWriter) -> ParameterValues {
        if let known = parameterValues[name] { return known }
        let type = XCalNames.knownParameters.contains(name) ? XCalNames.parameterValueTypes[name] ?? "text" : "unknown"
        let values = ParameterValues(
            name: tag(name, &w), tag: w.tag(Self.name(type == "boolean" ? "text" : type))!, isBoolean: type == "boolean")
        parameterValues[name] = values
        return values
    }

    /// For an untyped PERIOD literal (one period, `start/end-or-duration`), its two parts.
    private static func periodParts(_ property: Property) -> (String, String)? {
        guard case .unknown(let type, let literal) = property.value,
            (type ?? PropertyTable.definition(property.name)?.defaultType.rawValue) == ValueType.period.rawValue,
            !literal.contains(","), !literal.contains("\\")
        else { return nil }
        let parts = literal.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// The zone a TZID parameter must name for this value, if any.
    static func anchorZone(_ value: PropertyValue) -> String? {
        switch value {
        case .dateTimes(let d): return d.first?.reference.zoneIdentifier
        case .periods(let p): return p.first?.start.reference.zoneIdentifier
        default: return nil
        }
    }

    static func formatNumber(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }

    private mutating func writeValue(_ property: Property, to w: inout XMLByteWriter) {
        switch property.value {
        case .text(let parts):
            for part in parts { w.element(tags.text, text: part) }
        case .dateTimes(let dates):
            for d in dates { w.element(d.isDateOnly ? tags.date : tags.dateTime, text: ISO8601Text.dateTime(d)) }
        case .periods(let periods):
            for p in periods {
                w.start(tags.period)
                w.element(tags.start, text: ISO8601Text.dateTime(p.start))
                switch p.extent {
                case .end(let e): w.element(tags.end, text: ISO8601Text.dateTime(e))
                case .duration(let d): w.element(tags.duration, text: d.rfc5545Text)
                }
                w.end()
            }
        case .duration(let d): w.element(tags.duration, text: d.rfc5545Text)
        case .utcOffset(let s): w.element(tags.utcOffset, text: ISO8601Text.utcOffset(s))
        case .recurrence(let rule): writeRecurrence(rule, to: &w)
        case .integer(let numbers):
            for n in numbers { w.element(tags.integer, text: String(n)) }
        case .float(let numbers):
            for n in numbers { w.element(tags.float, text: Self.formatNumber(n)) }
        case .boolean(let b): w.element(tags.boolean, text: b ? "true" : "false")
        case .geo(let lat, let lon):
            w.element(tags.latitude, text: Self.formatNumber(lat))
            w.element(tags.longitude, text: Self.formatNumber(lon))
        case .binary(let bytes): w.element(tags.binary, text: Data(bytes).base64EncodedString())
        case .uri(let u): w.element(tags.uri, text: u)
        case .calendarAddress(let a): w.element(tags.calAddress, text: a)
        case .times(let times, let utc):
            for t in times { w.element(tags.time, text: ISO8601Text.time(t) + (utc ? "Z" : "")) }
        case .unknown(let type, let literal):
            if type == nil, PropertyTable.definition(property.name)?.isStructured == true {
                writeRequestStatus(literal, to: &w)
            } else {
                w.element(tags.unknown, text: literal)
            }
        }
    }

    /// RFC 6321 §3.6.10: one element per rule part, repeated for list values, in the order
    /// the model prints the rule (which is RFC 5545's, FREQ first).
    private mutating func writeRecurrence(_ rule: RecurrenceRule, to w: inout XMLByteWriter) {
        w.start(tags.recur)
        for part in rule.rfc5545Text.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let (keyTag, isUntil) = rulePart(String(part[..<eq]), &w)
            let value = String(part[part.index(after: eq)...])
            if isUntil, let d = CalendarDateTime(basicISO: value) {
                w.element(keyTag, text: ISO8601Text.dateTime(d))
                continue
            }
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                w.element(keyTag, text: String(item))
            }
        }
        w.end()
    }

    /// A rule part's element (its name lower-cased) and whether it is UNTIL.
    private mutating func rulePart(_ key: String, _ w: inout XMLByteWriter) -> (XMLTag, Bool) {
        if let known = ruleParts[key] { return known }
        let local = key.lowercased()
        // Every name in the xCal namespace has a tag (it is the writer's root namespace).
        let part = (w.tag(Self.name(local))!, local == "until")
        ruleParts[key] = part
        return part
    }

    /// REQUEST-STATUS's iCalendar text (`code;description[;data]`) as its three elements.
    private func writeRequestStatus(_ literal: String, to w: inout XMLByteWriter) {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in literal {
            if escaped {
                switch c {
                case "n", "N": current.append("\n")
                default: current.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == ";" && parts.count < 2 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        w.element(tags.code, text: parts[0])
        if parts.count > 1 { w.element(tags.description, text: parts[1]) }
        if parts.count > 2 { w.element(tags.data, text: parts[2]) }
    }
}
