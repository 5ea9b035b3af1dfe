import CalendarModel
import JSONCoding

/// Writes calport's native JSON, as one document (`json`) or as JSON Lines (`jsonl`), item by
/// item as elements arrive: nothing but the current item is held, so memory stays flat.
///
/// A document is one item per line inside the envelope:
/// ```
/// {"format":"calport-json","version":1,"calendars":[
/// {"calendar":{…},"entries":[
/// {"event":{…}}
/// ],"trailingProperties":[]}
/// ]}
/// ```
/// JSON Lines writes each element as a line of its own: `{"calendarIndex":0,"beginCalendar":{…}}`,
/// then `{"calendar":"Work","calendarIndex":0,"event":{…}}` per item, then
/// `{"calendarIndex":0,"endCalendar":{}}`.
public struct NativeJSONWriter: CalendarWriter {
    /// Whole document or one line per element.
    public enum Layout: Sendable {
        case document, lines
    }

    /// The envelope's format name and version; a reader refuses other versions.
    public static let formatName = "calport-json"
    /// The envelope version this writer writes.
    public static let formatVersion = 1

    private var out: JSONOutput
    private let layout: Layout
    private let vocabulary: ParticipantVocabulary
    private var documentOpen = false
    private var calendarOpen = false
    private var calendarIndex = -1
    private var calendarTitle: String?

    /// A writer sending bytes to `sink`.
    public init(sink: ByteSink, layout: Layout, vocabulary: ParticipantVocabulary) {
        self.out = JSONOutput(sink: sink)
        self.layout = layout
        self.vocabulary = vocabulary
    }

    private mutating func openDocument() {
        guard layout == .document, !documentOpen else { return }
        documentOpen = true
        out.beginObject()
        out.key("format")
        out.string(Self.formatName)
        out.key("version")
        out.int(Self.formatVersion)
        out.key("calendars")
        out.beginArray()
    }

    private mutating func beginCalendar(_ c: CalendarModel.Calendar) {
        calendarOpen = true
        calendarIndex += 1
        calendarTitle = c.title
        switch layout {
        case .document:
            openDocument()
            out.lineBreak()
            out.beginObject()
            out.key("calendar")
            out.calendar(c)
            out.key("entries")
            out.beginArray()
        case .lines:
            out.beginObject()
            out.key("calendarIndex")
            out.int(calendarIndex)
            out.key("beginCalendar")
            out.calendar(c)
            out.endObject()
            out.newline()
        }
    }

    private mutating func endCalendar(_ trailing: [Property]) {
        calendarOpen = false
        switch layout {
        case .document:
            out.softNewline()
            out.endArray()
            out.key("trailingProperties")
            out.beginArray()
            for p in trailing { out.property(p) }
            out.endArray()
            out.endObject()
        case .lines:
            out.beginObject()
            out.key("calendarIndex")
            out.int(calendarIndex)
            out.key("endCalendar")
            out.beginObject()
            out.propertiesField("trailingProperties", trailing)
            out.endObject()
            out.endObject()
            out.newline()
        }
    }

    public mutating func write(_ element: CalendarStreamElement) throws {
        switch element {
        case .beginCalendar(let c):
            if calendarOpen { endCalendar([]) }
            beginCalendar(c)
        case .entry(let entry, _):
            // An entry outside any calendar belongs to an unnamed one, as ICS readers treat it.
            if !calendarOpen { beginCalendar(CalendarModel.Calendar()) }
            switch layout {
            case .document:
                out.lineBreak()
                out.beginObject()
                out.entryMembers(entry, vocabulary: vocabulary)
                out.endObject()
            case .lines:
                out.beginObject()
                out.stringField("calendar", calendarTitle)
                out.key("calendarIndex")
                out.int(calendarIndex)
                out.entryMembers(entry, vocabulary: vocabulary)
                out.endObject()
                out.newline()
            }
        case .endCalendar(let trailing):
            if !calendarOpen { beginCalendar(CalendarModel.Calendar()) }
            endCalendar(trailing)
        }
        try out.flushIfFull()
    }

    public mutating func finish() throws {
        if calendarOpen { endCalendar([]) }
        if layout == .document {
            openDocument()
            out.softNewline()
            out.endArray()
            out.endObject()
            out.newline()
        }
        try out.flush()
    }
}
