import CalendarModel
import Recurrence

/// The date-range and expansion stage (`--start`, `--end`, `--expand`) lives in Recurrence;
/// it already has the stage's shape.
extension OccurrenceFilter: ConversionStage {
    /// Names the input in the filter's warnings.
    public mutating func beginInput(name: String) {
        sourceName = name
    }
}
