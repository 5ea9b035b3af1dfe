/// The iCalendar properties that carry what only Graph says (what EWS shares is in
/// `ExchangeProperties`), so that Graph → ICS → Graph brings it back.
enum GraphPropertyNames {
    /// Outlook's "allow new time proposals" switch, inverted, as Outlook writes it in ICS.
    static let disallowCounter = "X-MICROSOFT-DISALLOW-COUNTER"
    /// `onlineMeetingProvider` (teamsForBusiness, skypeForBusiness, …).
    static let onlineMeetingProvider = "X-MS-ONLINEMEETINGPROVIDER"
    /// A location's `locationType` and address parts inside a VLOCATION (RFC 9073 has no words for them).
    static let locationType = "LOCATION-TYPE"
    static let addressParts: [(member: String, property: String)] = [
        ("street", "X-MS-ADDRESS-STREET"), ("city", "X-MS-ADDRESS-CITY"), ("state", "X-MS-ADDRESS-STATE"),
        ("countryOrRegion", "X-MS-ADDRESS-COUNTRY"), ("postalCode", "X-MS-ADDRESS-POSTALCODE"),
    ]
    static let locationEmail = "X-MS-LOCATION-EMAIL"
    /// An attendee's proposed new time (ATTENDEE parameters, UTC).
    static let proposedStart = "X-MS-PROPOSED-START"
    static let proposedEnd = "X-MS-PROPOSED-END"
}
