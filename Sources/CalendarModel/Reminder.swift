/// A to-do (VTODO): EventKit's `EKReminder`.
@dynamicMemberLookup
public struct Reminder: Hashable, Sendable, CopyOnWriteFields {
    /// The stored fields, boxed so that copies share them (see `CopyOnWriteBox`).
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var item: CalendarItem
        @usableFromInline var due: CalendarDateTime?
        @usableFromInline var duration: CalendarDuration?
        @usableFromInline var completionDate: CalendarDateTime?
        @usableFromInline var percentComplete: Int?
    }

    @usableFromInline
    var storage: CopyOnWriteBox<Fields>

    @inlinable public var item: CalendarItem { _read { yield fields.item } _modify { yield &fields.item } }
    /// DUE.
    @inlinable public var due: CalendarDateTime? { _read { yield fields.due } _modify { yield &fields.due } }
    @inlinable public var duration: CalendarDuration? { _read { yield fields.duration } _modify { yield &fields.duration } }
    /// COMPLETED: when it was done.
    @inlinable public var completionDate: CalendarDateTime? {
        _read { yield fields.completionDate }
        _modify { yield &fields.completionDate }
    }
    /// PERCENT-COMPLETE.
    @inlinable public var percentComplete: Int? { _read { yield fields.percentComplete } _modify { yield &fields.percentComplete } }

    public init(item: CalendarItem = CalendarItem()) {
        storage = CopyOnWriteBox(Fields(item: item))
    }


    public subscript<T>(dynamicMember keyPath: WritableKeyPath<CalendarItem, T>) -> T {
        get { item[keyPath: keyPath] }
        set { item[keyPath: keyPath] = newValue }
    }

    /// EventKit's `isCompleted`.
    public var isCompleted: Bool { completionDate != nil || item.status == .completed }
}
