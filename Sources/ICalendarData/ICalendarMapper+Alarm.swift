import CalendarModel

extension ICalendarMapper {
    func alarm(from component: Component) -> Alarm {
        var alarm = Alarm(action: .other(""))
        var hasAction = false
        var rest: [Property] = []
        func keep(_ p: Property) {
            if !p.parameters.isEmpty { alarm.propertyParameters[p.name] = p.parameters }
        }
        for property in component.properties {
            var taken = false
            switch PropertyTable.info(property.name).id {
            case .action where !hasAction:
                if let word = singleText(property.value) {
                    alarm.action = Self.action(word)
                    hasAction = true
                    taken = true
                }
            case .trigger where alarm.trigger == nil:
                let related = property.parameter("RELATED")?.value.uppercased()
                switch property.value {
                case .duration(let d) where related == nil || related == "START" || related == "END":
                    alarm.trigger = .relative(d, relativeToEnd: related == "END")
                    // RELATED=END lives in the trigger; an explicit RELATED=START stays a parameter.
                    var p = property
                    p.parameters.removeAll { $0.name == "RELATED" && related == "END" }
                    keep(p)
                    continue
                case .dateTimes(let d) where d.count == 1:
                    alarm.trigger = .absolute(d[0])
                    taken = true
                default: break
                }
            case .description where alarm.description == nil:
                if let t = singleText(property.value) { alarm.description = t; taken = true }
            case .summary where alarm.summary == nil:
                if let t = singleText(property.value) { alarm.summary = t; taken = true }
            case .duration where alarm.repeatInterval == nil:
                if case .duration(let d) = property.value { alarm.repeatInterval = d; taken = true }
            case .repeatCount where alarm.repeatCount == nil:
                if case .integer(let n) = property.value, n.count == 1 { alarm.repeatCount = n[0]; taken = true }
            case .uid where alarm.uid == nil:
                if let t = singleText(property.value) { alarm.uid = t; taken = true }
            case .proximity where alarm.proximity == nil:
                if let t = singleText(property.value), let p = Alarm.Proximity(rawValue: t) { alarm.proximity = p; taken = true }
            case .structuredLocation where alarm.structuredLocation == nil:
                if let loc = structuredLocation(from: property) {
                    alarm.structuredLocation = loc
                    continue
                }
            case .attendee:
                if let p = participant(from: property) {
                    alarm.attendees.append(p)
                    continue
                }
            default: break
            }
            if taken { keep(property) } else { rest.append(property) }
        }
        alarm.properties = rest
        alarm.components = component.components
        return alarm
    }

    static func action(_ word: String) -> Alarm.Action {
        switch word.uppercased() {
        case "DISPLAY": .display
        case "AUDIO": .audio
        case "EMAIL": .email
        case "PROCEDURE": .procedure
        default: .other(word)
        }
    }

    static func word(_ action: Alarm.Action) -> String {
        switch action {
        case .display: "DISPLAY"
        case .audio: "AUDIO"
        case .email: "EMAIL"
        case .procedure: "PROCEDURE"
        case .other(let w): w
        }
    }
}
