import CalendarModel

/// Applies `--subscriptions`: leaves subscription calendars out, or writes each as a
/// descriptor (the calendar's URL, name, colour and refresh interval, without its events) so
/// the target subscribes again.
public struct SubscriptionStage: ConversionStage {
    /// What to do with subscription calendars.
    public let handling: SubscriptionHandling
    private let log: DiagnosticLog
    private var inputName = "-"
    /// Inside a subscription calendar whose entries are dropped.
    private var dropping = false
    private var droppingEnd = false

    /// A stage for `--subscriptions`, warning on `log` about descriptors without a URL.
    public init(handling: SubscriptionHandling, log: DiagnosticLog) {
        self.handling = handling
        self.log = log
    }

    /// Remembers the input's name for warnings.
    public mutating func beginInput(name: String) {
        inputName = name
    }

    /// Drops subscription calendars, or their entries for a descriptor.
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        switch element {
        case .beginCalendar(let calendar):
            let isSubscription = calendar.kind == .subscription
            dropping = isSubscription && handling != .keep
            droppingEnd = isSubscription && handling == .skip
            if isSubscription && handling == .descriptor {
                if calendar.subscriptionURL == nil {
                    log.warning(
                        file: inputName,
                        "subscription calendar '\(calendar.title ?? "(untitled)")' names no URL; its descriptor cannot be subscribed to")
                }
                try emit(.beginCalendar(calendar))
            } else if !droppingEnd {
                try emit(element)
            }
        case .entry:
            if !dropping { try emit(element) }
        case .endCalendar(let trailing):
            let skip = droppingEnd
            // A descriptor keeps the calendar's trailing properties, not its components.
            dropping = false
            droppingEnd = false
            if !skip { try emit(.endCalendar(trailingProperties: trailing)) }
        }
    }
}
