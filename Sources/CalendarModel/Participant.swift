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
public struct Participant: Hashable, Sendable, CopyOnWriteFields {
    /// The stored fields, boxed so that copies share them (see `CopyOnWriteBox`): writers and
    /// stages read participants whole, and a copy held inline retains each of its strings.
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var name: String?
        @usableFromInline var url: String
        @usableFromInline var role: ParticipantRole?
        @usableFromInline var status: ParticipantStatus?
        @usableFromInline var type: ParticipantType?
        @usableFromInline var expectsReply: Bool?
        @usableFromInline var delegatedTo: [String]
        @usableFromInline var delegatedFrom: [String]
        @usableFromInline var sentBy: String?
        @usableFromInline var members: [String]
        @usableFromInline var directory: String?
        @usableFromInline var language: String?
        @usableFromInline var email: String?
        @usableFromInline var extraParameters: [Parameter]
    }

    @usableFromInline
    var storage: CopyOnWriteBox<Fields>

    /// Display name (CN).
    @inlinable public var name: String? { _read { yield fields.name } _modify { yield &fields.name } }
    /// The participant's address, usually `mailto:`.
    @inlinable public var url: String { _read { yield fields.url } _modify { yield &fields.url } }
    /// Nil when the source did not say (RFC 5545's default is required).
    @inlinable public var role: ParticipantRole? { _read { yield fields.role } _modify { yield &fields.role } }
    @inlinable public var status: ParticipantStatus? { _read { yield fields.status } _modify { yield &fields.status } }
    @inlinable public var type: ParticipantType? { _read { yield fields.type } _modify { yield &fields.type } }
    /// Whether a reply is expected (RSVP).
    @inlinable public var expectsReply: Bool? { _read { yield fields.expectsReply } _modify { yield &fields.expectsReply } }
    @inlinable public var delegatedTo: [String] { _read { yield fields.delegatedTo } _modify { yield &fields.delegatedTo } }
    @inlinable public var delegatedFrom: [String] { _read { yield fields.delegatedFrom } _modify { yield &fields.delegatedFrom } }
    @inlinable public var sentBy: String? { _read { yield fields.sentBy } _modify { yield &fields.sentBy } }
    @inlinable public var members: [String] { _read { yield fields.members } _modify { yield &fields.members } }
    /// A directory entry reference (DIR).
    @inlinable public var directory: String? { _read { yield fields.directory } _modify { yield &fields.directory } }
    @inlinable public var language: String? { _read { yield fields.language } _modify { yield &fields.language } }
    /// An email distinct from `url` (RFC 7986 EMAIL).
    @inlinable public var email: String? { _read { yield fields.email } _modify { yield &fields.email } }
    /// Parameters the model does not hold, in order.
    @inlinable public var extraParameters: [Parameter] { _read { yield fields.extraParameters } _modify { yield &fields.extraParameters } }

    public init(
        name: String? = nil, url: String, role: ParticipantRole? = nil, status: ParticipantStatus? = nil,
        type: ParticipantType? = nil, expectsReply: Bool? = nil, delegatedTo: [String] = [],
        delegatedFrom: [String] = [], sentBy: String? = nil, members: [String] = [], directory: String? = nil,
        language: String? = nil, email: String? = nil, extraParameters: [Parameter] = []
    ) {
        storage = CopyOnWriteBox(
            Fields(
                name: name, url: url, role: role, status: status, type: type, expectsReply: expectsReply,
                delegatedTo: delegatedTo, delegatedFrom: delegatedFrom, sentBy: sentBy, members: members,
                directory: directory, language: language, email: email, extraParameters: extraParameters))
    }


    /// The address without a `mailto:` scheme, when it is an email address.
    public var emailAddress: String? {
        email ?? Self.mailtoAddress(url)
    }

    /// Whether `emailAddress` is not nil, told without making the address (writers check every
    /// participant for one).
    public var hasEmailAddress: Bool {
        if email != nil { return true }
        var bytesOfURL = url
        if let decided = bytesOfURL.withUTF8(Self.hasMailtoScheme) { return decided }
        return url.lowercased().hasPrefix("mailto:")
    }

    /// Whether the bytes of a url begin with `mailto:` in any case, or nil when a byte of the
    /// first eight is not ASCII (lower-casing the String decides then).
    ///
    /// Decided on the bytes when the first eight (or all of a shorter url) are ASCII: lower-
    /// casing the whole address made a String per call, most of a writer's cost of an
    /// address. An ASCII byte after the colon keeps it a character of its own, so the bytes
    /// decide as `lowercased().hasPrefix("mailto:")` does.
    private static func hasMailtoScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var i = 0
        while i < 8, i < bytes.count {
            guard bytes[i] < 0x80 else { return nil }
            i += 1
        }
        guard bytes.count >= 7 else { return false }
        let scheme: StaticString = "mailto:"
        for i in 0..<7 {
            let byte = bytes[i]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != scheme.utf8Start[i] { return false }
        }
        return true
    }

    /// What follows the scheme of a `mailto:` URL (in any case), nil when `url` is not one:
    /// what `url.lowercased().hasPrefix("mailto:")` tells.
    public static func mailtoAddress(_ url: String) -> String? {
        var bytesOfURL = url
        let decided: String?? = bytesOfURL.withUTF8 { bytes in
            guard let isMailto = hasMailtoScheme(bytes) else { return nil }
            guard isMailto else { return .some(nil) }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[7...]), as: UTF8.self))
        }
        if let decided { return decided }
        let lower = url.lowercased()
        return lower.hasPrefix("mailto:") ? String(url.dropFirst(7)) : nil
    }
}
