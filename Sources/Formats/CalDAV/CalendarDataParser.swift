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

    /// Formats found by declared media type: a body declares the same one for each of its
    /// thousands of resources, and finding it cost 50k instructions.
    private let found = FoundFormats()

    private final class FoundFormats {
        var byMediaType: [String: (any CalendarFormat)?] = [:]
    }

    init(formats: [any CalendarFormat], options: ReadOptions, log: DiagnosticLog) {
        self.formats = formats
        self.options = options
        self.log = log
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
        let offset = nested == nil ? element.line - 1 : 0
        let outer = log
        let file = options.sourceName
        let location = element.path
        let inner = DiagnosticLog { d in
            var moved = d
            moved.file = file
            moved.line = d.line.map { $0 + offset }
            moved.location = location + (d.location.map { " " + $0 } ?? "")
            moved.message = "\(resource): " + d.message
            outer.report(moved)
        }
        var reader = format.makeReader(
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
            moved.diagnostic.location = location + (failure.diagnostic.location.map { " " + $0 } ?? "")
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
