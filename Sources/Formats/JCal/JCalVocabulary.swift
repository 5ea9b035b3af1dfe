import CalendarModel
import ICalendarData

/// jCal's participant words: iCalendar's own (ROLE, PARTSTAT, CUTYPE), since jCal carries
/// iCalendar parameters unchanged (RFC 7265 §3.5).
public enum JCalVocabulary {
    /// The vocabulary registered for `jcal`.
    public static let participants = ICalendarVocabulary.vocabulary(formatID: "jcal")
}
