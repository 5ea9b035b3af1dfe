/// A to-do (VTODO): EventKit's `EKReminder`.
@dynamicMemberLookup
public struct Reminder: Hashable, Sendable {
    public var item: CalendarItem
    /// DUE.
    public var due: CalendarDateTime?
    public var duration: CalendarDuration?
    /// COMPLETED: when it was done.
    public var completionDate: CalendarDateTime?
    /// PERCENT-COMPLETE.
    public var percentComplete: Int?

    public init(item: CalendarItem = CalendarItem()) {
        self.item = item
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<CalendarItem, T>) -> T {
        get { item[keyPath: keyPath] }
        set { item[keyPath: keyPath] = newValue }
    }

    /// EventKit's `isCompleted`.
    public var isCompleted: Bool { completionDate != nil || item.status == .completed }
}
