import CalendarModel

/// The iCalendar words for participants (RFC 5545 §3.2.3 CUTYPE, §3.2.12 PARTSTAT, §3.2.16
/// ROLE), shared by ICS, jCal and xCal, which each register it under their own format id.
public enum ICalendarVocabulary {
    /// The vocabulary, registered under `formatID`.
    public static func vocabulary(formatID: String) -> ParticipantVocabulary {
        ParticipantVocabulary(
            formatID: formatID, roleField: "ROLE", statusField: "PARTSTAT", typeField: "CUTYPE",
            roles: [
                (.required, "REQ-PARTICIPANT"), (.optional, "OPT-PARTICIPANT"), (.chair, "CHAIR"),
                (.nonParticipant, "NON-PARTICIPANT"),
            ],
            statuses: [
                (.pending, "NEEDS-ACTION"), (.accepted, "ACCEPTED"), (.declined, "DECLINED"),
                (.tentative, "TENTATIVE"), (.delegated, "DELEGATED"), (.completed, "COMPLETED"),
                (.inProcess, "IN-PROCESS"),
            ],
            types: [
                (.person, "INDIVIDUAL"), (.group, "GROUP"), (.resource, "RESOURCE"), (.room, "ROOM"),
                (.unknown, "UNKNOWN"),
            ])
    }
}
