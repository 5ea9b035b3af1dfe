import CalendarModel
import JCalCoding
import JSONCoding

/// Where calport keeps what a Graph event cannot say about its iCalendar source (an
/// `ICalendarRemainder`: X- properties, RFC 7986 CONFERENCE, UID, STATUS, read-only ids of the
/// source, further alarms): one single-value extended property of the event, holding the
/// remainder as JSON text. Extended properties are Graph's own way for a client to keep its
/// data on an item (`singleValueLegacyExtendedProperty`), writable in `POST /me/events` and read
/// back with `$expand=singleValueExtendedProperties($filter=id eq '…')`.
enum GraphRemainder {
    /// The extended property's id: a string property named in calport's own property set.
    static let propertyID = "String {4194e02e-ba5d-49a5-a19d-ed1473321699} Name calport.iCalendar"

    /// Reads the text back; `strings`: the table of the thread that reads it, if any.
    static func read(_ text: String, decoder: JCalValueDecoder, path: String, strings: JSONStringTable? = nil) throws -> ICalendarRemainder {
        // The text itself is the parser's buffer: a buffer of its own, zeroed and filled for
        // every event, cost a share of the parse.
        var bytes = Array(text.utf8)
        // A parser over a source skips a byte order mark at its start (RFC 8259 §8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var parser = JSONParser(bytes: bytes, sourceName: decoder.file, line: 1, strings: strings)
        let value: JSONValue
        do {
            value = try parser.readValue()
        } catch {
            throw decoder.fail(path, "calport's kept iCalendar data is not JSON")
        }
        return try ICalendarRemainder(json: value, decoder: decoder, path: path)
    }
}
