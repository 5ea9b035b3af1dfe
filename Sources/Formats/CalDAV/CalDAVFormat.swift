import CalendarModel

/// CalDAV XML (RFC 4791, RFC 4918): multistatus bodies of REPORT and PROPFIND, and
/// MKCALENDAR bodies, read as calendars; written as a multistatus archive.
///
/// The calendar data inside is another format's business: the Conversion layer hands over
/// the formats to read it with (iCalendar text, xCal), chosen by media type, because a format
/// module does not import another.
public struct CalDAVFormat: CalendarFormat {
    /// The formats embedded calendar data is read and written with; the first is the default.
    public let calendarDataFormats: [any CalendarFormat]

    /// A CalDAV format that reads and writes calendar data with `calendarDataFormats`
    /// (iCalendar text first, then xCal).
    public init(calendarDataFormats: [any CalendarFormat]) {
        self.calendarDataFormats = calendarDataFormats
    }

    public var id: String { "caldav" }
    public var fileExtensions: [String] { ["caldav"] }
    public var mediaType: String { "application/xml" }
    public var summary: String { "CalDAV XML (RFC 4791): REPORT/PROPFIND multistatus in, multistatus archive out" }
    /// Participant words belong to the embedded calendar data's format.
    public var vocabulary: ParticipantVocabulary? { nil }

    /// XML whose first element is a multistatus, mkcalendar or mkcol, with the DAV: namespace.
    public func sniff(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix.prefix(4096), as: UTF8.self)
        guard text.contains("DAV:") else { return false }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let first = rest.first else { return false }
            if first == "?" || first == "!" { continue }
            let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            let local = name.split(separator: ":").last.map(String.init) ?? ""
            return ["multistatus", "mkcalendar", "mkcol"].contains(local)
        }
        return false
    }

    public func makeReader(source: ByteSource, options: ReadOptions, log: DiagnosticLog) -> any CalendarReader {
        CalDAVReader(source: source, options: options, log: log, calendarDataFormats: calendarDataFormats)
    }

    /// The setting `calendar-data` (a format id or media type, e.g. `xcal`) picks the format of
    /// the archived calendar data; iCalendar text otherwise.
    public func makeWriter(sink: ByteSink, options: WriteOptions, log: DiagnosticLog) -> any CalendarWriter {
        var chosen = calendarDataFormats[0]
        if let wanted = options.formatSettings["calendar-data"] {
            if let match = calendarDataFormats.first(where: { $0.id == wanted || $0.mediaType == wanted }) {
                chosen = match
            } else {
                log.warning(
                    file: options.destinationName,
                    "calendar-data format '\(wanted)' is not one of \(calendarDataFormats.map(\.id)); writing \(chosen.id)")
            }
        }
        return CalDAVWriter(sink: sink, dataFormat: chosen, formats: calendarDataFormats, log: log, destination: options.destinationName)
    }
}
