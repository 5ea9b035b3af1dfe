import CalendarModel

extension ICalendarMapper {
    /// Typed calendar fields and the source properties that may fill them, preferred first.
    private static let calendarSynonyms: [(field: String, names: [String])] = [
        ("title", ["X-WR-CALNAME", "NAME"]),
        ("description", ["X-WR-CALDESC", "DESCRIPTION"]),
        ("color", ["X-APPLE-CALENDAR-COLOR", "COLOR"]),
        ("subscriptionURL", ["SOURCE"]),
        ("refreshInterval", ["REFRESH-INTERVAL", "X-PUBLISHED-TTL"]),
        ("defaultTimeZone", ["X-WR-TIMEZONE"]),
        ("productID", ["PRODID"]), ("version", ["VERSION"]), ("scale", ["CALSCALE"]), ("method", ["METHOD"]),
    ]

    /// The calendar described by a VCALENDAR's own properties.
    public func calendar(from properties: [Property]) -> Calendar {
        var calendar = Calendar()
        var rest: [Property] = []
        for property in properties {
            guard let field = Self.calendarSynonyms.first(where: { $0.names.contains(property.name) })?.field,
                calendar.spellings[field] == nil, set(field, of: &calendar, from: property.value)
            else {
                rest.append(property)
                continue
            }
            calendar.spellings[field] = property.name
            if !property.parameters.isEmpty { calendar.propertyParameters[property.name] = property.parameters }
        }
        calendar.properties = rest
        return calendar
    }

    /// The VCALENDAR properties for a calendar: typed fields first, in RFC order, then the rest.
    public func properties(from calendar: Calendar) -> [Property] {
        var out: [Property] = []
        func add(_ field: String, _ value: PropertyValue?) {
            guard let value else { return }
            let name = calendar.spellings[field] ?? Self.calendarSynonyms.first { $0.field == field }!.names[0]
            var parameters = calendar.propertyParameters[name] ?? []
            // RFC 7986 §5.7: REFRESH-INTERVAL must state its value type, default or not.
            if name == "REFRESH-INTERVAL", !parameters.contains(where: { $0.name == "VALUE" }) {
                parameters.insert(Parameter("VALUE", "DURATION"), at: 0)
            }
            out.append(Property(name: name, parameters: parameters, value: value))
        }
        add("productID", calendar.productID.map { .text([$0]) })
        add("version", calendar.version.map { .text([$0]) })
        add("scale", calendar.scale.map { .text([$0]) })
        add("method", calendar.method.map { .text([$0]) })
        add("title", calendar.title.map { .text([$0]) })
        add("description", calendar.description.map { .text([$0]) })
        add("color", calendar.color.map { .text([$0]) })
        add("defaultTimeZone", calendar.defaultTimeZone.map { .text([$0]) })
        add("subscriptionURL", calendar.subscriptionURL.map { .uri($0) })
        add("refreshInterval", calendar.refreshInterval.map { .duration($0) })
        return out + calendar.properties
    }

    private func set(_ field: String, of calendar: inout Calendar, from value: PropertyValue) -> Bool {
        switch (field, value) {
        case ("subscriptionURL", .uri(let u)): calendar.subscriptionURL = u
        case ("refreshInterval", .duration(let d)): calendar.refreshInterval = d
        case (_, .text(let t)) where t.count == 1:
            switch field {
            case "title": calendar.title = t[0]
            case "description": calendar.description = t[0]
            case "color": calendar.color = t[0]
            case "defaultTimeZone": calendar.defaultTimeZone = t[0]
            case "productID": calendar.productID = t[0]
            case "version": calendar.version = t[0]
            case "scale": calendar.scale = t[0]
            case "method": calendar.method = t[0]
            default: return false
            }
        default: return false
        }
        return true
    }
}
