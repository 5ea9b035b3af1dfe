import CalendarModel
import Foundation
import ICalendarData
import JSONCoding
import XMLSupport

/// Writes the generic component tree as xCal elements (RFC 6321 §3): lower-case names, a
/// `<parameters>` element when there are parameters (TZID supplied from zoned date-times),
/// then the value as typed elements.
struct XCalEncoder {
    static func name(_ local: String) -> XMLName { XCalNames.name(local) }

    /// Opens the element for an iCalendar name, or calport's extension element when the name
    /// cannot be an XML name.
    static func startNamed(_ icalName: String, kind: String, to w: inout XMLByteWriter) {
        let local = icalName.lowercased()
        if XCalNames.isXMLName(local) {
            w.start(name(local))
        } else {
            w.start(XMLName(XCalNames.extensionNamespace, kind), attributes: [XMLAttribute(XMLName("", "name"), icalName)])
        }
    }

    static func write(_ component: Component, to w: inout XMLByteWriter) {
        startNamed(component.name, kind: "component", to: &w)
        if !component.properties.isEmpty {
            w.start(name("properties"))
            for p in component.properties { write(p, to: &w) }
            w.end()
        }
        if !component.components.isEmpty {
            w.start(name("components"))
            for c in component.components { write(c, to: &w) }
            w.end()
        }
        w.end()
    }

    static func write(_ property: Property, to w: inout XMLByteWriter) {
        startNamed(property.name, kind: "property", to: &w)
        var parameters = property.parameters
        if case .binary = property.value {
            // `<binary>` says base64 itself (RFC 6321 §3.6.1); the ICS writer restores the parameter.
            parameters.removeAll { $0.name == "ENCODING" && $0.values.map { $0.uppercased() } == ["BASE64"] }
        }
        if let zone = anchorZone(property.value), !parameters.contains(where: { $0.name == "TZID" }) {
            parameters.insert(Parameter("TZID", zone), at: 0)
        }
        let period = periodParts(property)
        if period == nil, case .unknown(let type?, _) = property.value,
            !parameters.contains(where: { $0.name == XCalNames.declaredTypeParameter })
        {
            parameters.append(Parameter(XCalNames.declaredTypeParameter, type))
        }
        if !parameters.isEmpty {
            w.start(name("parameters"))
            for parameter in parameters {
                startNamed(parameter.name, kind: "parameter", to: &w)
                let type =
                    XCalNames.knownParameters.contains(parameter.name) ? XCalNames.parameterValueTypes[parameter.name] ?? "text" : "unknown"
                for value in parameter.values {
                    if type == "boolean", ["TRUE", "FALSE"].contains(value.uppercased()) {
                        w.element(name("boolean"), text: value.lowercased())
                    } else {
                        w.element(name(type == "boolean" ? "text" : type), text: value)
                    }
                }
                w.end()
            }
            w.end()
        }
        if let (start, rest) = period {
            // A PERIOD that did not parse (RFC 6321's own `P1H`) keeps its shape, verbatim.
            w.start(name("period"))
            w.element(name("start"), text: CalendarDateTime(basicISO: start).map(ISO8601Text.dateTime) ?? start)
            if rest.hasPrefix("P") || rest.hasPrefix("+P") || rest.hasPrefix("-P") {
                w.element(name("duration"), text: rest)
            } else {
                w.element(name("end"), text: CalendarDateTime(basicISO: rest).map(ISO8601Text.dateTime) ?? rest)
            }
            w.end()
        } else {
            writeValue(property, to: &w)
        }
        w.end()
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

    private static func writeValue(_ property: Property, to w: inout XMLByteWriter) {
        switch property.value {
        case .text(let parts):
            for part in parts { w.element(name("text"), text: part) }
        case .dateTimes(let dates):
            for d in dates { w.element(name(d.isDateOnly ? "date" : "date-time"), text: ISO8601Text.dateTime(d)) }
        case .periods(let periods):
            for p in periods {
                w.start(name("period"))
                w.element(name("start"), text: ISO8601Text.dateTime(p.start))
                switch p.extent {
                case .end(let e): w.element(name("end"), text: ISO8601Text.dateTime(e))
                case .duration(let d): w.element(name("duration"), text: d.rfc5545Text)
                }
                w.end()
            }
        case .duration(let d): w.element(name("duration"), text: d.rfc5545Text)
        case .utcOffset(let s): w.element(name("utc-offset"), text: ISO8601Text.utcOffset(s))
        case .recurrence(let rule): writeRecurrence(rule, to: &w)
        case .integer(let numbers):
            for n in numbers { w.element(name("integer"), text: String(n)) }
        case .float(let numbers):
            for n in numbers { w.element(name("float"), text: formatNumber(n)) }
        case .boolean(let b): w.element(name("boolean"), text: b ? "true" : "false")
        case .geo(let lat, let lon):
            w.element(name("latitude"), text: formatNumber(lat))
            w.element(name("longitude"), text: formatNumber(lon))
        case .binary(let bytes): w.element(name("binary"), text: Data(bytes).base64EncodedString())
        case .uri(let u): w.element(name("uri"), text: u)
        case .calendarAddress(let a): w.element(name("cal-address"), text: a)
        case .times(let times, let utc):
            for t in times { w.element(name("time"), text: ISO8601Text.time(t) + (utc ? "Z" : "")) }
        case .unknown(let type, let literal):
            if type == nil, PropertyTable.definition(property.name)?.isStructured == true {
                writeRequestStatus(literal, to: &w)
            } else {
                w.element(name("unknown"), text: literal)
            }
        }
    }

    /// RFC 6321 §3.6.10: one element per rule part, repeated for list values, in the order
    /// the model prints the rule (which is RFC 5545's, FREQ first).
    private static func writeRecurrence(_ rule: RecurrenceRule, to w: inout XMLByteWriter) {
        w.start(name("recur"))
        for part in rule.rfc5545Text.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let key = part[..<eq].lowercased()
            let value = String(part[part.index(after: eq)...])
            if key == "until", let d = CalendarDateTime(basicISO: value) {
                w.element(name(key), text: ISO8601Text.dateTime(d))
                continue
            }
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                w.element(name(key), text: String(item))
            }
        }
        w.end()
    }

    /// REQUEST-STATUS's iCalendar text (`code;description[;data]`) as its three elements.
    private static func writeRequestStatus(_ literal: String, to w: inout XMLByteWriter) {
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
        w.element(name("code"), text: parts[0])
        if parts.count > 1 { w.element(name("description"), text: parts[1]) }
        if parts.count > 2 { w.element(name("data"), text: parts[2]) }
    }
}
