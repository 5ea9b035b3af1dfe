import CalendarModel
import Foundation
import ICalendarData
import JSONCoding
import XMLSupport

/// Turns xCal elements (RFC 6321 §3) into the generic component tree that the iCalendar
/// mapper types, with the ICS reader's conventions: names upper-cased, the value typed by its
/// element (so no VALUE parameter), TZID moved into the date-times it anchors, REQUEST-STATUS
/// kept as its iCalendar text. What does not parse is kept as an `.unknown` value with a
/// warning (an error in strict mode).
///
/// The ISO 8601 extended forms come from `ISO8601Text` (module JSONCoding): xCal and jCal
/// share them exactly (RFC 6321 §3.6 and RFC 7265 §3.6 define the same lexical forms).
struct XCalDecoder {
    let options: ReadOptions
    let log: DiagnosticLog

    func fail(_ element: XCalElement, _ message: String) -> CalendarError {
        CalendarError(.data, file: options.sourceName, line: element.line, location: element.path, message)
    }

    /// A repair lenient mode makes and says so; strict mode refuses it.
    func repair(_ element: XCalElement, _ message: String) throws {
        try repair(line: element.line, path: element.path, message)
    }

    /// A repair at `line` and `path`.
    func repair(line: Int, path: String, _ message: String) throws {
        if options.strict { throw CalendarError(.data, file: options.sourceName, line: line, location: path, message) }
        log.warning(file: options.sourceName, line: line, location: path, message)
    }

    /// The element as an xCal element: itself, or calport's spelling of an iCalendar name that
    /// is not an XML name renamed to that name; nil for any other namespace.
    static func resolved(_ element: XCalElement) -> XCalElement? {
        if element.isXCal { return element }
        guard element.namespace == XCalNames.extensionNamespace, let name = element.attribute("name") else { return nil }
        element.tree.rename(element.id, to: XCalNames.name(name.lowercased()))
        return element
    }

    /// Children in the xCal namespace; anything else is an extension element, skipped with a warning.
    func xcalChildren(_ element: XCalElement) throws -> XCalChildren {
        if element.tree.allXCal { return element.xcalChildren }
        // Nearly always every child is xCal's. Otherwise each other child is resolved to the
        // xCal element it stands for (renamed in the tree) or skipped with a warning, and the
        // children that are then xCal's are the ones read.
        var all = element.allChildren
        while let child = all.next() {
            if !child.isXCal && Self.resolved(child) == nil {
                try repair(child, "element \(child.name) is not in the xCal namespace; skipped")
            }
        }
        return element.xcalChildren
    }

    func component(_ element: XCalElement) throws -> Component {
        var component = Component(name: element.upperLocal)
        for child in try xcalChildren(element) {
            switch child.role {
            case .properties:
                // Moved rather than appended when it is the first (as nearly always).
                if component.properties.isEmpty {
                    component.properties = try properties(child)
                } else {
                    component.properties += try properties(child)
                }
            case .components:
                let list = try xcalChildren(child)
                component.components.reserveCapacity(component.components.count + list.underestimatedCount)
                for grandchild in list { component.components.append(try self.component(grandchild)) }
            default:
                try repair(child, "\(element.local) holds \(child.local), which is neither properties nor components; skipped")
            }
        }
        return component
    }

    // The loops below call the decoder's methods directly: `map(property)` made a closure that
    // copied the decoder (its options' strings and dictionaries retained and released) for
    // every list, a twentieth of decoding.

    func properties(_ element: XCalElement) throws -> [Property] {
        let children = try xcalChildren(element)
        var read: [Property] = []
        read.reserveCapacity(children.underestimatedCount)
        for child in children { read.append(try property(child)) }
        return read
    }

    func property(_ element: XCalElement) throws -> Property {
        let name = element.upperLocal
        var parameters: [Parameter] = []
        let children = try xcalChildren(element)
        var valueCount = 0
        for child in children {
            if child.role == .parameters {
                // Room made at once, as `map` made it (appending grew the array by copies).
                let list = try xcalChildren(child)
                parameters.reserveCapacity(parameters.count + list.underestimatedCount)
                for element in list { parameters.append(try parameter(element)) }
            } else {
                valueCount += 1
            }
        }
        // The value elements, gathered on the stack: an array of them per property cost an
        // allocation and its release, a twentieth of decoding.
        var value = try withUnsafeTemporaryAllocation(of: XCalElement.self, capacity: valueCount) { buffer in
            var filled = 0
            // Free for a trivial element, but right if one ever holds a reference.
            defer { _ = UnsafeMutableBufferPointer(rebasing: buffer[..<filled]).deinitialize() }
            for child in children where child.role != .parameters {
                buffer.initializeElement(at: filled, to: child)
                filled += 1
            }
            return try self.value(UnsafeBufferPointer(rebasing: buffer[..<filled]), of: element, property: name)
        }
        if case .unknown(nil, let literal) = value, let i = parameters.firstIndex(where: { $0.name == XCalNames.declaredTypeParameter }),
            parameters[i].values.count == 1
        {
            value = .unknown(type: parameters[i].value, literal: literal)
            parameters.remove(at: i)
        }
        value.anchor(inZoneOf: &parameters)
        return Property(name: name, parameters: parameters, value: value)
    }

    func parameter(_ element: XCalElement) throws -> Parameter {
        let name = element.upperLocal
        var values: [String] = []
        for v in try xcalChildren(element) {
            values.append(v.role == .boolean ? v.trimmedText.uppercased() : v.text)
        }
        if values.isEmpty && element.trimmedText.isEmpty {
            // A parameter without a value (`;ENCODING;…` in old exports) is an empty element.
            return Parameter(name: name, values: [])
        }
        guard !values.isEmpty else {
            // A parameter written with its value as bare text, as in RFC 6321's own B.2 example.
            try repair(element, "parameter \(element.local) has no value element; its text is read as the value")
            return Parameter(name, element.trimmedText)
        }
        return Parameter(name: name, values: values)
    }

    private struct Mismatch: Error {
        var message: String
    }

    /// The typed value of a property's value elements.
    func value(_ values: UnsafeBufferPointer<XCalElement>, of property: XCalElement, property name: String) throws -> PropertyValue {
        // Looked up only where a value is repaired: most values never need it.
        var definition: PropertyDefinition? { PropertyTable.definition(name) }
        if values.isEmpty {
            let text = property.text
            guard !text.allSatisfy(\.isWhitespace) else { throw fail(property, "property \(property.local) has no value") }
            // RFC 6321's B.2 example writes `<tzid>US/Eastern</tzid>` (an erratum): text
            // straight inside the property, read as the property's default type.
            try repair(
                property,
                "property \(property.local) has no value element; its text is read as \(definition?.defaultType.lowercaseName ?? "unknown")"
            )
            let type = definition?.defaultType
            let synthetic = property.tree.make(
                name: XCalNames.name(type?.lowercaseName ?? "unknown"), text: text, line: property.line, path: property.path)
            return try [synthetic].withUnsafeBufferPointer { try value($0, of: property, property: name) }
        }
        // Structured values are recognized by their parts, not by a type element.
        if values.contains(where: { $0.role == .latitude }) {
            guard let lat = values.first(where: { $0.local == "latitude" }).flatMap({ Double($0.trimmedText) }),
                let lon = values.first(where: { $0.local == "longitude" }).flatMap({ Double($0.trimmedText) }),
                lat.isFinite, lon.isFinite
            else {
                try repair(property, "geo needs a numeric latitude and longitude; kept as text")
                return .unknown(type: nil, literal: values.map(\.text).joined(separator: ";"))
            }
            return .geo(latitude: lat, longitude: lon)
        }
        if values.contains(where: { $0.role == .code }) {
            // REQUEST-STATUS (RFC 6321 §3.4.1.3): the parts become the iCalendar text the model keeps.
            var parts = [values.first { $0.local == "code" }?.text ?? ""]
            for part in ["description", "data"] {
                if let value = values.first(where: { $0.local == part }) { parts.append(ICalendarValueText.escaped(value.text)) }
            }
            return .unknown(type: nil, literal: parts.joined(separator: ";"))
        }
        // Names are told apart by number: the values are all xCal's, so two have one local
        // name exactly when they have one name.
        let typeNumber = values[0].nameNumber
        var typeName: String { values[0].local }
        if let other = values.first(where: { $0.nameNumber != typeNumber }), !(Set([typeName, other.local]) == ["date", "date-time"]) {
            throw fail(other, "property \(property.local) mixes \(typeName) and \(other.local) values")
        }
        if values[0].role == .unknown {
            return .unknown(type: nil, literal: values.map(\.text).joined(separator: ","))
        }
        guard let type = values[0].valueType, type != .geo else {
            // A value type this table does not know (an X- type): kept as the literal it is.
            return .unknown(type: typeName.uppercased(), literal: values.map(\.text).joined(separator: ","))
        }
        do {
            return try typed(values, type: type)
        } catch let m as Mismatch {
            try repair(property, "\(property.local) is not a valid \(typeName) value (\(m.message)); kept as text")
            // As the ICS reader keeps it: the literal in iCalendar's form, the type declared only
            // where it differs from the property's default.
            let declared = type == definition?.defaultType ? nil : type.rawValue
            return .unknown(type: declared, literal: values.map(Self.icalendarLiteral).joined(separator: ","))
        }
    }

    /// A value element's text in iCalendar's form, as far as it can be converted: extended
    /// ISO dates become basic ones, a period becomes `start/end`.
    static func icalendarLiteral(_ v: XCalElement) -> String {
        func basic(_ s: String) -> String {
            ISO8601Text.parseDateTime(s, allowDate: true)?.basicISO ?? s
        }
        if v.local == "period" {
            let start = v.child(XCalNames.name("start")).map { basic($0.trimmedText) } ?? ""
            let rest =
                v.child(XCalNames.name("end")).map { basic($0.trimmedText) } ?? v.child(XCalNames.name("duration"))?.trimmedText ?? ""
            return start + "/" + rest
        }
        if v.local == "date" || v.local == "date-time" { return basic(v.trimmedText) }
        // A rule's text is in its part elements: v.text alone was empty, and RRULE lost its value.
        if v.local == "recur" { return (try? recurrenceText(v, untilMustParse: false)) ?? v.text }
        return v.text
    }

    private func typed(_ values: UnsafeBufferPointer<XCalElement>, type: ValueType) throws -> PropertyValue {
        func single() throws -> XCalElement {
            guard values.count == 1 else { throw Mismatch(message: "\(values.count) values where one is allowed") }
            return values[0]
        }
        switch type {
        case .text:
            return .text(values.map(\.text))
        case .date, .dateTime:
            return .dateTimes(
                try values.map { v in
                    let isDate = v.role == .date
                    guard let d = Self.dateTime(v, allowDate: isDate), d.isDateOnly == isDate else {
                        throw Mismatch(message: "'\(v.trimmedText)'")
                    }
                    return d
                })
        case .period:
            return .periods(
                try values.map { v in
                    guard let startText = v.child(XCalNames.name("start"))?.trimmedText,
                        let start = ISO8601Text.parseDateTime(startText, allowDate: true)
                    else {
                        throw Mismatch(message: "a period needs a start date-time")
                    }
                    if let end = v.child(XCalNames.name("end"))?.trimmedText {
                        guard let e = ISO8601Text.parseDateTime(end, allowDate: true) else { throw Mismatch(message: "end '\(end)'") }
                        return CalendarPeriod(start: start, extent: .end(e))
                    }
                    guard let text = v.child(XCalNames.name("duration"))?.trimmedText, let d = ISO8601Text.parseDuration(text) else {
                        throw Mismatch(message: "a period needs an end or a duration")
                    }
                    return CalendarPeriod(start: start, extent: .duration(d))
                })
        case .duration:
            let s = try single().trimmedText
            guard let d = ISO8601Text.parseDuration(s) else { throw Mismatch(message: "'\(s)'") }
            return .duration(d)
        case .utcOffset:
            let s = try single().trimmedText
            guard let o = ISO8601Text.parseUTCOffset(s) else { throw Mismatch(message: "'\(s)'") }
            return .utcOffset(o)
        case .recur:
            return .recurrence(try recurrence(try single()))
        case .integer:
            return .integer(
                try values.map { v in
                    let s = v.trimmedText
                    guard let n = Int(s.hasPrefix("+") ? String(s.dropFirst()) : s) else { throw Mismatch(message: "'\(s)'") }
                    return n
                })
        case .float:
            return .float(
                try values.map { v in
                    let s = v.trimmedText
                    guard let d = Double(s.hasPrefix("+") ? String(s.dropFirst()) : s), d.isFinite else {
                        throw Mismatch(message: "'\(s)'")
                    }
                    return d
                })
        case .geo:
            throw Mismatch(message: "geo is not an xCal value type")
        case .boolean:
            switch try single().trimmedText.lowercased() {
            case "true", "1": return .boolean(true)
            case "false", "0": return .boolean(false)
            case let other: throw Mismatch(message: "'\(other)'")
            }
        case .binary:
            let s = try single().text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: s) else { throw Mismatch(message: "not base64") }
            return .binary([UInt8](data))
        case .uri:
            return .uri(try single().text)
        case .calAddress:
            return .calendarAddress(try single().text)
        case .time:
            var utc = false
            let times = try values.map { v -> TimeOfDay in
                let s = v.trimmedText
                guard let (t, isUTC) = ISO8601Text.parseTime(s) else { throw Mismatch(message: "'\(s)'") }
                if isUTC { utc = true }
                return t
            }
            return .times(times, utc: utc)
        }
    }

    /// The date-time a value element holds, parsed from the tree's bytes when they are its
    /// trimmed text, else from that text.
    static func dateTime(_ v: XCalElement, allowDate: Bool) -> CalendarDateTime? {
        switch v.tree.withPlainText(of: v.id, { ISO8601Text.parseDateTime($0, allowDate: allowDate) }) {
        case .some(let parsed): return parsed
        case .none: return ISO8601Text.parseDateTime(v.trimmedText, allowDate: allowDate)
        }
    }

    /// RFC 6321 §3.6.10: each part is an element, repeated for lists; they become RFC 5545
    /// rule text, parsed by the model's own rule parser so both syntaxes are checked alike.
    func recurrence(_ element: XCalElement) throws -> RecurrenceRule {
        do {
            return try RecurrenceRule(rfc5545: try Self.recurrenceText(element, untilMustParse: true))
        } catch let e as RecurrenceRule.SyntaxError {
            throw Mismatch(message: e.message)
        }
    }

    /// The rule's part elements as RFC 5545's `NAME=a,b` parts (repeated elements of a part are one list), UNTIL
    /// in the basic form (as written when it is no date, unless `untilMustParse`).
    static func recurrenceText(_ element: XCalElement, untilMustParse: Bool) throws -> String {
        var parts: [(name: String, values: [String])] = []
        var partIndex: [String: Int] = [:]
        for child in element.xcalChildren {
            let key = child.upperLocal
            var text = child.trimmedText
            if key == "UNTIL" {
                if let d = ISO8601Text.parseDateTime(text, allowDate: true) {
                    text = d.basicISO
                } else if untilMustParse {
                    throw Mismatch(message: "until '\(text)'")
                }
            }
            if let i = partIndex[key] {
                parts[i].values.append(text)
            } else {
                partIndex[key] = parts.count
                parts.append((key, [text]))
            }
        }
        return ICalendarValueText.recurrence(parts)
    }
}
