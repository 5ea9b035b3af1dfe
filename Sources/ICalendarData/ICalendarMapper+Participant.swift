import CalendarModel

extension ICalendarMapper {
    /// A participant from ATTENDEE or ORGANIZER; nil when the value is not an address.
    func participant(from property: Property) -> Participant? {
        let address: String
        switch property.value {
        case .calendarAddress(let a), .uri(let a): address = a
        default: return nil
        }
        // The fields are gathered in locals and the participant made once at the end: building
        // it first and changing it field by field copied the whole participant on return.
        var name: String?
        var role: ParticipantRole?
        var status: ParticipantStatus?
        var type: ParticipantType?
        var expectsReply: Bool?
        var delegatedTo: [String] = []
        var delegatedFrom: [String] = []
        var sentBy: String?
        var members: [String] = []
        var directory: String?
        var language: String?
        var email: String?
        var extraParameters: [Parameter] = []
        for parameter in property.parameters {
            let id = ParameterID(name: parameter.name)
            // Single-valued parameters go to typed fields only when they hold exactly one value.
            if parameter.values.count == 1 {
                let v = parameter.values[0]
                var typed = true
                switch id {
                case .cn where name == nil: name = v
                case .role where role == nil: role = vocabulary.role(for: v)
                case .partstat where status == nil: status = vocabulary.status(for: v)
                case .cutype where type == nil: type = vocabulary.type(for: v)
                case .rsvp where expectsReply == nil:
                    // The upper-case spelling needs no case folding.
                    let word = v == "TRUE" || v == "FALSE" ? v : v.uppercased()
                    if word == "TRUE" || word == "FALSE" { expectsReply = word == "TRUE" } else { typed = false }
                case .sentBy where sentBy == nil: sentBy = v
                case .dir where directory == nil: directory = v
                case .language where language == nil: language = v
                case .email where email == nil: email = v
                default: typed = false
                }
                if typed { continue }
            }
            switch id {
            case .delegatedTo where delegatedTo.isEmpty && !parameter.values.isEmpty: delegatedTo = parameter.values
            case .delegatedFrom where delegatedFrom.isEmpty && !parameter.values.isEmpty: delegatedFrom = parameter.values
            case .member where members.isEmpty && !parameter.values.isEmpty: members = parameter.values
            default: extraParameters.append(parameter)
            }
        }
        return Participant(
            name: name, url: address, role: role, status: status, type: type, expectsReply: expectsReply,
            delegatedTo: delegatedTo, delegatedFrom: delegatedFrom, sentBy: sentBy, members: members, directory: directory,
            language: language, email: email, extraParameters: extraParameters)
    }

    /// The vocabulary words for a participant's type, role and status.
    public func words(for p: Participant) -> ParticipantWords {
        ParticipantWords(
            type: p.type.flatMap { vocabulary.word(for: $0) }, role: p.role.flatMap { vocabulary.word(for: $0) },
            status: p.status.flatMap { vocabulary.word(for: $0) })
    }

    /// The parameters of ATTENDEE or ORGANIZER, in the order they are written. Inlinable so that
    /// a writer's `body` is inlined into it rather than called through a closure per parameter.
    @inlinable
    public static func forEachParameter(of p: Participant, words: ParticipantWords, _ body: (String, ParameterValues) -> Void) {
        if let v = p.name { body("CN", .one(v)) }
        if let w = words.type { body("CUTYPE", .one(w)) }
        if let w = words.role { body("ROLE", .one(w)) }
        if let w = words.status { body("PARTSTAT", .one(w)) }
        if let r = p.expectsReply { body("RSVP", .one(r ? "TRUE" : "FALSE")) }
        if !p.delegatedTo.isEmpty { body("DELEGATED-TO", .list(p.delegatedTo)) }
        if !p.delegatedFrom.isEmpty { body("DELEGATED-FROM", .list(p.delegatedFrom)) }
        if let v = p.sentBy { body("SENT-BY", .one(v)) }
        if !p.members.isEmpty { body("MEMBER", .list(p.members)) }
        if let v = p.directory { body("DIR", .one(v)) }
        if let v = p.language { body("LANGUAGE", .one(v)) }
        if let v = p.email { body("EMAIL", .one(v)) }
        for parameter in p.extraParameters { body(parameter.name, .list(parameter.values)) }
    }

    /// ATTENDEE or ORGANIZER as a generic property.
    public static func participantProperty(_ name: String, _ p: Participant, words: ParticipantWords) -> Property {
        // Room for the usual CN, CUTYPE, ROLE, PARTSTAT and RSVP at once: grown one by one,
        // the list was reallocated three or four times per participant.
        var parameters: [Parameter] = []
        parameters.reserveCapacity(8)
        forEachParameter(of: p, words: words) { name, values in
            switch values {
            case .one(let v): parameters.append(Parameter(name, v))
            case .list(let l): parameters.append(Parameter(name: name, values: l))
            }
        }
        return Property(name: name, parameters: parameters, value: .calendarAddress(p.url))
    }

    /// Apple's X-APPLE-STRUCTURED-LOCATION: a `geo:` URI with the title and radius as parameters.
    func structuredLocation(from property: Property) -> StructuredLocation? {
        let text: String
        switch property.value {
        case .uri(let u): text = u
        case .text(let t) where t.count == 1: text = t[0]
        case .unknown(_, let literal): text = literal
        default: return nil
        }
        var location = StructuredLocation()
        if let coordinates = GeoCoordinate.numbers(inGeoURI: text) {
            // Only take values whose text a rewrite reproduces; others stay generic, unchanged.
            guard coordinates.count == 2, let lat = Double(coordinates[0]), let lon = Double(coordinates[1]),
                "geo:\(Self.number(lat)),\(Self.number(lon))" == text
            else { return nil }
            location.latitude = lat
            location.longitude = lon
        } else if !text.isEmpty {
            return nil
        }
        for parameter in property.parameters {
            switch parameter.name {
            case "X-TITLE" where location.title == nil && parameter.values.count == 1: location.title = parameter.value
            case "X-APPLE-RADIUS" where location.radius == nil && parameter.values.count == 1 && Double(parameter.value).map(Self.number) == parameter.value:
                location.radius = Double(parameter.value)
            default: location.extraParameters.append(parameter)
            }
        }
        return location
    }

    @usableFromInline
    func structuredLocationProperty(_ location: StructuredLocation) -> Property {
        var parameters: [Parameter] = []
        if let t = location.title { parameters.append(Parameter("X-TITLE", t)) }
        if let r = location.radius { parameters.append(Parameter("X-APPLE-RADIUS", Self.number(r))) }
        parameters += location.extraParameters
        var value = ""
        if let lat = location.latitude, let lon = location.longitude { value = "geo:\(Self.number(lat)),\(Self.number(lon))" }
        return Property(name: "X-APPLE-STRUCTURED-LOCATION", parameters: parameters, value: .uri(value))
    }

    /// A number without a trailing ".0".
    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
