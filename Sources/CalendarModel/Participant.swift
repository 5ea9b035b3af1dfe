/// A participant's role in an item: EventKit's `EKParticipantRole`.
public enum ParticipantRole: Hashable, Sendable {
    case unknown, required, optional, chair, nonParticipant
    /// A word no vocabulary knows, kept as the source spelled it so it round-trips.
    case other(String)

    /// The EventKit cases, in EventKit's order.
    public static let eventKitCases: [ParticipantRole] = [.unknown, .required, .optional, .chair, .nonParticipant]

    /// EventKit's display name ("Non Participant").
    public var eventKitName: String {
        switch self {
        case .unknown: "Unknown"
        case .required: "Required"
        case .optional: "Optional"
        case .chair: "Chair"
        case .nonParticipant: "Non Participant"
        case .other(let word): word
        }
    }
}

/// A participant's answer: EventKit's `EKParticipantStatus`.
public enum ParticipantStatus: Hashable, Sendable {
    case unknown, pending, accepted, declined, tentative, delegated, completed, inProcess
    case other(String)

    public static let eventKitCases: [ParticipantStatus] = [
        .unknown, .pending, .accepted, .declined, .tentative, .delegated, .completed, .inProcess,
    ]

    public var eventKitName: String {
        switch self {
        case .unknown: "Unknown"
        case .pending: "Pending"
        case .accepted: "Accepted"
        case .declined: "Declined"
        case .tentative: "Tentative"
        case .delegated: "Delegated"
        case .completed: "Completed"
        case .inProcess: "In Process"
        case .other(let word): word
        }
    }
}

/// What a participant is: EventKit's `EKParticipantType`.
public enum ParticipantType: Hashable, Sendable {
    case unknown, person, room, resource, group
    case other(String)

    public static let eventKitCases: [ParticipantType] = [.unknown, .person, .room, .resource, .group]

    public var eventKitName: String {
        switch self {
        case .unknown: "Unknown"
        case .person: "Person"
        case .room: "Room"
        case .resource: "Resource"
        case .group: "Group"
        case .other(let word): word
        }
    }
}

/// An attendee or organizer: EventKit's `EKParticipant`, plus what calendar formats add.
public struct Participant: Hashable, Sendable {
    /// Display name (CN).
    public var name: String?
    /// The participant's address, usually `mailto:`.
    public var url: String
    /// Nil when the source did not say (RFC 5545's default is required).
    public var role: ParticipantRole?
    public var status: ParticipantStatus?
    public var type: ParticipantType?
    /// Whether a reply is expected (RSVP).
    public var expectsReply: Bool?
    public var delegatedTo: [String]
    public var delegatedFrom: [String]
    public var sentBy: String?
    public var members: [String]
    /// A directory entry reference (DIR).
    public var directory: String?
    public var language: String?
    /// An email distinct from `url` (RFC 7986 EMAIL).
    public var email: String?
    /// Parameters the model does not hold, in order.
    public var extraParameters: [Parameter]

    public init(
        name: String? = nil, url: String, role: ParticipantRole? = nil, status: ParticipantStatus? = nil,
        type: ParticipantType? = nil, expectsReply: Bool? = nil, delegatedTo: [String] = [],
        delegatedFrom: [String] = [], sentBy: String? = nil, members: [String] = [], directory: String? = nil,
        language: String? = nil, email: String? = nil, extraParameters: [Parameter] = []
    ) {
        self.name = name
        self.url = url
        self.role = role
        self.status = status
        self.type = type
        self.expectsReply = expectsReply
        self.delegatedTo = delegatedTo
        self.delegatedFrom = delegatedFrom
        self.sentBy = sentBy
        self.members = members
        self.directory = directory
        self.language = language
        self.email = email
        self.extraParameters = extraParameters
    }

    /// The address without a `mailto:` scheme, when it is an email address.
    public var emailAddress: String? {
        if let email { return email }
        let lower = url.lowercased()
        return lower.hasPrefix("mailto:") ? String(url.dropFirst(7)) : nil
    }
}
