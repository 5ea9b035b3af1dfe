import CalDAVClient
import CalDAVFormat
import CalendarModel
import Foundation

/// Reads every calendar a CalDAV URL leads to (the one collection, or every calendar of the
/// principal's homes) as a calendar stream: each collection's properties open a calendar, its
/// resources follow in calendar-multiget batches read by the `caldav` format's reader as they
/// arrive, and the collection's sync token closes it. Up to `connections` batches are fetched
/// ahead while the writer works, so memory holds a few batches, never the collection.
final class CalDAVPullReader: CalendarReader {
    private let location: String
    private let options: CalDAVOptions
    private let readOptions: ReadOptions
    private let log: DiagnosticLog
    private let client: CalDAVClient
    private let url: URL

    private var calendars: [CalDAVCollection]?
    private var calendarIndex = 0
    private var open: CalDAVCollection?
    private var batches: [[URL]] = []
    private var fetches: [Int: Fetch] = [:]
    private var batchIndex = 0
    private var inner: (any CalendarReader)?
    private var zonesSent: Set<String> = []
    /// Resources read so far (for reports and progress).
    private(set) var resourcesRead = 0
    /// Each collection opened so far with the resources fetched from it, for the report's
    /// `calDAV` section (a pull into files is always a full one).
    private(set) var calendarsRead: [ConversionReport.ServerCalendar] = []

    init(location: String, options: CalDAVOptions, readOptions: ReadOptions, log: DiagnosticLog) throws {
        self.location = location
        self.options = options
        self.readOptions = readOptions
        self.log = log
        url = try CalDAVOptions.url(location)
        client = options.makeClient(for: url, log: log)
    }

    /// Requests sent so far.
    var requestCounts: RequestCounts { client.requestCounts }

    func next() throws -> CalendarStreamElement? {
        do {
            return try step()
        } catch let error as CalDAVError {
            throw error.calendarError
        }
    }

    private func step() throws -> CalendarStreamElement? {
        if calendars == nil { calendars = try client.discover(url).calendars }
        while true {
            if var reader = inner {
                let element = try reader.next()
                inner = reader
                switch element {
                case .entry(.timeZone(let zone), let line)?:
                    // Each resource repeats the zones it uses: one definition per calendar.
                    guard let id = Self.zoneID(zone), zonesSent.insert(id).inserted else { continue }
                    return .entry(.timeZone(zone), line: line)
                case .entry(let entry, let line)?:
                    if entry.item != nil { resourcesRead += 1 }
                    return .entry(entry, line: line)
                case .beginCalendar?, .endCalendar?:
                    continue
                case nil:
                    inner = nil
                }
            }
            if let collection = open {
                if batchIndex < batches.count {
                    inner = try reader(for: batchIndex, collection: collection)
                    calendarsRead[calendarsRead.count - 1].pulled += batches[batchIndex].count
                    batchIndex += 1
                    continue
                }
                open = nil
                let trailing =
                    collection.syncToken.map { [Property(name: CalDAVProperty.syncToken, value: .unknown(type: nil, literal: $0))] } ?? []
                return .endCalendar(trailingProperties: trailing)
            }
            guard let calendars, calendarIndex < calendars.count else { return nil }
            let collection = calendars[calendarIndex]
            calendarIndex += 1
            let listed = try client.resources(in: collection.url)
            batches = stride(from: 0, to: listed.count, by: options.multigetBatch).map {
                listed[$0..<min($0 + options.multigetBatch, listed.count)].map(\.url)
            }
            batchIndex = 0
            fetches = [:]
            zonesSent = []
            open = collection
            var counts = ConversionReport.ServerCalendar(url: collection.url.redacted, title: collection.displayName)
            counts.syncMethod = "full"
            calendarsRead.append(counts)
            return .beginCalendar(Self.calendar(collection))
        }
    }

    /// A reader of batch `index`'s multistatus; the batches after it are fetched meanwhile.
    private func reader(for index: Int, collection: CalDAVCollection) throws -> any CalendarReader {
        for ahead in index..<min(batches.count, index + max(1, options.connections)) where fetches[ahead] == nil {
            let client = self.client, urls = batches[ahead], collectionURL = collection.url
            fetches[ahead] = Fetch { try client.multigetBody(collection: collectionURL, urls) }
        }
        guard let fetch = fetches.removeValue(forKey: index) else {
            throw CalendarError(.io, file: location.redactedLocation, "lost a batch")
        }
        let body = try fetch.value()
        var o = readOptions
        o.sourceName = collection.url.redacted
        return StandardFormats.registry.format(id: "caldav")!.makeReader(source: MemoryByteSource(body), options: o, log: log)
    }

    /// The model's calendar for a collection's properties, with what the model has no field
    /// for kept as the `caldav` format's X-CALDAV properties.
    static func calendar(_ c: CalDAVCollection) -> CalendarModel.Calendar {
        var calendar = CalendarModel.Calendar(kind: c.isSubscription ? .subscription : .calDAV, allowsContentModifications: !c.isReadOnly)
        calendar.title = c.displayName
        calendar.color = c.color
        calendar.description = c.description
        func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            calendar.properties.append(Property(name: name, value: .unknown(type: nil, literal: value)))
        }
        add(CalDAVProperty.href, c.url.path)
        add(CalDAVProperty.ctag, c.ctag)
        add(CalDAVProperty.order, c.order)
        add(CalDAVProperty.components, c.components.isEmpty ? nil : c.components.joined(separator: ","))
        if let zone = c.timeZone, let entries = try? ICSText.read(zone, name: c.url.redacted) {
            for case .timeZone(let z) in entries { calendar.defaultTimeZone = calendar.defaultTimeZone ?? zoneID(z) }
        }
        return calendar
    }

    static func zoneID(_ zone: Component) -> String? {
        switch zone.property("TZID")?.value {
        case .text(let t)?: return t.first
        case .unknown(_, let literal)?: return literal
        default: return nil
        }
    }
}

/// A value computed on another thread, waited for once.
final class Fetch: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<[UInt8], Error> = .success([])

    init(_ work: @escaping @Sendable () throws -> [UInt8]) {
        DispatchQueue.global().async {
            self.result = Result { try work() }
            self.done.signal()
        }
    }

    func value() throws -> [UInt8] {
        done.wait()
        return try result.get()
    }
}
