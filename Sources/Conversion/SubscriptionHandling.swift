/// What a conversion does with subscription calendars (`--subscriptions`).
public enum SubscriptionHandling: String, CaseIterable, Sendable {
    /// Write them as they are: a read-only copy of their events, with URL and refresh.
    case keep
    /// Leave them out.
    case skip
    /// Write the subscription itself (URL, name, colour, refresh) without its events, so the
    /// target subscribes again rather than holding a copy that goes stale.
    case descriptor
}
