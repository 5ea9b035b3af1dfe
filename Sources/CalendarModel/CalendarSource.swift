/// Where calendars come from: EventKit's `EKSource`.
public struct CalendarSource: Hashable, Sendable {
    /// EventKit's `EKSourceType`.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case local, exchange, calDAV, mobileMe, subscribed, birthdays
    }

    public var title: String
    public var kind: Kind

    public init(title: String, kind: Kind) {
        self.title = title
        self.kind = kind
    }
}
