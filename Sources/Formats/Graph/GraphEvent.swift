import CalendarModel
import ExchangeData
import JCalCoding
import JSONCoding

/// One Graph event as read, with what the reader needs to group a series: Graph's item type,
/// its ids, and a master's exceptions and cancellations.
struct GraphEvent {
    /// Graph's `type`: how the item stands in a series.
    enum Kind: String {
        case singleInstance, occurrence, exception, seriesMaster
    }

    var event: Event
    var kind: Kind
    /// Graph's `id`.
    var id: String?
    /// The master's `id`, for occurrences and exceptions.
    var seriesMasterID: String?
    /// When an occurrence or exception was due by the pattern (`originalStart`), as UTC.
    var originalStart: CalendarDateTime?
    /// The pattern, for a master.
    var recurrence: ExchangeRecurrence?
    /// A master's beta `exceptionOccurrences`, still as JSON, with their paths.
    var exceptionOccurrences: [(object: JSONObject, path: String)] = []
    /// The days of a master's beta `cancelledOccurrences`.
    var cancelledDays: [CalendarDate] = []
    /// Whether the source gave the series UID itself (beta `uid`) rather than `iCalUId`.
    var hasSeriesUID = false
    /// What calport's Graph writer kept of the source's iCalendar (its extended property).
    var remainder: ICalendarRemainder?
    /// The event as handed out, with `remainder` applied, when it needs no other event (a
    /// single event, a master): made as it is read (`GraphReader.decoded`), on a worker thread
    /// when the reader has them.
    var kept: Event?
    /// A master's `exceptionOccurrences` as overrides, made with `kept` (and they then dropped).
    var exceptionOverrides: GraphSeriesGrouper.ExceptionOverrides?
}
