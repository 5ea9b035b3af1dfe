import CalendarModel
import ICalendarData

/// Types a content line's value through the property table and the VALUE parameter, and
/// moves TZID into the date-time values it anchors.
struct PropertyDecoder {
    let options: ReadOptions
    let log: DiagnosticLog

    func property(from line: ContentLine) throws -> Property {
        var parameters = line.parameters
        let definition = PropertyTable.definition(line.name)
        var declared: String?
        if let index = parameters.firstIndex(where: { $0.name == "VALUE" }), parameters[index].values.count == 1 {
            declared = parameters[index].value
            parameters.remove(at: index)
        }
        let type: ValueType?
        if let declared {
            type = ValueType(rawValue: declared.uppercased())
        } else if var t = definition?.defaultType {
            // A bare 8-digit date where a DATE-TIME is the default: ubiquitous, so read it as
            // the DATE it plainly is, and say so.
            if t == .dateTime, definition?.allowedTypes.contains(.date) == true, looksLikeDates(line.value) {
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
            value = try ValueCodec.parse(
                line.value, as: type, list: definition?.isList ?? false, structured: definition?.isStructured ?? false)
        } catch let failure as ValueCodec.Failure {
            if options.strict {
                throw CalendarError(.data, file: options.sourceName, line: line.line, "\(line.name): \(failure.message)")
            }
            log.warning(file: options.sourceName, line: line.line, "\(line.name): \(failure.message); kept as text")
            return Property(name: line.name, parameters: parameters, value: .unknown(type: declared, literal: line.value))
        }
        if case .recurrence(let rule) = value, let problem = rule.validationProblems.first {
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
        if parameters.filter({ $0.name == "TZID" }).count == 1, let tzIndex = parameters.firstIndex(where: { $0.name == "TZID" }),
            parameters[tzIndex].values.count == 1
        {
            let zone = parameters[tzIndex].value
            if value.anchor(inZone: zone) { parameters.remove(at: tzIndex) }
        }
        return Property(name: line.name, parameters: parameters, value: value)
    }

    private func looksLikeDates(_ raw: String) -> Bool {
        raw.utf8.count >= 8 && raw.split(separator: ",").allSatisfy { $0.utf8.count == 8 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }
}
