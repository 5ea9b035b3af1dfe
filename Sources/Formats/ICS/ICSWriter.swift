import CalendarModel
import ICalendarData

/// Writes calendars as iCalendar text: CRLF line ends, lines folded at 75 octets without
/// splitting a UTF-8 sequence (RFC 5545 §3.1), a stable property order.
public struct ICSWriter: CalendarWriter {
    /// What is written for a calendar that does not say who produced it.
    public static let productID = "-//calport//calport 1.0//EN"

    private let sink: ByteSink
    private let mapper: ICalendarMapper
    private var buffer: [UInt8] = []
    private var line: [UInt8] = []

    public init(sink: ByteSink, mapper: ICalendarMapper = ICalendarMapper()) {
        self.sink = sink
        self.mapper = mapper
        buffer.reserveCapacity(1 << 16)
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let calendar):
            appendLine("BEGIN:VCALENDAR")
            var properties = mapper.properties(from: calendar)
            // VERSION and PRODID are required (RFC 5545 §3.6); supply them for calendars that
            // came from formats without them.
            if !properties.contains(where: { $0.name == "PRODID" }) {
                properties.insert(Property(name: "PRODID", value: .text([Self.productID])), at: 0)
            }
            if !properties.contains(where: { $0.name == "VERSION" }) {
                properties.insert(Property(name: "VERSION", value: .text(["2.0"])), at: 0)
            }
            for p in properties { append(p) }
        case .entry(let entry, _):
            append(mapper.component(from: entry))
        case .endCalendar(let trailing):
            for p in trailing { append(p) }
            appendLine("END:VCALENDAR")
        }
        if buffer.count >= 1 << 16 { try flush() }
    }

    public mutating func finish() throws {
        try flush()
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ component: Component) {
        appendLine("BEGIN:" + component.name)
        for p in component.properties { append(p) }
        for c in component.components { append(c) }
        appendLine("END:" + component.name)
    }

    private mutating func append(_ property: Property) {
        let definition = PropertyTable.definition(property.name)
        // TEXT is most of every file: escape it straight into the line instead of building Strings.
        var directText: [String]?
        var text = ""
        var declaredType: String?
        if case .text(let parts) = property.value {
            directText = parts
            declaredType = definition == nil ? "TEXT" : (definition!.defaultType == .text ? nil : "TEXT")
        } else {
            (text, declaredType) = ValueCodec.format(property.value, definition: definition)
        }
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: property.name.utf8)
        if let zone = Self.anchorZone(property.value), !property.parameters.contains(where: { $0.name == "TZID" }) {
            appendParameter(Parameter("TZID", zone))
        }
        if let declaredType, !property.parameters.contains(where: { $0.name == "VALUE" }) {
            appendParameter(Parameter("VALUE", declaredType))
        }
        if case .binary = property.value, !property.parameters.contains(where: { $0.name == "ENCODING" }) {
            appendParameter(Parameter("ENCODING", "BASE64"))
        }
        for parameter in property.parameters { appendParameter(parameter) }
        line.append(UInt8(ascii: ":"))
        if let directText {
            for (index, part) in directText.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                ValueCodec.appendEscaped(part, to: &line)
            }
        } else {
            line.append(contentsOf: text.utf8)
        }
        fold(line)
    }

    /// The zone that a TZID parameter must name for this value, if any.
    private static func anchorZone(_ value: PropertyValue) -> String? {
        switch value {
        case .dateTimes(let d): return d.first?.reference.zoneIdentifier
        case .periods(let p): return p.first?.start.reference.zoneIdentifier
        default: return nil
        }
    }

    private mutating func appendParameter(_ parameter: Parameter) {
        line.append(UInt8(ascii: ";"))
        line.append(contentsOf: parameter.name.utf8)
        // A parameter read without '=' is written back the same way.
        if parameter.values.isEmpty { return }
        line.append(UInt8(ascii: "="))
        for (index, value) in parameter.values.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            let encoded = Self.caretEncoded(value)
            var probe = encoded
            if probe.withUTF8({ $0.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C } }) || (value.isEmpty && parameter.values.count > 1) {
                line.append(UInt8(ascii: "\""))
                line.append(contentsOf: encoded.utf8)
                line.append(UInt8(ascii: "\""))
            } else {
                line.append(contentsOf: encoded.utf8)
            }
        }
    }

    /// RFC 6868: ^ → ^^, newline → ^n, " → ^'.
    private static func caretEncoded(_ value: String) -> String {
        var probe = value
        guard probe.withUTF8({ $0.contains { $0 == 0x5E || $0 == 0x0A || $0 == 0x22 || $0 == 0x0D } }) else { return value }
        var out = ""
        for c in value {
            switch c {
            case "^": out += "^^"
            case "\n", "\r\n", "\r": out += "^n"
            case "\"": out += "^'"
            default: out.append(c)
            }
        }
        return out
    }

    private mutating func appendLine(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0D)
        buffer.append(0x0A)
    }

    /// Folds at 75 octets, backing up to the start of a UTF-8 sequence so none is split.
    private mutating func fold(_ bytes: [UInt8]) {
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var cut = start + limit
            while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            buffer.append(contentsOf: bytes[start..<cut])
            buffer.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            limit = 74  // the leading space counts toward the next line's 75
        }
        buffer.append(contentsOf: bytes[start...])
        buffer.append(0x0D)
        buffer.append(0x0A)
    }
}
