import CalendarModel
import ICalendarData

/// Types a content line's value through the property table and the VALUE parameter, and
/// moves TZID into the date-time values it anchors.
struct PropertyDecoder {
    let options: ReadOptions
    let log: DiagnosticLog

    func property(from line: __owned ContentLine) throws -> Property {
        var line = line
        // Taken out, not copied: the line is done with once its property is made.
        var parameters: [Parameter] = []
        swap(&parameters, &line.parameters)
        let info = line.info
        var declared: String?
        if !parameters.isEmpty, let index = parameters.firstIndex(where: { Self.isNamed($0, "VALUE") }),
            parameters[index].values.count == 1
        {
            declared = parameters[index].value
            parameters.remove(at: index)
        }
        let type: ValueType?
        if let declared {
            type = ValueType(rawValue: declared.uppercased())
        } else if var t = info.defaultType {
            // A bare 8-digit date where a DATE-TIME is the default: ubiquitous, so read it as
            // the DATE it plainly is, and say so.
            if t == .dateTime, info.allowsDate, line.withValueBytes(looksLikeDates) {
                t = .date
                log.warning(file: options.sourceName, line: line.line, "\(line.name) holds a DATE without VALUE=DATE; read as a date")
            }
            type = t
        } else {
            type = nil
        }
        guard let type else {
            return Property(name: line.name, parameters: parameters, value: .unknown(type: declared, literal: line.value))
        }
        // BINARY needs ENCODING=BASE64 (RFC 5545 §3.3.1); without it the text is kept as it was.
        if type == .binary, !parameters.contains(where: { $0.name == "ENCODING" && $0.value.uppercased() == "BASE64" }) {
            log.warning(file: options.sourceName, line: line.line, "\(line.name): VALUE=BINARY without ENCODING=BASE64; kept as text")
            return Property(name: line.name, parameters: parameters, value: .unknown(type: declared, literal: line.value))
        }
        var value: PropertyValue
        do {
            // The bytes first: most values read from them without a String of their text (a
            // String made while parsing is read by the general path, which keeps it).
            if line.valueText == nil, let fast = line.withValueBytes({ ValueCodec.parse(bytes: $0, as: type, list: info.isList, structured: info.isStructured) }) {
                value = fast
            } else {
                value = try ValueCodec.parse(line.value, as: type, list: info.isList, structured: info.isStructured)
            }
        } catch let failure as ValueCodec.Failure {
            if options.strict {
                throw CalendarError(.data, file: options.sourceName, line: line.line, "\(line.name): \(failure.message)")
            }
            log.warning(file: options.sourceName, line: line.line, "\(line.name): \(failure.message); kept as text")
            return Property(name: line.name, parameters: parameters, value: .unknown(type: declared, literal: line.value))
        }
        // The type test first spares the other values a copy for the pattern match.
        if type == .recur, case .recurrence(let rule) = value, let problem = rule.validationProblems.first {
            if options.strict {
                throw CalendarError(.data, file: options.sourceName, line: line.line, "\(line.name): \(problem)")
            }
            log.warning(file: options.sourceName, line: line.line, "\(line.name): \(problem)")
        }
        if type == .date, case .dateTimes(let d) = value, d.contains(where: { !$0.isDateOnly }) {
            // VALUE=DATE with a date-time value: keep it verbatim rather than guess.
            log.warning(file: options.sourceName, line: line.line, "\(line.name): VALUE=DATE but a DATE-TIME value; kept as text")
            return Property(name: line.name, parameters: parameters, value: .unknown(type: declared, literal: line.value))
        }
        if !parameters.isEmpty { value.anchor(inZoneOf: &parameters) }
        return Property(name: line.name, parameters: parameters, value: consume value)
    }

    /// The value of a line holding one TEXT, DATE-TIME or INTEGER of its property's default
    /// type (no VALUE parameter, not a list), decoded as `property(from:)` would decode it, with
    /// the same warning, and TZID taken into a date-time; nil, having said nothing, for any other
    /// line or a value that does not read cleanly, which `property(from:)` then words.
    func scalar(from line: inout ContentLine) -> ICalendarMapper.ScalarValue? {
        let info = line.info
        guard let type = info.defaultType, !info.isList, !info.isStructured else { return nil }
        for parameter in line.parameters where Self.isNamed(parameter, "VALUE") { return nil }
        switch type {
        case .text:
            // A String made while parsing is kept when there is nothing to undo.
            if let text = line.valueText { return .text(ValueCodec.unescape(text)) }
            return .text(line.withValueBytes(ValueCodec.unescape))
        case .integer:
            return line.withValueBytes(ValueCodec.plainInteger).map { .integer($0) }
        case .dateTime:
            guard var date = line.withValueBytes({ CalendarDateTime(basicISO: $0) }) else { return nil }
            // A DATE read cleanly is 8 digits: what `property(from:)` reads as a date and warns of.
            if info.allowsDate, date.isDateOnly {
                log.warning(file: options.sourceName, line: line.line, "\(line.name) holds a DATE without VALUE=DATE; read as a date")
            }
            if !line.parameters.isEmpty { date.anchor(inZoneOf: &line.parameters) }
            return .date(date)
        default:
            return nil
        }
    }

    /// Whether a parameter has an upper-case name; the length test first keeps most mismatches
    /// from reaching a String comparison.
    @inline(__always)
    private static func isNamed(_ parameter: Parameter, _ name: String) -> Bool {
        parameter.name.utf8.count == name.utf8.count && parameter.name == name
    }

    /// Whether the text is a comma-separated list of 8-digit dates (empty items are skipped).
    private func looksLikeDates(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 8 else { return false }
        var run = 0
        for c in b {
            if c == UInt8(ascii: ",") {
                guard run == 0 || run == 8 else { return false }
                run = 0
            } else {
                guard c >= 48 && c <= 57, run < 8 else { return false }
                run += 1
            }
        }
        return run == 0 || run == 8
    }
}
