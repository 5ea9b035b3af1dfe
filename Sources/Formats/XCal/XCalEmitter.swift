import CalendarModel
import ICalendarData
import XMLSupport

/// Writes what `ICalendarMapper.emit` says straight into xCal elements, as `ICSContentLines`
/// does for iCalendar text: no component tree is built for an item. The output is what
/// `XCalEncoder` writes for the tree `ICalendarMapper.component(from:)` would have built
/// (`emit` says a component's properties before its sub-components, which is the order
/// xCal's `<properties>` then `<components>` need).
struct XCalEmitter: ICalendarEmitter {
    var xml: XMLByteWriter
    var encoder: XCalEncoder

    /// Which part of each open component is open.
    private enum Section {
        case none, properties, components
    }

    private var sections: [Section] = []

    init(xml: XMLByteWriter) {
        var xml = xml
        encoder = XCalEncoder(&xml)
        self.xml = xml
    }

    mutating func begin(_ name: String) {
        enterComponents()
        encoder.startComponent(name, to: &xml)
        sections.append(.none)
    }

    mutating func end(_ name: String) {
        if let section = sections.popLast(), section != .none { xml.end() }
        xml.end()
    }

    mutating func property(_ name: TypedName, _ parameters: [Parameter], _ value: TypedValue) {
        enterProperties()
        encoder.write(name.name, parameters, value, to: &xml)
    }

    mutating func participant(_ name: TypedName, _ participant: Participant, words: ParticipantWords) {
        enterProperties()
        encoder.write(name.name, participant, words: words, to: &xml)
    }

    mutating func property(_ property: Property) {
        enterProperties()
        encoder.write(property, to: &xml)
    }

    /// Opens the open component's `<properties>`, if not yet.
    private mutating func enterProperties() {
        guard let section = sections.last, section != .properties else { return }
        // `emit` says no property after a sub-component; were one to come, it would start a
        // second `<properties>`.
        if section == .components { xml.end() }
        xml.start(encoder.propertiesTag)
        sections[sections.count - 1] = .properties
    }

    mutating func component(_ component: Component) {
        enterComponents()
        encoder.write(component, to: &xml)
    }

    /// Closes the open component's `<properties>` and opens its `<components>`, if not yet.
    private mutating func enterComponents() {
        guard let section = sections.last, section != .components else { return }
        if section == .properties { xml.end() }
        xml.start(encoder.componentsTag)
        sections[sections.count - 1] = .components
    }
}
