import CalendarModel
import Conversion
import Foundation

/// Writes and reads an event's participants through formats, in memory, the way the
/// converter does: each hop is a format's writer then the same format's reader.
enum ParticipantHops {
    /// One attendee per EventKit role, status and type (and one word no table knows), each
    /// with only that value set, so a hop's loss shows on the value it concerns.
    static func sampleEvent() -> Event {
        var event = Event(item: CalendarItem(uid: "vocabulary-1", title: "Every participant word", start: .day(2024, 5, 17)))
        for (i, r) in ParticipantRole.eventKitCases.enumerated() {
            event.item.attendees.append(Participant(url: "mailto:role-\(i)@example.com", role: r))
        }
        for (i, s) in ParticipantStatus.eventKitCases.enumerated() {
            event.item.attendees.append(Participant(url: "mailto:status-\(i)@example.com", status: s))
        }
        for (i, t) in ParticipantType.eventKitCases.enumerated() {
            event.item.attendees.append(Participant(url: "mailto:type-\(i)@example.com", type: t))
        }
        event.item.attendees.append(
            Participant(
                url: "mailto:other@example.com", role: .other("X-MODERATOR"), status: .other("X-ON-HOLD"), type: .other("X-VEHICLE")))
        event.item.organizer = Participant(name: "Chair", url: "mailto:chair@example.com", role: .chair, type: .person)
        return event
    }

    /// The event after passing through each format in turn.
    static func hop(_ event: Event, through formats: [any CalendarFormat], overrides: VocabularyOverrides = .none) throws -> Event {
        var current = event
        for format in formats {
            let sink = MemoryByteSink()
            let log = DiagnosticLog()
            var writer = format.makeWriter(
                sink: sink, options: WriteOptions(destinationName: "memory", vocabularyOverrides: overrides), log: log)
            var calendar = CalendarModel.Calendar(title: "Vocabulary")
            calendar.productID = "-//calport//vocabulary test//EN"
            calendar.version = "2.0"
            try writer.write(.beginCalendar(calendar))
            try writer.write(.entry(.event(current), line: 1))
            try writer.write(.endCalendar(trailingProperties: []))
            try writer.finish()
            var reader = format.makeReader(
                source: MemoryByteSource(sink.bytes), options: ReadOptions(sourceName: "memory", vocabularyOverrides: overrides), log: log)
            var found: Event?
            while let element = try reader.next() {
                if case .entry(.event(let e), _) = element { found = e }
            }
            guard let found else { throw CalendarError(.data, file: format.id, "the event did not come back") }
            current = found
        }
        return current
    }

    /// A participant of an event by address.
    static func participant(_ url: String, in event: Event) -> Participant? {
        event.item.attendees.first { $0.url == url }
    }
}
