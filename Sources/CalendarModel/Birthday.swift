/// What makes an event one of a birthday calendar's: the contact it comes from and the date
/// it recalls. EventKit exposes only the contact (`EKEvent.birthdayContactIdentifier`); the
/// date parts are kept too because several sources have no birth year, which a plain
/// DTSTART cannot say.
public struct Birthday: Hashable, Sendable {
    /// Which contact date the event recalls (vCard BDAY, ANNIVERSARY, DEATHDATE).
    public enum Occasion: String, CaseIterable, Hashable, Sendable {
        case birthday, anniversary, deathDate
    }

    /// Which date of the contact the event recalls.
    public var occasion: Occasion
    /// The contact's identifier in the source's address book (EventKit's
    /// `birthdayContactIdentifier`), when the source names it.
    public var contactIdentifier: String?
    /// Month 1...12.
    public var month: Int
    /// Day 1...31.
    public var day: Int
    /// The year the date happened; nil when the contact has none (Apple's X-APPLE-OMIT-YEAR,
    /// vCard `--MMDD`).
    public var year: Int?

    /// A birthday (or other contact date) on a month and day, with its year when known.
    public init(occasion: Occasion = .birthday, contactIdentifier: String? = nil, month: Int, day: Int, year: Int? = nil) {
        self.occasion = occasion
        self.contactIdentifier = contactIdentifier
        self.month = month
        self.day = day
        self.year = year
    }

    /// Whether the date is February 29, which common years do not have.
    public var isLeapDay: Bool { month == 2 && day == 29 }
}
