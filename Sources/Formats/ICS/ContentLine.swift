import CalendarModel
import ICalendarData

/// One unfolded content line (RFC 5545 §3.1): name, parameters and the raw value text.
struct ContentLine {
    /// Upper-cased name.
    var name: String
    var parameters: [Parameter]
    /// The value exactly as it stood after the colon (escapes not yet undone).
    var value: String
    /// The physical line the content line started on (1-based).
    var line: Int
    /// The property table's entry for `name`, looked up once when the line is parsed.
    var info: PropertyInfo

    init(name: String, parameters: [Parameter], value: String, line: Int, info: PropertyInfo? = nil) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.info = info ?? PropertyTable.info(name)
    }
}
