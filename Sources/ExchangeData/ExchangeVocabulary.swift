import CalendarModel

/// Exchange's words, in both of its spellings (EWS's PascalCase, Graph's camelCase): the
/// participant vocabularies the two formats register, and the tables for busy status,
/// sensitivity and importance. Readers and writers look words up here and nowhere else.
public enum ExchangeVocabulary {
    /// EWS: role by the list an attendee is in, status by `ResponseType`, type by `MailboxType`
    /// (rooms and resources are the `Resources` list's mailboxes; distribution lists are groups).
    /// `Organizer` reads as accepted (the reader also makes that attendee the chair). Every word
    /// is a schema enumeration or a list's name, so a word no table knows cannot be written.
    public static let ews = ParticipantVocabulary(
        formatID: "ews", roleField: "attendee list", statusField: "ResponseType", typeField: "MailboxType",
        roles: [
            (.required, "RequiredAttendees"), (.optional, "OptionalAttendees"), (.nonParticipant, "Resources"),
            (.chair, "RequiredAttendees"), (.unknown, "RequiredAttendees"),
        ],
        statuses: [
            (.unknown, "Unknown"), (.accepted, "Accept"), (.tentative, "Tentative"), (.declined, "Decline"),
            (.pending, "NoResponseReceived"), (.accepted, "Organizer"),
        ],
        types: [
            (.person, "Mailbox"), (.group, "PublicDL"), (.group, "PrivateDL"), (.group, "GroupMailbox"),
            (.unknown, "Unknown"), (.person, "OneOff"), (.person, "Contact"), (.resource, "Mailbox"),
            (.room, "Mailbox"),
        ],
        caseInsensitive: false, keepsUnknownWords: false)

    /// Microsoft Graph: role by attendee `type`, status by `status.response`; Graph has no kinds
    /// beyond `resource` (rooms and resources alike); its words are enumerations, so unknown
    /// words cannot be written.
    public static let graph = ParticipantVocabulary(
        formatID: "graph", roleField: "type", statusField: "status.response", typeField: "type",
        roles: [
            (.required, "required"), (.optional, "optional"), (.nonParticipant, "resource"), (.chair, "required"),
            (.unknown, "required"),
        ],
        statuses: [
            (.unknown, "none"), (.accepted, "accepted"), (.tentative, "tentativelyAccepted"), (.declined, "declined"),
            (.pending, "notResponded"), (.accepted, "organizer"),
        ],
        types: [(.resource, "resource"), (.room, "resource"), (.person, "required"), (.person, "optional")],
        caseInsensitive: false, keepsUnknownWords: false)

    /// The organizer's own response word, which marks the organizer among the attendees.
    public static let organizerResponse = (ews: "Organizer", graph: "organizer")

    /// The `MailboxType` words of distribution lists, which become CUTYPE=GROUP.
    public static let groupMailboxTypes: Set<String> = ["PublicDL", "PrivateDL", "GroupMailbox"]
}

/// How busy an Exchange item makes its owner: EWS `LegacyFreeBusyStatus`, Graph `showAs`.
/// Free is TRANSP:TRANSPARENT; the rest are opaque, and the words TRANSP cannot tell apart
/// travel in `ExchangeProperties.busyStatus` (Outlook's X-MICROSOFT-CDO-BUSYSTATUS).
public enum ExchangeBusyStatus: String, CaseIterable, Sendable {
    case free, tentative, busy, outOfOffice, workingElsewhere, noData

    /// The EWS word.
    public var ews: String {
        switch self {
        case .free: "Free"
        case .tentative: "Tentative"
        case .busy: "Busy"
        case .outOfOffice: "OOF"
        case .workingElsewhere: "WorkingElsewhere"
        case .noData: "NoData"
        }
    }

    /// The Graph word.
    public var graph: String {
        switch self {
        case .free: "free"
        case .tentative: "tentative"
        case .busy: "busy"
        case .outOfOffice: "oof"
        case .workingElsewhere: "workingElsewhere"
        case .noData: "unknown"
        }
    }

    /// The X-MICROSOFT-CDO-BUSYSTATUS word (Outlook's iCalendar export).
    public var cdo: String {
        switch self {
        case .free: "FREE"
        case .tentative: "TENTATIVE"
        case .busy: "BUSY"
        case .outOfOffice: "OOF"
        case .workingElsewhere: "WORKINGELSEWHERE"
        case .noData: "NODATA"
        }
    }

    /// The EventKit availability (working elsewhere and no data have none of their own: busy,
    /// and nil).
    public var availability: Event.Availability? {
        switch self {
        case .free: .free
        case .tentative: .tentative
        case .busy, .workingElsewhere: .busy
        case .outOfOffice: .unavailable
        case .noData: nil
        }
    }

    /// TRANSP: only free time is transparent.
    public var transparency: String { self == .free ? "TRANSPARENT" : "OPAQUE" }

    /// Whether TRANSP and the model's availability say all of it (so no CDO property is needed).
    public var isPlain: Bool { self == .free || self == .busy }

    /// The status with this EWS word (case-insensitive), nil for an unknown word.
    public init?(ews word: String) {
        guard let found = Self.allCases.first(where: { $0.ews.lowercased() == word.lowercased() }) else { return nil }
        self = found
    }

    /// The status with this Graph word (case-insensitive).
    public init?(graph word: String) {
        // Graph's own spelling first, with no case folding (each fold makes a String); the
        // words differ in more than case, so an exact match is the status the folded one finds.
        if let exact = Self.allCases.first(where: { $0.graph == word }) {
            self = exact
            return
        }
        let lowered = word.lowercased()
        guard let found = Self.allCases.first(where: { $0.graph.lowercased() == lowered }) else { return nil }
        self = found
    }

    /// The status with this X-MICROSOFT-CDO-BUSYSTATUS word (case-insensitive).
    public init?(cdo word: String) {
        let upper = word.uppercased()
        guard let found = Self.allCases.first(where: { $0.cdo == upper }) else { return nil }
        self = found
    }

    /// What an item says without a CDO word: its availability, else TRANSP (TRANSPARENT is free).
    public init(availability: Event.Availability?, transparency: String?) {
        switch availability {
        case .free: self = .free
        case .tentative: self = .tentative
        case .unavailable: self = .outOfOffice
        case .busy: self = .busy
        case nil: self = transparency?.uppercased() == "TRANSPARENT" ? .free : .busy
        }
    }
}

/// Exchange's sensitivity (EWS `Sensitivity`, Graph `sensitivity`) and iCalendar's CLASS:
/// Normal is PUBLIC, Private PRIVATE, Confidential CONFIDENTIAL; Personal has no CLASS of its own,
/// so it is PRIVATE with `ExchangeProperties.sensitivity` saying Personal.
public enum ExchangeSensitivity: String, CaseIterable, Sendable {
    case normal, personal, `private`, confidential

    /// The EWS word.
    public var ews: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The Graph word.
    public var graph: String { rawValue }

    /// The CLASS it is written as.
    public var classification: CalendarItem.Classification {
        switch self {
        case .normal: .public
        case .personal, .private: .private
        case .confidential: .confidential
        }
    }

    /// Whether CLASS alone loses it (then `ExchangeProperties.sensitivity` keeps the word).
    public var needsKeptWord: Bool { self == .personal }

    /// The sensitivity with this word, EWS or Graph spelling, case-insensitive.
    public init?(word: String) {
        // Graph's spelling (the raw value) needs no case folding.
        guard let found = Self(rawValue: word) ?? Self(rawValue: word.lowercased()) else { return nil }
        self = found
    }

    /// From CLASS and the kept word: an unknown or X- CLASS is nil (the writer reports it).
    public init?(classification: CalendarItem.Classification?, keptWord: String?) {
        if let keptWord, let kept = ExchangeSensitivity(word: keptWord), kept.classification == classification ?? .public {
            self = kept
            return
        }
        switch classification {
        case nil, .public?: self = .normal
        case .private?: self = .private
        case .confidential?: self = .confidential
        case .other?: return nil
        }
    }
}

/// Exchange's importance (EWS `Importance`, Graph `importance`) and iCalendar's PRIORITY
/// (RFC 5545 §3.8.1.9: 1–4 high, 5 medium, 6–9 low, 0 undefined): High is 1, Low is 9, Normal
/// writes no PRIORITY (every Exchange item has an importance; most are Normal).
public enum ExchangeImportance: String, CaseIterable, Sendable {
    case low, normal, high

    /// The EWS word.
    public var ews: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The Graph word.
    public var graph: String { rawValue }

    /// The PRIORITY written for it (nil for Normal).
    public var priority: Int? {
        switch self {
        case .low: 9
        case .normal: nil
        case .high: 1
        }
    }

    /// Outlook's X-MICROSOFT-CDO-IMPORTANCE number.
    public var cdo: Int {
        switch self {
        case .low: 0
        case .normal: 1
        case .high: 2
        }
    }

    /// The importance with this word, EWS or Graph spelling, case-insensitive.
    public init?(word: String) {
        // Graph's spelling (the raw value) needs no case folding.
        guard let found = Self(rawValue: word) ?? Self(rawValue: word.lowercased()) else { return nil }
        self = found
    }

    /// The importance a PRIORITY means (nil and 0, undefined, are Normal).
    public init(priority: Int?) {
        switch priority ?? 0 {
        case 1...4: self = .high
        case 6...9: self = .low
        default: self = .normal
        }
    }
}
