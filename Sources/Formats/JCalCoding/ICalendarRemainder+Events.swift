import CalendarModel
import ICalendarData

extension ICalendarRemainder {
    /// The remainder between the iCalendar forms of two events: what `between(original:
    /// mapper.component(from: .event(original)), reconstructed: mapper.component(from:
    /// .event(reconstructed)))` gives, with less work. A JSON writer checks every event it
    /// writes this way, and most of an event's fields come back as they were: building both
    /// trees whole, comparing and freeing them was about half of a Graph body's check.
    ///
    /// `ICalendarMapper.emit` makes each typed field's properties from that field (and its
    /// recorded parameters, or a participant's words) alone, one property per value of a list.
    /// When no other part of either event makes a property of the field's name (a generic
    /// property may; a birthday's marks are made from other fields, so an event with one is
    /// compared whole), the name's instances in a tree are the field's, and:
    /// - equal fields make equal instances: the name is in no remainder, and the field is left
    ///   out of both trees, which changes neither what the others keep nor their order (the
    ///   order of first appearance of the names left);
    /// - fields whose properties differ (a value the property holds as it is, a list of
    ///   another length, a participant whose property is made and compared) leave the
    ///   original's instances kept, whatever the reconstructed event holds of that name: the
    ///   field is left out of the reconstructed tree only, so its properties are not made.
    /// Equal lists of generic properties whose names no typed field makes, and equal alarms
    /// and sub-components (compared apart from properties), are left out of both trees too.
    public static func between(original: Event, reconstructed: Event, mapper: ICalendarMapper) -> ICalendarRemainder {
        guard original.birthday == nil, reconstructed.birthday == nil else {
            return between(original: mapper.component(from: .event(original)), reconstructed: mapper.component(from: .event(reconstructed)))
        }
        let (a, b) = (original.item, reconstructed.item)
        // Names of generic properties that a typed field also makes: rare (X- names are most).
        // Looked at in place: a `for` loop copied each property (~450 instructions with its release).
        var shared: [String] = []
        func noteShared(_ list: [Property]) {
            list.withUnsafeBufferPointer { all in
                for i in all.indices where Self.isTypedFieldName(all[i].name) && !shared.contains(all[i].name) { shared.append(all[i].name) }
            }
        }
        noteShared(a.properties)
        noteShared(b.properties)
        let sameParameters = a.propertyParameters == b.propertyParameters
        func parametersEqual(_ name: String) -> Bool {
            sameParameters || a.propertyParameters[name] == b.propertyParameters[name]
        }
        // Fields are read and set directly: through key paths each cost thousands of instructions.
        /// Whether two participants make one property (`ICalendarMapper.participantProperty`),
        /// told from their addresses and parameters without making either.
        func sameProperty(_ x: Participant, _ y: Participant) -> Bool {
            guard x.url == y.url else { return false }
            var parameters: [(name: String, values: ParameterValues)] = []
            // A participant's usual parameters at once: grown one by one, the list was
            // reallocated three or four times a comparison.
            parameters.reserveCapacity(8)
            ICalendarMapper.forEachParameter(of: x, words: mapper.words(for: x)) { parameters.append(($0, $1)) }
            var (i, same) = (0, true)
            ICalendarMapper.forEachParameter(of: y, words: mapper.words(for: y)) { name, values in
                guard same, i < parameters.count, parameters[i].name == name, Self.same(parameters[i].values, values) else {
                    same = false
                    return
                }
                i += 1
            }
            return same && i == parameters.count
        }
        /// What to leave out for a field of one value held as it is in its property (`value`
        /// false: its property says less than the field, so differing fields are compared as
        /// properties).
        /// Unwrapped first: `Optional ==` copied both values (a date-time's strings) into a pair.
        func change<T: Equatable>(_ p: T?, _ q: T?, _ name: String, value: Bool = true, parameters: Bool = true) -> Change {
            guard let p, let q, !shared.contains(name) else { return .none }
            if p == q && (!parameters || parametersEqual(name)) { return .both }
            return value ? .reconstructed : .none
        }
        /// The same for a list of values, each made into one property (`value` as above).
        func change<T: Equatable>(_ p: [T], _ q: [T], _ name: String, value: Bool = true) -> Change {
            guard !p.isEmpty, !q.isEmpty, !shared.contains(name) else { return .none }
            if p.count != q.count { return .reconstructed }
            if p == q { return .both }
            return value ? .reconstructed : .none
        }
        /// The same for participants, whose properties are made and compared where they differ.
        /// Read in place: a `zip` copied each participant (a dozen strings) of both lists.
        func change(_ p: [Participant], _ q: [Participant], _ name: String) -> Change {
            guard !p.isEmpty, !q.isEmpty, !shared.contains(name) else { return .none }
            if p.count != q.count { return .reconstructed }
            return p.withUnsafeBufferPointer { x in
                q.withUnsafeBufferPointer { y in
                    for i in x.indices where x[i] != y[i] && !sameProperty(x[i], y[i]) { return .reconstructed }
                    return .both
                }
            }
        }
        /// The same for one participant (an organizer), without a list made of each.
        func change(_ p: Participant?, _ q: Participant?, _ name: String) -> Change {
            guard let p, let q, !shared.contains(name) else { return .none }
            return p == q || sameProperty(p, q) ? .both : .reconstructed
        }
        /// Leaves a field out of the trees as `change` says: the fields are left as they are
        /// and the mapper skips them (copying both events to clear fields cost four box copies
        /// and a release of each copied field).
        var (x, y): (EmittedFields, EmittedFields) = ([], [])
        func leave(_ change: Change, _ field: EmittedFields) {
            switch change {
            case .both:
                x.insert(field)
                y.insert(field)
            case .reconstructed: y.insert(field)
            case .none: break
            }
        }
        leave(change(a.uid, b.uid, "UID"), .uid)
        leave(change(a.timestamp, b.timestamp, "DTSTAMP"), .timestamp)
        leave(change(a.start, b.start, "DTSTART"), .start)
        // RANGE=THISANDFUTURE is a parameter of its own.
        switch change(a.recurrenceID, b.recurrenceID, "RECURRENCE-ID") {
        case .both where a.recurrenceAppliesToFuture == b.recurrenceAppliesToFuture: leave(.both, .recurrenceID)
        case .both, .reconstructed: leave(.reconstructed, .recurrenceID)
        case .none: break
        }
        leave(change(a.recurrenceRules, b.recurrenceRules, "RRULE"), .recurrenceRules)
        // A list of periods says nothing of its dates.
        leave(change(a.recurrenceDates, b.recurrenceDates, "RDATE", value: false), .recurrenceDates)
        leave(change(a.exceptionDates, b.exceptionDates, "EXDATE", value: false), .exceptionDates)
        leave(change(a.title, b.title, "SUMMARY"), .title)
        leave(change(a.location, b.location, "LOCATION"), .location)
        leave(change(a.geo, b.geo, "GEO"), .geo)
        // Its coordinates are written as text.
        leave(
            change(a.structuredLocation, b.structuredLocation, "X-APPLE-STRUCTURED-LOCATION", value: false, parameters: false),
            .structuredLocation)
        leave(change(a.notes, b.notes, "DESCRIPTION"), .notes)
        leave(change(a.url, b.url, "URL"), .url)
        // STATUS and CLASS are words, which a value of another case may spell too.
        leave(change(a.status, b.status, "STATUS", value: false), .status)
        leave(change(a.classification, b.classification, "CLASS", value: false), .classification)
        leave(change(a.priority, b.priority, "PRIORITY"), .priority)
        leave(change(a.categories, b.categories, "CATEGORIES"), .categories)
        leave(change(a.organizer, b.organizer, "ORGANIZER"), .organizer)
        leave(change(a.attendees, b.attendees, "ATTENDEE"), .attendees)
        leave(change(a.sequence, b.sequence, "SEQUENCE"), .sequence)
        leave(change(a.created, b.created, "CREATED"), .created)
        leave(change(a.lastModified, b.lastModified, "LAST-MODIFIED"), .lastModified)
        if shared.isEmpty, !a.properties.isEmpty || !b.properties.isEmpty, a.properties == b.properties {
            leave(.both, .properties)
        }
        if !a.alarms.isEmpty || !a.components.isEmpty || !b.alarms.isEmpty || !b.components.isEmpty, a.alarms == b.alarms,
            a.components == b.components
        {
            leave(.both, .components)
        }
        leave(change(original.end, reconstructed.end, "DTEND"), .end)
        leave(change(original.duration, reconstructed.duration, "DURATION"), .duration)
        leave(change(original.transparency, reconstructed.transparency, "TRANSP"), .transparency)
        // The original's tree is made for this comparison alone: what is kept is moved out of it.
        var source = mapper.component(from: .event(original), leavingOut: x)
        return between(taking: &source, reconstructed: mapper.component(from: .event(reconstructed), leavingOut: y))
    }

    /// Whether two parameters' values are one list (`.one` is a list of one).
    private static func same(_ a: ParameterValues, _ b: ParameterValues) -> Bool {
        switch (a, b) {
        case (.one(let x), .one(let y)): x == y
        case (.list(let x), .list(let y)): x == y
        case (.one(let x), .list(let y)), (.list(let y), .one(let x)): y.count == 1 && y[0] == x
        }
    }

    /// What of a typed field `between(original:reconstructed:mapper:)` leaves out of the trees.
    private enum Change {
        /// Nothing: the trees say whether its properties differ.
        case none
        /// The field in both: its properties are equal.
        case both
        /// The field in the reconstructed event: its properties differ, so the original's are kept.
        case reconstructed
    }

    /// Whether `ICalendarMapper.emit` makes properties of this name from an event's typed fields.
    private static func isTypedFieldName(_ name: String) -> Bool {
        // Most generic properties are X- ones, of which the mapper makes one.
        let u = name.utf8
        if u.count > 2, u.first == UInt8(ascii: "X"), u[u.index(after: u.startIndex)] == UInt8(ascii: "-") {
            return name == "X-APPLE-STRUCTURED-LOCATION"
        }
        return typedFieldNames.contains(name)
    }

    private static let typedFieldNames = Set(EmittedFields.eventPropertyNames.flatMap(\.names))
}
