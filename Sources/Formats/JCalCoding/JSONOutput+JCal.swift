import CalendarModel
import Foundation
import ICalendarData
import JSONCoding

/// Writes the generic component tree as jCal (RFC 7265 §3): lower-case names, parameters as an
/// object (one string, or an array for several values), the value type spelled out, values in
/// their JSON forms. Properties whose type the table does not know and whose value is
/// untyped are written as `unknown` with their raw iCalendar text (§5.1).
extension JSONOutput {
    /// Writes a component as `[name, [properties], [components]]`.
    public mutating func jcalComponent(_ c: Component) {
        beginArray()
        lowercasedString(c.name)
        beginArray()
        jcalProperties(c.properties)
        endArray()
        beginArray()
        for sub in c.components { jcalComponent(sub) }
        endArray()
        endArray()
    }

    /// The parameter that keeps the declared type of a value written as `unknown` because it
    /// did not parse as that type (`X-MAYBE;VALUE=BOOLEAN:MAYBE`) or is of an extension type.
    public static let declaredTypeParameter = "X-CALPORT-VALUE-TYPE"

    /// The zone a TZID parameter must name for a value, if any (the model keeps it in the value),
    /// and the declared type of an `unknown` value: what the parameters need of the value, found
    /// in one look at it (matching the value in `jcalProperty` itself copied the whole value,
    /// a recurrence rule's worth of bytes, for every property).
    private static func parameterFacts(_ value: UnsafePointer<PropertyValue>) -> (zone: String?, declaredType: String?) {
        switch value.pointee {
        case .dateTimes(let d): return (d.first?.reference.zoneIdentifier, nil)
        case .periods(let p): return (p.first?.start.reference.zoneIdentifier, nil)
        case .unknown(let type, _): return (nil, type)
        default: return (nil, nil)
        }
    }

    private mutating func jcalParameter(_ name: String, _ values: [String]) {
        lowercasedKey(name)
        if values.count == 1 {
            string(values[0])
        } else {
            beginArray()
            for v in values { string(v) }
            endArray()
        }
    }

    /// Writes each property of `list` (`jcalProperty`).
    public mutating func jcalProperties(_ list: [Property]) {
        // Read in place: a `for` loop, and an indexed one too, copied each property (a recurrence
        // rule's worth of bytes, and a retain of each of its parts) before writing it.
        list.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for i in 0..<all.count { jcalProperty(at: base + i) }
        }
    }

    /// Writes a property as `[name, {parameters}, type, value, …]`.
    public mutating func jcalProperty(_ p: Property) {
        withUnsafePointer(to: p) { jcalProperty(at: $0) }
    }

    /// `jcalProperty` of the property at `property`, read in place: passed by value to a
    /// method of the output (which the compiler cannot tell from the list holding it), each
    /// property was copied and released, ~20% of writing it.
    private mutating func jcalProperty(at property: UnsafePointer<Property>) {
        let (name, parameters) = (property.pointee.name, property.pointee.parameters)
        let value = property.pointer(to: \.value)!
        beginArray()
        lowercasedString(name)
        beginObject()
        let facts = Self.parameterFacts(value)
        if let zone = facts.zone, !parameters.contains(where: { $0.name == "TZID" }) {
            jcalParameter("TZID", [zone])
        }
        parameters.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                if all[i].name != "VALUE" { jcalParameter(all[i].name, all[i].values) }
                i += 1
            }
        }
        if let type = facts.declaredType {
            // A value that did not parse as its declared type, or of a type no table knows:
            // jCal cannot carry it under that type, so it travels as `unknown` (RFC 7265 §5)
            // and the declared type, spelled as the source spelled it, in a parameter of its own.
            jcalParameter(Self.declaredTypeParameter, [type])
        }
        endObject()
        jcalValue(value, name: name)
        endArray()
    }

    /// Writes the type and values of a property called `name` (its table entry is looked up
    /// only for untyped text, the one case that needs it: the lookup was ~10% of a property).
    private mutating func jcalValue(_ value: UnsafePointer<PropertyValue>, name: String) {
        switch value.pointee {
        case .text(let values):
            plainString("text")
            for v in values { string(v) }
        case .dateTimes(let values):
            if values.first?.isDateOnly ?? false { plainString("date") } else { plainString("date-time") }
            for v in values { dateTimeString(v) }
        case .periods(let values):
            plainString("period")
            for p in values {
                beginArray()
                dateTimeString(p.start)
                switch p.extent {
                case .end(let e): dateTimeString(e)
                case .duration(let d): string(d.rfc5545Text)
                }
                endArray()
            }
        case .duration(let d):
            plainString("duration")
            string(d.rfc5545Text)
        case .utcOffset(let seconds):
            plainString("utc-offset")
            string(ISO8601Text.utcOffset(seconds))
        case .recurrence(let rule):
            plainString("recur")
            jcalRecurrence(rule)
        case .integer(let values):
            plainString("integer")
            for v in values { int(v) }
        case .float(let values):
            plainString("float")
            for v in values { double(v) }
        case .boolean(let b):
            plainString("boolean")
            bool(b)
        case .geo(let latitude, let longitude):
            plainString("float")
            beginArray()
            double(latitude)
            double(longitude)
            endArray()
        case .binary(let bytes):
            plainString("binary")
            string(Data(bytes).base64EncodedString())
        case .uri(let u):
            plainString("uri")
            string(u)
        case .calendarAddress(let a):
            plainString("cal-address")
            string(a)
        case .times(let times, let utc):
            plainString("time")
            for t in times { string(ISO8601Text.time(t) + (utc ? "Z" : "")) }
        case .unknown(let type, let literal):
            // Structured text has two or three parts, so a `;`: the name is looked up only then
            // (the look-up cost more than writing the value; memchr skims a long HTML value).
            if type == nil, Self.containsSemicolon(literal), PropertyTable.info(name).isStructured, let parts = Self.structuredParts(literal) {
                // REQUEST-STATUS (RFC 7265 §3.4.1.2), when its parts give back the same text.
                plainString("text")
                beginArray()
                for part in parts { string(part) }
                endArray()
            } else {
                plainString("unknown")
                string(literal)
            }
        }
    }

    private static func containsSemicolon(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: ";")), bytes.count) != nil
        } ?? true
    }

    /// The unescaped parts of structured text, or nil when escaping them again would not give
    /// the same text (an unescaped comma, say) or the count is not two or three, in which case
    /// the value stays `unknown`.
    public static func structuredParts(_ literal: String) -> [String]? {
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
            } else if c == ";" {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        guard !escaped else { return nil }
        parts.append(current)
        // RFC 7265 §3.4.1.2 allows two or three parts; other counts stay `unknown`.
        guard (2...3).contains(parts.count) else { return nil }
        return parts.map(ICalendarValueText.escaped).joined(separator: ";") == literal ? parts : nil
    }

    private mutating func ruleList(_ name: String, _ values: [Int]) {
        guard !values.isEmpty else { return }
        key(name)
        if values.count == 1 {
            int(values[0])
        } else {
            beginArray()
            for v in values { int(v) }
            endArray()
        }
    }

    /// RFC 7265 §3.6.10: one member per rule part, a single value bare, several in an array.
    public mutating func jcalRecurrence(_ r: RecurrenceRule) {
        beginObject()
        if let scale = r.scale {
            key("rscale")
            string(scale)
        }
        key("freq")
        string(r.frequency.rawValue)
        switch r.end {
        case .until(let d):
            key("until")
            string(ISO8601Text.dateTime(d))
        case .count(let n):
            key("count")
            int(n)
        case nil: break
        }
        if r.interval != 1 || r.intervalWasExplicit {
            key("interval")
            int(r.interval)
        }
        ruleList("bysecond", r.bySecond)
        ruleList("byminute", r.byMinute)
        ruleList("byhour", r.byHour)
        if !r.daysOfTheWeek.isEmpty {
            key("byday")
            let days = r.daysOfTheWeek.map { ($0.weekNumber != 0 ? String($0.weekNumber) : "") + $0.weekday.code }
            if days.count == 1 {
                string(days[0])
            } else {
                beginArray()
                for d in days { string(d) }
                endArray()
            }
        }
        ruleList("bymonthday", r.daysOfTheMonth)
        ruleList("byyearday", r.daysOfTheYear)
        ruleList("byweekno", r.weeksOfTheYear)
        if !r.months.isEmpty {
            key("bymonth")
            // RFC 7529 leap months ("5L") can only be strings.
            if r.months.count == 1 {
                if r.months[0].isLeap { string("\(r.months[0].number)L") } else { int(r.months[0].number) }
            } else {
                beginArray()
                for m in r.months { if m.isLeap { string("\(m.number)L") } else { int(m.number) } }
                endArray()
            }
        }
        ruleList("bysetpos", r.setPositions)
        if let w = r.firstDayOfTheWeek {
            key("wkst")
            string(w.code)
        }
        if let skip = r.skip {
            key("skip")
            string(skip)
        }
        for part in r.extensionParts {
            lowercasedKey(part.name)
            string(part.value)
        }
        endObject()
    }
}
