import CalendarModel
import ICalendarData

/// The byte side of `ICSWriter`: content lines (RFC 5545 §3.1) written straight into one
/// buffer, escaped and folded on the way, from what `ICalendarMapper.emit` says or from
/// generic properties and components.
struct ICSContentLines: ICalendarEmitter {
    var out = ICSOutputBuffer()
    /// Where a line longer than 75 octets is folded, kept to reuse its storage.
    private var cuts: [Int] = []

    /// The bytes written so far (tests).
    var bytes: [UInt8] { out.bytes }

    mutating func begin(_ name: String) {
        out.makeUnique()
        out.append(literal: "BEGIN:")
        out.append(name)
        out.append(0x0D, 0x0A)
    }

    mutating func end(_ name: String) {
        out.makeUnique()
        out.append(literal: "END:")
        out.append(name)
        out.append(0x0D, 0x0A)
    }

    mutating func component(_ component: Component) {
        begin(component.name)
        for p in component.properties { property(p) }
        for c in component.components { self.component(c) }
        end(component.name)
    }

    mutating func property(_ property: Property) {
        writeLine(property.name, property.parameters, property.value, defaultType: PropertyTable.defaultType(property.name))
    }

    mutating func property(_ name: TypedName, _ parameters: [Parameter], _ value: TypedValue) {
        // The single values typed fields hold skip the array a PropertyValue needs; each writes
        // what `property(_: Property)` writes for the same value.
        switch value {
        case .text(let text):
            let type = ValueCodec.declaredType(.text, defaultType: name.defaultType)
            let start = beginLine(name.name, parameters, zone: nil, declaredType: type, binary: false)
            ValueCodec.appendEscaped(text, to: &out)
            out.endLine(from: start, cuts: &cuts)
        case .dateTime(let d):
            let type = ValueCodec.declaredType(d.isDateOnly ? .date : .dateTime, defaultType: name.defaultType)
            let start = beginLine(name.name, parameters, zone: d.reference.zoneIdentifier, declaredType: type, binary: false)
            d.appendBasicISO(to: &out)
            out.endLine(from: start, cuts: &cuts)
        case .integer(let n):
            let type = ValueCodec.declaredType(.integer, defaultType: name.defaultType)
            let start = beginLine(name.name, parameters, zone: nil, declaredType: type, binary: false)
            out.appendDecimal(n)
            out.endLine(from: start, cuts: &cuts)
        case .value(let v):
            writeLine(name.name, parameters, v, defaultType: name.defaultType)
        }
    }

    mutating func participant(_ name: TypedName, _ participant: Participant, words: ParticipantWords) {
        guard ValueCodec.declaredType(.calAddress, defaultType: name.defaultType) == nil else {
            // A VALUE parameter to add (never for ATTENDEE and ORGANIZER): the generic path
            // places it among the participant's parameters.
            property(ICalendarMapper.participantProperty(name.name, participant, words: words))
            return
        }
        out.makeUnique()
        let start = out.count
        out.append(name.name)
        ICalendarMapper.forEachParameter(of: participant, words: words) { name, values in
            switch values {
            case .one(let v): appendParameter(name, v, inList: false)
            case .list(let list): appendParameter(name, list)
            }
        }
        out.append(UInt8(ascii: ":"))
        out.append(participant.url)
        out.endLine(from: start, cuts: &cuts)
    }

    /// Writes one content line of a generic value, `defaultType` being its property's.
    private mutating func writeLine(_ name: String, _ parameters: [Parameter], _ value: PropertyValue, defaultType: ValueType?) {
        var binary = false
        if case .binary = value { binary = true }
        let start = beginLine(
            name, parameters, zone: Self.anchorZone(value), declaredType: ValueCodec.declaredType(value, defaultType: defaultType),
            binary: binary)
        ValueCodec.append(value, to: &out)
        out.endLine(from: start, cuts: &cuts)
    }

    /// Begins a content line: the name; the parameters the value implies (TZID, VALUE,
    /// ENCODING) unless `parameters` has them; `parameters`; the colon. Returns where the line
    /// starts, for `endLine` to fold it.
    private mutating func beginLine(
        _ name: String, _ parameters: [Parameter], zone: String?, declaredType: String?, binary: Bool
    ) -> Int {
        out.makeUnique()
        let start = out.count
        out.append(name)
        if let zone, !parameters.contains(where: { $0.name == "TZID" }) { appendParameter("TZID", zone, inList: false) }
        if let declaredType, !parameters.contains(where: { $0.name == "VALUE" }) { appendParameter("VALUE", declaredType, inList: false) }
        if binary, !parameters.contains(where: { $0.name == "ENCODING" }) { appendParameter("ENCODING", "BASE64", inList: false) }
        for parameter in parameters { appendParameter(parameter.name, parameter.values) }
        out.append(UInt8(ascii: ":"))
        return start
    }

    /// The zone that a TZID parameter must name for this value, if any.
    private static func anchorZone(_ value: PropertyValue) -> String? {
        switch value {
        case .dateTimes(let d): return d.first?.reference.zoneIdentifier
        case .periods(let p): return p.first?.start.reference.zoneIdentifier
        default: return nil
        }
    }

    private mutating func appendParameter(_ name: String, _ values: [String]) {
        out.append(UInt8(ascii: ";"))
        out.append(name)
        // A parameter read without '=' is written back the same way.
        if values.isEmpty { return }
        out.append(UInt8(ascii: "="))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendParameterValue(value, inList: values.count > 1)
        }
    }

    private mutating func appendParameter(_ name: String, _ value: String, inList: Bool) {
        out.append(UInt8(ascii: ";"))
        out.append(name)
        out.append(UInt8(ascii: "="))
        appendParameterValue(value, inList: inList)
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,`, begins or ends with a space (or
    /// is empty among several),
    /// caret-encoded (RFC 6868) when it holds `^`, a line break or `"`.
    private mutating func appendParameterValue(_ value: String, inList: Bool) {
        // Most values (words, names, addresses) need no caret encoding: scanned and copied in
        // one access to their UTF-8, the specials below 0x40 found by one bit test each.
        let quoteMask: UInt64 = 1 << 0x3A | 1 << 0x3B | 1 << 0x2C
        let encodeMask: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x22
        let copied = value.utf8.withContiguousStorageIfAvailable { b -> Bool in
            var quote = b.isEmpty && inList
            for c in b where c < 0x40 || c == 0x5E {
                if c == 0x5E || (1 << c) & encodeMask != 0 { return false }
                if (1 << c) & quoteMask != 0 { quote = true }
            }
            // A space (or tab) at either end is part of the value only inside quotes (readers trim
            // it); two compares, since this runs for every parameter written.
            if !b.isEmpty, b[0] <= 0x20 || b[b.count - 1] <= 0x20 { quote = true }
            if quote { out.append(UInt8(ascii: "\"")) }
            out.append(b)
            if quote { out.append(UInt8(ascii: "\"")) }
            return true
        }
        if copied == true { return }
        let edges = [value.utf8.first, value.utf8.last]
        let quote =
            value.utf8.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C } || (value.isEmpty && inList)
            || edges.contains { $0 == 0x20 || $0 == 0x09 }
        if quote { out.append(UInt8(ascii: "\"")) }
        out.append(Self.caretEncoded(value))
        if quote { out.append(UInt8(ascii: "\"")) }
    }

    /// RFC 6868: ^ → ^^, newline → ^n, " → ^'. By Character, so a `"` or `^` that a combining
    /// mark joins stays as it is (rare: only values holding these characters come here).
    private static func caretEncoded(_ value: String) -> String {
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
}
