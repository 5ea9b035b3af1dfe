import CalendarModel
import ICalendarData

/// The byte side of `ICSWriter`: content lines (RFC 5545 §3.1) written straight into one
/// buffer, escaped and folded on the way, from what `ICalendarMapper.emit` says or from
/// generic properties and components.
struct ICSContentLines: ICalendarEmitter {
    var bytes: [UInt8] = []
    /// Where a line longer than 75 octets is folded, kept to reuse its storage.
    private var cuts: [Int] = []

    init() {
        bytes.reserveCapacity(1 << 17)
    }

    mutating func begin(_ name: String) {
        bytes.append(contentsOf: "BEGIN:".utf8)
        ValueCodec.appendUTF8(name, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    mutating func end(_ name: String) {
        bytes.append(contentsOf: "END:".utf8)
        ValueCodec.appendUTF8(name, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    mutating func component(_ component: Component) {
        begin(component.name)
        for p in component.properties { property(p) }
        for c in component.components { self.component(c) }
        end(component.name)
    }

    mutating func property(_ property: Property) {
        let value = property.value
        var binary = false
        if case .binary = value { binary = true }
        writeLine(
            property.name, property.parameters, zone: Self.anchorZone(value),
            declaredType: ValueCodec.declaredType(value, defaultType: PropertyTable.defaultType(property.name)),
            binary: binary
        ) { ValueCodec.append(value, to: &$0) }
    }

    mutating func property(_ name: TypedName, _ parameters: [Parameter], _ value: TypedValue) {
        // The single values typed fields hold skip the array a PropertyValue needs; each writes
        // what `property(_: Property)` writes for the same value.
        switch value {
        case .text(let text):
            let type = ValueCodec.declaredType(.text, defaultType: name.defaultType)
            writeLine(name.name, parameters, zone: nil, declaredType: type, binary: false) { ValueCodec.appendEscaped(text, to: &$0) }
        case .dateTime(let d):
            let type = ValueCodec.declaredType(d.isDateOnly ? .date : .dateTime, defaultType: name.defaultType)
            writeLine(name.name, parameters, zone: d.reference.zoneIdentifier, declaredType: type, binary: false) {
                d.appendBasicISO(to: &$0)
            }
        case .integer(let n):
            let type = ValueCodec.declaredType(.integer, defaultType: name.defaultType)
            writeLine(name.name, parameters, zone: nil, declaredType: type, binary: false) { $0.appendDecimal(n) }
        case .value(let v):
            property(Property(name: name.name, parameters: parameters, value: v))
        }
    }

    mutating func participant(_ name: TypedName, _ participant: Participant, words: ParticipantWords) {
        guard ValueCodec.declaredType(.calAddress, defaultType: name.defaultType) == nil else {
            // A VALUE parameter to add (never for ATTENDEE and ORGANIZER): the generic path
            // places it among the participant's parameters.
            property(ICalendarMapper.participantProperty(name.name, participant, words: words))
            return
        }
        let start = bytes.count
        ValueCodec.appendUTF8(name.name, to: &bytes)
        ICalendarMapper.forEachParameter(of: participant, words: words) { name, values in
            switch values {
            case .one(let v): appendParameter(name, v, inList: false)
            case .list(let list): appendParameter(name, list)
            }
        }
        bytes.append(UInt8(ascii: ":"))
        ValueCodec.appendUTF8(participant.url, to: &bytes)
        endLine(from: start)
    }

    /// Writes one content line: the name; the parameters the value implies (TZID, VALUE,
    /// ENCODING) unless `parameters` has them; `parameters`; the value; folded.
    private mutating func writeLine(
        _ name: String, _ parameters: [Parameter], zone: String?, declaredType: String?, binary: Bool,
        value: (inout [UInt8]) -> Void
    ) {
        let start = bytes.count
        ValueCodec.appendUTF8(name, to: &bytes)
        if let zone, !parameters.contains(where: { $0.name == "TZID" }) { appendParameter("TZID", zone, inList: false) }
        if let declaredType, !parameters.contains(where: { $0.name == "VALUE" }) { appendParameter("VALUE", declaredType, inList: false) }
        if binary, !parameters.contains(where: { $0.name == "ENCODING" }) { appendParameter("ENCODING", "BASE64", inList: false) }
        for parameter in parameters { appendParameter(parameter.name, parameter.values) }
        bytes.append(UInt8(ascii: ":"))
        value(&bytes)
        endLine(from: start)
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
        bytes.append(UInt8(ascii: ";"))
        ValueCodec.appendUTF8(name, to: &bytes)
        // A parameter read without '=' is written back the same way.
        if values.isEmpty { return }
        bytes.append(UInt8(ascii: "="))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendParameterValue(value, inList: values.count > 1)
        }
    }

    private mutating func appendParameter(_ name: String, _ value: String, inList: Bool) {
        bytes.append(UInt8(ascii: ";"))
        ValueCodec.appendUTF8(name, to: &bytes)
        bytes.append(UInt8(ascii: "="))
        appendParameterValue(value, inList: inList)
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,` (or is empty among several),
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
            if quote { bytes.append(UInt8(ascii: "\"")) }
            bytes.append(contentsOf: b)
            if quote { bytes.append(UInt8(ascii: "\"")) }
            return true
        }
        if copied == true { return }
        let quote = value.utf8.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C } || (value.isEmpty && inList)
        if quote { bytes.append(UInt8(ascii: "\"")) }
        ValueCodec.appendUTF8(Self.caretEncoded(value), to: &bytes)
        if quote { bytes.append(UInt8(ascii: "\"")) }
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

    /// Ends the line that began at `start`: folds it at 75 octets, backing up to the start of
    /// a UTF-8 sequence so none is split, and adds CRLF.
    private mutating func endLine(from start: Int) {
        let end = bytes.count
        if end - start > 75 {
            // Folded in place: find the cuts, grow the buffer by a CRLF and space for each, then
            // move the pieces after each cut right, the last first, so no piece is overwritten
            // before it has moved.
            cuts.removeAll(keepingCapacity: true)
            bytes.withUnsafeBufferPointer { line in
                var from = start
                var limit = 75
                while end - from > limit {
                    var cut = from + limit
                    while cut > from + 1, line[cut] & 0xC0 == 0x80 { cut -= 1 }
                    cuts.append(cut)
                    from = cut
                    limit = 74  // the leading space counts toward the next line's 75
                }
            }
            bytes.append(contentsOf: repeatElement(0, count: 3 * cuts.count))
            bytes.withUnsafeMutableBufferPointer { buffer in
                // Every index below is within the line, which is within the buffer.
                guard let base = buffer.baseAddress else { return }
                var pieceEnd = end
                for k in stride(from: cuts.count, to: 0, by: -1) {
                    let cut = cuts[k - 1]
                    let shift = 3 * k
                    UnsafeMutableRawPointer(base + cut + shift).copyMemory(from: base + cut, byteCount: pieceEnd - cut)
                    base[cut + shift - 3] = 0x0D
                    base[cut + shift - 2] = 0x0A
                    base[cut + shift - 1] = 0x20
                    pieceEnd = cut
                }
            }
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }
}
