import CalendarModel
import XMLSupport

/// Reads the calendar data a CalDAV body embeds (CALDAV:calendar-data, calendar-timezone)
/// with the formats the registry hands over: iCalendar text, or xCal when the server says
/// `application/calendar+xml` or nests the XML. A format module never imports another, so the
/// Conversion layer passes the formats in rather than this module linking the ICS reader.
/// Lines in the embedded text are reported as lines of the outer document.
struct CalendarDataParser {
    let formats: [any CalendarFormat]
    let options: ReadOptions
    let log: DiagnosticLog
    /// Blocks read before (VTIMEZONEs, VCALENDAR properties), cut out of iCalendar text that
    /// repeats them; nil reads each text whole.
    let repeated: RepeatedCalendarText?

    /// Formats found by declared media type: a body declares the same one for each of its
    /// thousands of resources, and finding it cost 50k instructions.
    private let found = FoundFormats()

    private final class FoundFormats {
        var byMediaType: [String: (any CalendarFormat)?] = [:]
    }

    init(formats: [any CalendarFormat], options: ReadOptions, log: DiagnosticLog, repeated: RepeatedCalendarText? = nil) {
        self.formats = formats
        self.options = options
        self.log = log
        self.repeated = repeated
    }

    /// The format for a media type (parameters after `;` ignored), else nil.
    func format(for mediaType: String) -> (any CalendarFormat)? {
        if let known = found.byMediaType[mediaType] { return known }
        let bare = mediaType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        let format = formats.first { $0.mediaType == bare }
        found.byMediaType[mediaType] = format
        return format
    }

    /// The stream elements of a calendar-data (or calendar-timezone) element; empty when the
    /// element is empty (a REPORT that asked only for etags).
    func parse(_ element: XMLElement, resource: String) throws -> [CalendarStreamElement] {
        let nested = element.children.first
        let declared = element.attribute("content-type") ?? (nested != nil ? "application/calendar+xml" : "text/calendar")
        guard let format = format(for: declared) else {
            let message = "\(resource): calendar data of type \(declared) cannot be read; skipped"
            if options.strict { throw CalendarError(.data, file: options.sourceName, line: element.line, location: element.path, message) }
            log.warning(file: options.sourceName, line: element.line, location: element.path, message)
            return []
        }
        let bytes: [UInt8] = nested.map { $0.serialized() } ?? Array(element.text.utf8)
        guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return [] }
        // Nested XML was re-serialized, so its lines are its own; text starts on the element's line.
        let text = Text(bytes: bytes, format: format, element: element, resource: resource, offset: nested == nil ? element.line - 1 : 0)
        if nested == nil, format.mediaType == "text/calendar", let repeated {
            let blocks = RepeatedCalendarText.blocks(in: bytes)
            if blocks.header != nil || !blocks.zones.isEmpty { return try read(text, blocks: blocks, repeated: repeated) }
        }
        let outer = log
        return try read(text, bytes: bytes) { outer.report($0) }
    }

    /// The calendar data being read, and where it stands in the outer document.
    private struct Text {
        var bytes: [UInt8]
        var format: any CalendarFormat
        var element: XMLElement
        var resource: String
        /// Added to the data's line numbers to make them the outer document's.
        var offset: Int
    }

    /// What a block read before gives: a VTIMEZONE's entry, or the calendar of the first
    /// VCALENDAR's properties.
    private enum Known {
        case zone(CalendarEntry)
        case header(Calendar)
    }

    /// Reads iCalendar text with the `blocks` that were read before cut out and what they gave
    /// put back at their places. When that reading has anything to report (whose lines, some
    /// in the message text, would be those of the shortened text), the text is read again as
    /// it is, and that reading reports. The blocks met for the first time are learnt from a
    /// reading that reported nothing.
    private func read(_ text: Text, blocks: RepeatedCalendarText.Blocks, repeated: RepeatedCalendarText) throws -> [CalendarStreamElement] {
        let knownHeader = blocks.header.flatMap { repeated.knownHeader($0, in: text.bytes) }
        let knownZones = repeated.knownZones(blocks.zones, in: text.bytes)
        let outer = log
        var reported = false
        func learnt(from elements: [CalendarStreamElement]) -> [CalendarStreamElement] {
            guard !reported else { return elements }
            if let header = blocks.header, knownHeader == nil, case .beginCalendar(let calendar)? = elements.first {
                repeated.learn(header: calendar, text: text.bytes[header.start..<header.end])
            }
            var elements = elements
            for (block, entry) in zip(blocks.zones, knownZones) where entry == nil {
                let line = block.line + text.offset
                for i in elements.indices {
                    guard case .entry(let entry, line: let at) = elements[i], at == line else { continue }
                    if case .timeZone = entry {
                        elements[i] = .entry(repeated.learn(zone: entry, text: text.bytes[block.start..<block.end]), line: line)
                    }
                    break
                }
            }
            return elements
        }
        func readWhole() throws -> [CalendarStreamElement] {
            reported = false
            return learnt(
                from: try read(text, bytes: text.bytes) {
                    reported = true
                    outer.report($0)
                })
        }
        // In the order of the text: the header comes before the first component.
        var cut: [(block: RepeatedCalendarText.Block, known: Known)] = []
        if let header = blocks.header, let knownHeader { cut.append((header, .header(knownHeader))) }
        for (block, entry) in zip(blocks.zones, knownZones) {
            if let entry { cut.append((block, .zone(entry))) }
        }
        guard !cut.isEmpty else { return try readWhole() }
        var shortened: [UInt8] = []
        shortened.reserveCapacity(text.bytes.count)
        var from = 0
        for c in cut {
            shortened += text.bytes[from..<c.block.start]
            from = c.block.end
        }
        shortened += text.bytes[from...]
        var shortText = text
        shortText.offset = 0
        let elements = try? read(shortText, bytes: shortened) { _ in reported = true }
        guard !reported, var elements, let placed = Self.place(cut, in: &elements, offset: text.offset) else { return try readWhole() }
        return learnt(from: placed)
    }

    /// The elements of the shortened text with the lines of the whole one (plus `offset`), the
    /// header's calendar in the first calendar's place and each VTIMEZONE's entry before the
    /// element that followed it; nil if one has no place.
    private static func place(
        _ cut: [(block: RepeatedCalendarText.Block, known: Known)], in elements: inout [CalendarStreamElement], offset: Int
    ) -> [CalendarStreamElement]? {
        // Lines from `start` on (in the shortened text) moved up by `shift`.
        var shifts: [(start: Int, shift: Int)] = []
        var removed = 0
        for c in cut {
            shifts.append((c.block.line - removed, removed + c.block.lineCount))
            removed += c.block.lineCount
        }
        for i in elements.indices {
            guard case .entry(let entry, let line) = elements[i] else { continue }
            let shift = shifts.last { $0.start <= line }?.shift ?? 0
            elements[i] = .entry(entry, line: line + shift + offset)
        }
        var out: [CalendarStreamElement] = []
        out.reserveCapacity(elements.count + cut.count)
        var next = 0
        for (index, element) in elements.enumerated() {
            if next < cut.count, case .header(let calendar) = cut[next].known {
                // The header is the first calendar's, and the text starts with it.
                guard index == 0, case .beginCalendar = element else { return nil }
                out.append(.beginCalendar(calendar))
                next += 1
                continue
            }
            // A VTIMEZONE is followed by a BEGIN line, so by the entry of that component (or
            // by the next VTIMEZONE's): each goes before the first entry that started after it.
            if case .entry(_, let line) = element {
                while next < cut.count, case .zone(let entry) = cut[next].known, line > cut[next].block.line + offset {
                    out.append(.entry(entry, line: cut[next].block.line + offset))
                    next += 1
                }
            }
            out.append(element)
        }
        return next == cut.count ? out : nil
    }

    /// Reads calendar data with the format's reader, its diagnostics and failure moved to the
    /// outer document (lines, location, the resource named) and handed to `report`.
    private func read(_ text: Text, bytes: [UInt8], report: @escaping (Diagnostic) -> Void) throws -> [CalendarStreamElement] {
        let offset = text.offset
        let file = options.sourceName
        let element = text.element
        let resource = text.resource
        // The element's path is made only for a message: most resources have none.
        let place = element.place
        let inner = DiagnosticLog { d in
            var moved = d
            moved.file = file
            moved.line = d.line.map { $0 + offset }
            moved.location = place.description + (d.location.map { " " + $0 } ?? "")
            moved.message = "\(resource): " + d.message
            report(moved)
        }
        var reader = text.format.makeReader(
            source: BufferByteSource(bytes),
            options: ReadOptions(
                sourceName: file, strict: options.strict, formatSettings: options.formatSettings,
                vocabularyOverrides: options.vocabularyOverrides),
            log: inner)
        var out: [CalendarStreamElement] = []
        do {
            while let e = try reader.next() {
                if case .entry(let entry, let line) = e {
                    out.append(.entry(entry, line: line + offset))
                } else {
                    out.append(e)
                }
            }
        } catch let failure as CalendarError {
            var moved = failure
            moved.diagnostic.file = file
            moved.diagnostic.line = failure.diagnostic.line.map { $0 + offset } ?? element.line
            moved.diagnostic.location = place.description + (failure.diagnostic.location.map { " " + $0 } ?? "")
            moved.diagnostic.message = "\(resource): " + failure.diagnostic.message
            throw moved
        }
        return out
    }
}

/// Bytes in memory as a `ByteSource`.
final class BufferByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        buffer.copyBytes(from: bytes[offset..<(offset + n)])
        offset += n
        return n
    }
}

/// Bytes collected in memory as a `ByteSink`.
final class BufferByteSink: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        bytes.append(contentsOf: chunk)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
