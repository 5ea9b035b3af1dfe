import CalendarModel

/// A step between reading and writing (time-zone normalization, date-range filtering,
/// expansion): takes each element and passes on zero or more.
public protocol ConversionStage {
    /// Called before the first element of each input, with the input's name, so a stage can
    /// name the file in its diagnostics.
    mutating func beginInput(name: String)
    mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws
    /// Called after the last element of the last input, for stages that hold elements back.
    mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws
}

extension ConversionStage {
    public mutating func beginInput(name: String) {}
    public mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws {}
}
