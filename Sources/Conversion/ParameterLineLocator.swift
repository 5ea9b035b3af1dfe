import CalendarModel

#if canImport(Glibc)
    import Glibc
#endif

/// Finds the line of an iCalendar input where a parameter value is used inside one item, for
/// warnings that must name that line rather than the item's BEGIN (an unknown TZID on line 8,
/// not the VEVENT on line 4). Stages see the model, which keeps no line per property; warnings
/// are rare, so the input is read again for each one instead of every item carrying its lines.
///
/// Only files are read (not standard input or collections), and only content lines: in a JSON
/// or XML input nothing matches and the item's line stands.
struct ParameterLineLocator {
    /// The input file.
    let path: String

    /// The first line at or after `itemLine` and before the item's END whose content line
    /// (unfolded) has the parameter `name` with the value `value`; nil when there is none.
    func line(ofParameter name: String, value: String, inItemAt itemLine: Int) -> Int? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let wanted = Array(value.utf8)
        let upperName = Array(name.uppercased().utf8)
        var lineNumber = 0
        var logical: [UInt8] = []
        var logicalStart = 0
        var buffer = [CChar](repeating: 0, count: 8192)
        var physical: [UInt8] = []
        /// Whether the logical line just ended matches, or ends the item.
        func finishLogical() -> (match: Bool, end: Bool) {
            defer { logical = [] }
            guard logicalStart >= itemLine, !logical.isEmpty else { return (false, false) }
            if logicalStart > itemLine, Self.itemEnds.contains(where: { logical.starts(with: $0) }) { return (false, true) }
            return (Self.has(parameter: upperName, value: wanted, in: logical), false)
        }
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let chunk = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            physical += chunk
            guard physical.last == 0x0A else { continue }
            lineNumber += 1
            var text = physical
            physical = []
            while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
            if let first = text.first, first == 0x20 || first == 0x09 {
                logical += text.dropFirst()
                continue
            }
            let (match, end) = finishLogical()
            if match { return logicalStart }
            if end { return nil }
            logical = text
            logicalStart = lineNumber
        }
        return finishLogical().match ? logicalStart : nil
    }

    /// The lines that end an item (an alarm's END does not).
    private static let itemEnds = ["END:VEVENT", "END:VTODO", "END:VJOURNAL", "END:VFREEBUSY"].map { Array($0.utf8) }

    /// Whether a content line's parameters (before its first unquoted colon) include
    /// `NAME=value` or `NAME="value"`; the name in any case.
    static func has(parameter name: [UInt8], value: [UInt8], in line: [UInt8]) -> Bool {
        var i = 0
        var quoted = false
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && c == UInt8(ascii: ":") { return false }
            if !quoted && c == UInt8(ascii: ";") {
                let start = i + 1
                let end = start + name.count
                if end < line.count, line[end] == UInt8(ascii: "="),
                    zip(line[start..<end], name).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 })
                {
                    var v = end + 1
                    let isQuoted = v < line.count && line[v] == UInt8(ascii: "\"")
                    if isQuoted { v += 1 }
                    let after = v + value.count
                    if after <= line.count, line[v..<after].elementsEqual(value) {
                        let terminator = after < line.count ? line[after] : UInt8(ascii: ":")
                        let expected: [UInt8] = isQuoted ? [UInt8(ascii: "\"")] : [UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ",")]
                        if expected.contains(terminator) { return true }
                    }
                }
            }
            i += 1
        }
        return false
    }
}
