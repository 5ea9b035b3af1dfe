import CSVFormat
import CalDAVFormat
import CalendarModel
import EWSFormat
import GraphFormat
import ICSFormat
import JCalFormat
import JSCalendarFormat
import JSONFormat
import XCalFormat

/// The one list of formats calport knows. Adding a format is adding its folder and one line here.
public enum StandardFormats {
    /// Every registered format, in the order `calport formats` lists them.
    public static let all: [any CalendarFormat] = [
        ICSFormat(),
        NativeJSONFormat(),
        JSONLinesFormat(),
        JCalFormat(),
        JSCalendarFormat(),
        CSVFormat(.flat),
        CSVFormat(.outlook),
        CSVFormat(.google),
        XCalFormat(),
        CalDAVFormat(calendarDataFormats: [ICSFormat(), XCalFormat()]),
        EWSFormat(),
        GraphFormat(),
    ]

    /// The registry built from `all`; a duplicate id stops the program at start-up, loudly.
    public static let registry: FormatRegistry = {
        do {
            return try FormatRegistry(all)
        } catch {
            preconditionFailure("calport's format list is inconsistent: \(error)")
        }
    }()
}
