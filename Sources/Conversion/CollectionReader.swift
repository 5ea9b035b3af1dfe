import CalendarModel

/// Reads a vdir collection (one .ics file per item) as one calendar: the collection's
/// `displayname` and `color` name it, each item file contributes its entries, and a time zone
/// repeated in many item files is passed on once.
final class CollectionReader: CalendarReader {
    private let items: [String]
    private let title: String?
    private let color: String?
    private let converter: Converter
    private let request: ConversionRequest
    private let log: DiagnosticLog
    private var itemIndex = 0
    private var current: (any CalendarReader)?
    private var currentSource: FileByteSource?
    private var seenZones: Set<String> = []
    private var state = State.notStarted
    /// Bytes of the item files finished so far.
    private var finishedBytes = 0

    private enum State {
        case notStarted, reading, ended
    }

    /// The item file being read, for diagnostics and reports (entries' lines refer to it).
    private(set) var currentItemName: String?

    init(items: [String], title: String?, color: String?, converter: Converter, request: ConversionRequest, log: DiagnosticLog) {
        self.items = items
        self.title = title
        self.color = color
        self.converter = converter
        self.request = request
        self.log = log
    }

    /// Bytes read so far across the collection's files.
    var bytesRead: Int { finishedBytes + (currentSource?.bytesRead ?? 0) }

    func next() throws -> CalendarStreamElement? {
        switch state {
        case .notStarted:
            state = .reading
            var calendar = CalendarModel.Calendar(title: title)
            calendar.color = color
            return .beginCalendar(calendar)
        case .ended:
            return nil
        case .reading:
            break
        }
        while true {
            if current == nil {
                guard itemIndex < items.count else {
                    state = .ended
                    return .endCalendar(trailingProperties: [])
                }
                let path = items[itemIndex]
                itemIndex += 1
                currentItemName = path
                let source = try FileByteSource(path: path)
                currentSource = source
                current = try converter.makeReader(name: path, source: source, request: request, log: log)
            }
            let element: CalendarStreamElement?
            do {
                element = try current!.next()
            } catch let failure as CalendarError where failure.kind == .data && !request.strict {
                // One unreadable item does not cost the collection its other items.
                log.warning(file: failure.diagnostic.file, line: failure.diagnostic.line,
                            failure.diagnostic.message + "; item file skipped")
                element = nil
            }
            guard let element else {
                finishedBytes += currentSource?.bytesRead ?? 0
                current = nil
                currentSource = nil
                continue
            }
            switch element {
            case .beginCalendar, .endCalendar:
                continue
            case .entry(.timeZone(let zone), _):
                let id = zone.property("TZID").flatMap { p -> String? in
                    if case .text(let t) = p.value { return t.first }
                    if case .unknown(_, let literal) = p.value { return literal }
                    return nil
                } ?? ""
                guard seenZones.insert(id).inserted else { continue }
                return element
            case .entry:
                return element
            }
        }
    }
}
