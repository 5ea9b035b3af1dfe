import CalendarModel
import Recurrence

/// The date-range and expansion stage (`--start`, `--end`, `--expand`) lives in Recurrence;
/// it already has the stage's shape.
extension OccurrenceFilter: ConversionStage {}
