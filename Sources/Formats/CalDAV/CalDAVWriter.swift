import CalendarModel
import JSONCoding
import XMLSupport

/// Writes calendars as a multistatus archive: per calendar, one DAV:response for the
/// collection (its properties) and one per object resource (href, getetag, calendar-data), as
/// a PROPFIND and a calendar-query would have returned them, so the archive keeps what a server
/// knew and reads back as the same calendars.
///
/// CalDAV puts every component with the same UID into one resource (RFC 4791 §4.1), and a
/// stream need not keep them together, so no resource can be written before its calendar ends:
/// the calendar's last item may belong to its first resource. With iCalendar calendar data
/// (the default) each item is written out as calendar data when it arrives and spooled
/// (`ResourceSpool`: memory, then a temporary file), and at the calendar's end the responses are
/// written from the spool, each resource's items read back together: memory is one resource
/// plus a few dozen bytes a resource for the href index. The order is the one a whole calendar
/// in memory gave (by each resource's first item), so archives are as they were. Other
/// calendar data (xCal, whose writer is not a concatenation of items) holds the calendar's
/// entries until it ends.
public struct CalDAVWriter: CalendarWriter {
    private let sink: ByteSink
    private let dataFormat: any CalendarFormat
    /// The iCalendar text format, for calendar-timezone (always text/calendar, RFC 4791 §5.2.2).
    private let textFormat: (any CalendarFormat)?
    private let log: DiagnosticLog
    private let destination: String
    /// `--map` words, handed on to the writers of the calendar data.
    private let vocabularyOverrides: VocabularyOverrides
    private var xml = XMLByteWriter(namespaces: [
        ("d", DAVNames.dav), ("c", DAVNames.caldav), ("cs", DAVNames.calendarServer), ("ical", DAVNames.apple),
    ])
    private var started = false
    private var calendar: Calendar?
    private var entries: [(entry: CalendarEntry, line: Int)] = []
    private var usedCollections: Set<String> = []
    /// Per slug, a number below which every `-n` href is taken: thousands of calendars of one
    /// name (a mutated archive had 63,000) were numbered from 1 each time, quadratic in them.
    private var firstFreeSuffix: [String: Int] = [:]
    private var syncToken: String?
    /// The streaming path's state for the open calendar (iCalendar calendar data).
    private var stream: Stream?
    /// The spool, kept from one calendar to the next (its file too).
    private var spoolForReuse: ResourceSpool?

    /// A writer onto `sink` that writes calendar data with `dataFormat`, one of `formats` (the
    /// one for `text/calendar` also writes calendar-timezone).
    public init(
        sink: ByteSink, dataFormat: any CalendarFormat, formats: [any CalendarFormat], log: DiagnosticLog, destination: String,
        vocabularyOverrides: VocabularyOverrides = .none
    ) {
        self.sink = sink
        self.dataFormat = dataFormat
        self.textFormat = formats.first { $0.mediaType == "text/calendar" }
        self.log = log
        self.destination = destination
        self.vocabularyOverrides = vocabularyOverrides
    }

    private static func dav(_ local: String) -> XMLName { XMLName(DAVNames.dav, local) }

    public mutating func write(_ element: CalendarStreamElement) throws {
        if !started {
            started = true
            xml.declaration()
            xml.start(DAVNames.multistatus)
        }
        switch element {
        case .beginCalendar(let c):
            calendar = c
            entries = []
            if dataFormat.mediaType == "text/calendar" { try beginStream(c) }
        case .entry(let e, let line):
            if stream == nil, calendar == nil, dataFormat.mediaType == "text/calendar" { try beginStream(Calendar()) }
            if stream != nil {
                try spool(e, line: line)
            } else {
                entries.append((e, line))
            }
        case .endCalendar(let trailing):
            var c = calendar ?? Calendar()
            for p in trailing {
                if p.name == CalDAVProperty.syncToken, case .unknown(_, let token) = p.value {
                    syncToken = token
                } else {
                    c.properties.append(p)
                }
            }
            if stream != nil {
                try writeSpooledCalendar(c)
            } else {
                try writeCalendar(c)
            }
            calendar = nil
            entries = []
        }
        if xml.bufferedByteCount >= 1 << 16 { try sink.write(xml.takeBytes()) }
    }

    public mutating func finish() throws {
        if !started {
            started = true
            xml.declaration()
            xml.start(DAVNames.multistatus)
        }
        if let syncToken { xml.element(DAVNames.syncToken, text: syncToken) }
        xml.end()
        try sink.write(xml.takeBytes())
        if xml.replacedCharacters > 0 {
            log.warning(file: destination, "\(xml.replacedCharacters) characters XML cannot carry were replaced with U+FFFD")
        }
    }

    // MARK: - One calendar, streamed

    private struct Stream {
        var spool: ResourceSpool
        /// Renders each item as calendar data (iCalendar text: what it writes for a calendar
        /// is what it writes for each element, one after the other, and `finish()` hands over
        /// what it holds and leaves it ready for more).
        var data: any CalendarWriter
        var sink: CollectingSink
        /// The collection's href as the calendar's opening properties give it, for the keys.
        var collection: String
        /// Each resource's last record, by its href's hash; `exact` by href for an href whose
        /// hash another one had. The index is this, a few dozen bytes a resource: the
        /// resources' order is that of their first records in the spool.
        var keys: [Int: Int] = [:]
        var exact: [String: Int] = [:]
        var resourceCount = 0
        /// The first record of the resource made last.
        var newest = -1
        /// Zone definitions by TZID (the first wins), and the zones not yet given to a resource.
        var definitions: [String: Component] = [:]
        var pendingZones: [String] = []
        /// Zones a resource carries because they came before it, by its first record (a few
        /// resources have any).
        var leadingZones: [Int: [String]] = [:]
        var position = 0
        var unnamed = 0
        var scratch: [UInt8] = []
    }

    private mutating func beginStream(_ calendar: Calendar) throws {
        let sink = CollectingSink()
        let data = dataFormat.makeWriter(
            sink: sink, options: WriteOptions(destinationName: destination, vocabularyOverrides: vocabularyOverrides), log: log)
        let spool = spoolForReuse ?? ResourceSpool(name: destination)
        spoolForReuse = spool
        spool.reset()
        stream = Stream(spool: spool, data: data, sink: sink, collection: collectionHref(calendar, claim: false))
    }

    /// Spools one entry: a zone is kept (zones are few); an item is written out as calendar
    /// data and filed under its resource.
    private mutating func spool(_ entry: CalendarEntry, line: Int) throws {
        guard var s = stream else { return }
        stream = nil
        defer { stream = s }
        let position = s.position
        s.position += 1
        if case .timeZone(let z) = entry {
            let key = CalDAVReader.zoneID(z) ?? "#\(position)"
            if s.definitions[key] == nil { s.definitions[key] = z }
            if key != calendar?.defaultTimeZone, !s.pendingZones.contains(key) { s.pendingZones.append(key) }
            return
        }
        let properties = Self.properties(of: entry)
        var relative = true
        var href: String
        if let literal = Self.literal(properties, CalDAVProperty.href) {
            href = literal
            relative = false
        } else if let uid = Self.uid(of: entry) {
            href = Self.pathSegment(uid) + ".ics"
        } else {
            s.unnamed += 1
            href = "calport-\(s.unnamed).ics"
            log.warning(file: destination, line: line, "a \(Self.componentName(entry)) without UID is archived as \(s.collection + href)")
        }
        let key = relative ? s.collection + href : href
        let previous = try Self.lastRecord(key, in: &s)
        try s.data.write(.entry(Self.untagged(entry), line: 0))
        try s.data.finish()
        defer { s.sink.bytes.removeAll(keepingCapacity: true) }
        let offset = try s.spool.append(
            first: previous == nil, relative: relative, href: href, etag: Self.literal(properties, CalDAVProperty.etag),
            zoneReferences: Self.zoneReferences(entry), data: s.sink.bytes)
        if let previous {
            try s.spool.link(previous.offset, to: offset)
        } else {
            s.resourceCount += 1
            s.newest = offset
            if !s.pendingZones.isEmpty {
                s.leadingZones[offset] = s.pendingZones
                s.pendingZones = []
            }
        }
        if previous?.exact ?? (s.keys[key.hashValue] != nil) {
            s.exact[key] = offset
        } else {
            s.keys[key.hashValue] = offset
        }
    }

    /// The last record of the resource whose href is `key`, if one has it, and whether it is
    /// filed by href (its hash belongs to another).
    private static func lastRecord(_ key: String, in s: inout Stream) throws -> (offset: Int, exact: Bool)? {
        if let offset = s.exact[key] { return (offset, true) }
        guard let offset = s.keys[key.hashValue] else { return nil }
        let last = try s.spool.record(at: offset, into: &s.scratch, hrefOnly: true)
        return (last.relative ? s.collection + last.href : last.href) == key ? (offset, false) : nil
    }

    /// Writes the collection's response and then each resource's, from the spool.
    private mutating func writeSpooledCalendar(_ calendar: Calendar) throws {
        guard var s = stream else { return }
        stream = nil
        // The collection's href as the whole calendar gives it; only trailing properties can
        // make it differ from the one the items were filed under.
        let collection = collectionHref(calendar)
        let calendarZone = calendar.defaultTimeZone.flatMap { s.definitions[$0] != nil ? $0 : nil }
        let header = Self.resourceHeader(calendar, hasZoneDefinition: calendarZone != nil)
        // A calendar without items still keeps its VCALENDAR properties and zones, in a
        // resource of their own.
        let zonesOnly = s.resourceCount == 0 && (!s.pendingZones.isEmpty || Self.saysSomething(header))
        if s.resourceCount > 0 && !s.pendingZones.isEmpty { s.leadingZones[s.newest, default: []] += s.pendingZones }
        try writeCollection(calendar, href: collection, zone: calendarZone.flatMap { s.definitions[$0] })
        // The pieces every resource shares, written once: the VCALENDAR header and end, and
        // each zone.
        try s.data.write(.beginCalendar(header))
        try s.data.finish()
        var pieces = SharedPieces(head: s.sink.bytes)
        s.sink.bytes.removeAll(keepingCapacity: true)
        try s.data.write(.endCalendar(trailingProperties: []))
        try s.data.finish()
        pieces.tail = s.sink.bytes
        s.sink.bytes.removeAll(keepingCapacity: true)
        if zonesOnly {
            try writeResource(first: nil, zones: s.pendingZones, collection: collection, &s, &pieces)
        }
        // Resources in the order of their first records, which is the spool's.
        var offset = 0
        let end = s.spool.endOffset
        while offset < end {
            let record = try s.spool.record(at: offset, into: &s.scratch, hrefOnly: true)
            if record.first {
                try writeResource(first: offset, zones: s.leadingZones[offset] ?? [], collection: collection, &s, &pieces)
            }
            offset = record.end
        }
        s.spool.reset()
    }

    /// What every resource of a calendar shares, and scratch space for one resource.
    private struct SharedPieces {
        var head: [UInt8]
        var tail: [UInt8] = []
        var zones: [String: [UInt8]] = [:]
        var body: [UInt8] = []
        var text: [UInt8] = []
    }

    /// Writes the response of the resource whose first record is at `first` (nil: the
    /// calendar's own resource, without items), carrying `zones` and those its items use.
    private mutating func writeResource(
        first: Int?, zones leading: [String], collection: String, _ s: inout Stream, _ pieces: inout SharedPieces
    ) throws {
        var zones = leading
        var href = collection + "calport-calendar.ics"
        var etag: String?
        pieces.body.removeAll(keepingCapacity: true)
        var next = first ?? -1
        while next >= 0 {
            let record = try s.spool.record(at: next, into: &s.scratch)
            if next == first {
                href = record.relative ? collection + record.href : record.href
                etag = record.etag
            }
            for id in record.zoneReferences where s.definitions[id] != nil && !zones.contains(id) { zones.append(id) }
            pieces.body += s.scratch[record.data]
            next = record.next
        }
        pieces.text.removeAll(keepingCapacity: true)
        pieces.text += pieces.head
        for id in zones {
            guard let zone = s.definitions[id] else { continue }
            if pieces.zones[id] == nil {
                try s.data.write(.entry(.timeZone(zone), line: 0))
                try s.data.finish()
                pieces.zones[id] = s.sink.bytes
                s.sink.bytes.removeAll(keepingCapacity: true)
            }
            pieces.text += pieces.zones[id] ?? []
        }
        pieces.text += pieces.body
        pieces.text += pieces.tail
        xml.start(DAVNames.response)
        xml.element(DAVNames.href, text: href)
        xml.start(DAVNames.propstat)
        xml.start(DAVNames.prop)
        xml.element(DAVNames.getetag, text: etag ?? Self.etag(pieces.text))
        xml.start(DAVNames.calendarData)
        pieces.text.withUnsafeBufferPointer { xml.text(utf8: $0) }
        xml.end()
        xml.end()
        xml.element(DAVNames.status, text: "HTTP/1.1 200 OK")
        xml.end()
        xml.end()
        if xml.bufferedByteCount >= 1 << 16 {
            let sink = self.sink
            try xml.takeBytes { try sink.write($0) }
        }
    }

    // MARK: - One calendar

    /// An object resource being assembled: its href, etag and entries, in stream order.
    private struct Resource {
        var href: String
        var etag: String?
        var zones: [String] = []
        var entries: [CalendarEntry] = []
    }

    private mutating func writeCalendar(_ calendar: Calendar) throws {
        let collection = collectionHref(calendar)
        // Zone definitions by TZID (the first wins, as the reader keeps it); one without a
        // TZID gets a key of its own so it is archived too.
        var definitions: [String: Component] = [:]
        var zoneKeys: [Int: String] = [:]
        for (position, (entry, _)) in entries.enumerated() {
            guard case .timeZone(let z) = entry else { continue }
            let key = CalDAVReader.zoneID(z) ?? "#\(position)"
            zoneKeys[position] = key
            if definitions[key] == nil { definitions[key] = z }
        }
        let calendarZone = calendar.defaultTimeZone.flatMap { definitions[$0] != nil ? $0 : nil }
        var resources: [Resource] = []
        var index: [String: Int] = [:]
        var leadingZones: [String] = []
        var unnamed = 0
        for (position, (entry, line)) in entries.enumerated() {
            if case .timeZone = entry {
                if let key = zoneKeys[position], key != calendarZone, !leadingZones.contains(key) { leadingZones.append(key) }
                continue
            }
            let properties = Self.properties(of: entry)
            var href = Self.literal(properties, CalDAVProperty.href)
            if href == nil {
                if let uid = Self.uid(of: entry) {
                    href = collection + Self.pathSegment(uid) + ".ics"
                } else {
                    unnamed += 1
                    href = collection + "calport-\(unnamed).ics"
                    log.warning(file: destination, line: line, "a \(Self.componentName(entry)) without UID is archived as \(href!)")
                }
            }
            let key = href!
            if index[key] == nil {
                index[key] = resources.count
                resources.append(Resource(href: key, etag: Self.literal(properties, CalDAVProperty.etag), zones: leadingZones))
                leadingZones = []
            }
            resources[index[key]!].entries.append(Self.untagged(entry))
        }
        let header = Self.resourceHeader(calendar, hasZoneDefinition: calendarZone != nil)
        if resources.isEmpty && (!leadingZones.isEmpty || Self.saysSomething(header)) {
            // A calendar without items still keeps its VCALENDAR properties and zones, in a
            // resource of their own.
            resources.append(Resource(href: collection + "calport-calendar.ics", zones: leadingZones))
        } else if !leadingZones.isEmpty {
            resources[resources.count - 1].zones += leadingZones
        }
        try writeCollection(calendar, href: collection, zone: calendarZone.flatMap { definitions[$0] })
        for resource in resources {
            var zones = resource.zones
            for entry in resource.entries {
                for id in Self.zoneReferences(entry) where definitions[id] != nil && !zones.contains(id) { zones.append(id) }
            }
            var elements: [CalendarStreamElement] = [.beginCalendar(header)]
            elements += zones.compactMap { definitions[$0] }.map { .entry(.timeZone($0), line: 0) }
            elements += resource.entries.map { .entry($0, line: 0) }
            elements.append(.endCalendar(trailingProperties: []))
            let data = BufferByteSink()
            var writer = dataFormat.makeWriter(
                sink: data, options: WriteOptions(destinationName: destination, vocabularyOverrides: vocabularyOverrides), log: log)
            for e in elements { try writer.write(e) }
            try writer.finish()
            let text = String(decoding: data.bytes, as: UTF8.self)
            xml.start(DAVNames.response)
            xml.element(DAVNames.href, text: resource.href)
            xml.start(DAVNames.propstat)
            xml.start(DAVNames.prop)
            xml.element(DAVNames.getetag, text: resource.etag ?? Self.etag(data.bytes))
            var attributes: [XMLAttribute] = []
            if dataFormat.mediaType != "text/calendar" {
                attributes.append(XMLAttribute(XMLName("", "content-type"), dataFormat.mediaType))
            }
            xml.element(DAVNames.calendarData, text: text, attributes: attributes)
            xml.end()
            xml.element(DAVNames.status, text: "HTTP/1.1 200 OK")
            xml.end()
            xml.end()
            if xml.bufferedByteCount >= 1 << 16 { try sink.write(xml.takeBytes()) }
        }
    }

    /// The collection's response: what PROPFIND on it would return.
    private mutating func writeCollection(_ calendar: Calendar, href: String, zone: Component?) throws {
        xml.start(DAVNames.response)
        xml.element(DAVNames.href, text: href)
        xml.start(DAVNames.propstat)
        xml.start(DAVNames.prop)
        xml.start(DAVNames.resourcetype)
        xml.emptyElement(DAVNames.collection)
        xml.emptyElement(calendar.kind == .subscription ? DAVNames.subscribed : DAVNames.calendar)
        switch Self.literal(calendar.properties, CalDAVProperty.shared) {
        case "owner": xml.emptyElement(DAVNames.sharedOwner)
        case "sharee": xml.emptyElement(DAVNames.shared)
        default: break
        }
        xml.end()
        if let title = calendar.title { xml.element(DAVNames.displayname, text: title) }
        if let description = calendar.description { xml.element(DAVNames.calendarDescription, text: description) }
        if let color = calendar.color { xml.element(DAVNames.calendarColor, text: color) }
        if let order = Self.literal(calendar.properties, CalDAVProperty.order) { xml.element(DAVNames.calendarOrder, text: order) }
        if let zone, let textFormat {
            let sink = BufferByteSink()
            var writer = textFormat.makeWriter(
                sink: sink, options: WriteOptions(destinationName: destination, vocabularyOverrides: vocabularyOverrides), log: log)
            try writer.write(.beginCalendar(Self.resourceHeader(calendar, hasZoneDefinition: true)))
            try writer.write(.entry(.timeZone(zone), line: 0))
            try writer.write(.endCalendar(trailingProperties: []))
            try writer.finish()
            xml.element(DAVNames.calendarTimezone, text: String(decoding: sink.bytes, as: UTF8.self))
        }
        if let components = Self.literal(calendar.properties, CalDAVProperty.components) {
            xml.start(DAVNames.supportedComponents)
            for name in components.split(separator: ",") {
                xml.emptyElement(DAVNames.comp, attributes: [XMLAttribute(XMLName("", "name"), String(name))])
            }
            xml.end()
        }
        if let ctag = Self.literal(calendar.properties, CalDAVProperty.ctag) { xml.element(DAVNames.getctag, text: ctag) }
        if let token = Self.literal(calendar.properties, CalDAVProperty.syncToken) { xml.element(DAVNames.syncToken, text: token) }
        if calendar.kind == .subscription {
            if let url = calendar.subscriptionURL {
                xml.start(DAVNames.source)
                xml.element(DAVNames.href, text: url)
                xml.end()
            }
            if let rate = calendar.refreshInterval { xml.element(DAVNames.refreshrate, text: rate.rfc5545Text) }
        } else if !calendar.allowsContentModifications {
            xml.start(DAVNames.currentUserPrivilegeSet)
            xml.start(DAVNames.privilege)
            xml.emptyElement(Self.dav("read"))
            xml.end()
            xml.end()
        }
        xml.end()
        xml.element(DAVNames.status, text: "HTTP/1.1 200 OK")
        xml.end()
        xml.end()
    }

    // MARK: - Helpers

    /// The href of a calendar's collection: the one it came from, else one made from its title.
    /// `claim: false` only looks: the next call gives the same href.
    private mutating func collectionHref(_ calendar: Calendar, claim: Bool = true) -> String {
        var href = Self.literal(calendar.properties, CalDAVProperty.href) ?? ""
        if href.isEmpty || usedCollections.contains(href) {
            let base = "/calendars/" + Self.slug(calendar.title ?? "calendar")
            href = base + "/"
            var n = 1
            if usedCollections.contains(href), let known = firstFreeSuffix[base] {
                n = known
                href = base + "-\(n)/"
            }
            while usedCollections.contains(href) {
                n += 1
                href = base + "-\(n)/"
            }
            // Hrefs are only ever added, so every number below n stays taken.
            if n > 1 { firstFreeSuffix[base] = n }
        }
        if claim { usedCollections.insert(href) }
        return href
    }

    /// The VCALENDAR header each resource carries: what the collection's properties cannot say.
    static func resourceHeader(_ calendar: Calendar, hasZoneDefinition: Bool) -> Calendar {
        var header = Calendar()
        header.productID = calendar.productID
        header.version = calendar.version
        header.scale = calendar.scale
        header.method = calendar.method
        if !hasZoneDefinition { header.defaultTimeZone = calendar.defaultTimeZone }
        if calendar.kind != .subscription {
            header.subscriptionURL = calendar.subscriptionURL
            header.refreshInterval = calendar.refreshInterval
        }
        header.properties = calendar.properties.filter { !CalDAVProperty.isCalDAV($0.name) }
        header.spellings = calendar.spellings
        header.propertyParameters = calendar.propertyParameters
        return header
    }

    /// Whether a resource header holds anything the ICS writer would not make up itself.
    static func saysSomething(_ header: Calendar) -> Bool {
        header.productID != nil || header.version != nil || header.scale != nil || header.method != nil || !header.properties.isEmpty
            || header.defaultTimeZone != nil || header.subscriptionURL != nil || header.refreshInterval != nil
    }

    static func properties(of entry: CalendarEntry) -> [Property] {
        switch entry {
        case .event(let e): return e.item.properties
        case .reminder(let r): return r.item.properties
        case .other(let c), .timeZone(let c): return c.properties
        }
    }

    static func literal(_ properties: [Property], _ name: String) -> String? {
        guard let p = properties.first(where: { $0.name == name }) else { return nil }
        switch p.value {
        case .unknown(_, let literal): return literal
        case .text(let t): return t.joined(separator: ",")
        case .uri(let u): return u
        default: return nil
        }
    }

    static func uid(of entry: CalendarEntry) -> String? {
        if let uid = entry.item?.uid { return uid }
        if case .other(let c) = entry, case .text(let t)? = c.property("UID")?.value { return t.first }
        return nil
    }

    static func componentName(_ entry: CalendarEntry) -> String {
        switch entry {
        case .event: return "VEVENT"
        case .reminder: return "VTODO"
        case .other(let c), .timeZone(let c): return c.name
        }
    }

    /// The entry without the href and etag it carried (they become WebDAV properties).
    static func untagged(_ entry: CalendarEntry) -> CalendarEntry {
        func strip(_ p: [Property]) -> [Property] { p.filter { $0.name != CalDAVProperty.href && $0.name != CalDAVProperty.etag } }
        switch entry {
        case .event(var e):
            e.item.properties = strip(e.item.properties)
            return .event(e)
        case .reminder(var r):
            r.item.properties = strip(r.item.properties)
            return .reminder(r)
        case .other(var c):
            c.properties = strip(c.properties)
            return .other(c)
        case .timeZone: return entry
        }
    }

    /// The TZIDs an entry's date-times refer to, in order of appearance.
    static func zoneReferences(_ entry: CalendarEntry) -> [String] {
        var out: [String] = []
        func note(_ id: String?) {
            if let id, !out.contains(id) { out.append(id) }
        }
        func dates(_ d: CalendarDateTime?) { note(d?.reference.zoneIdentifier) }
        func scan(_ properties: [Property]) {
            for p in properties {
                switch p.value {
                case .dateTimes(let ds): ds.forEach(dates)
                case .periods(let ps): ps.forEach { dates($0.start) }
                default: break
                }
                if let tz = p.parameter("TZID") { note(tz.value) }
            }
        }
        func scan(_ c: Component) {
            scan(c.properties)
            c.components.forEach(scan)
        }
        if let item = entry.item {
            dates(item.start)
            dates(item.recurrenceID)
            item.recurrenceDates.forEach {
                $0.dates.forEach(dates); $0.periods.forEach { dates($0.start) }
            }
            item.exceptionDates.forEach { $0.dates.forEach(dates) }
            if case .until(let u)? = item.recurrenceRules.first?.end { dates(u) }
            scan(item.properties)
            item.components.forEach(scan)
        }
        switch entry {
        case .event(let e): dates(e.end)
        case .reminder(let r): dates(r.due)
        case .other(let c): scan(c)
        case .timeZone: break
        }
        return out
    }

    /// A path segment for a UID: unreserved characters and "@" as they are, the rest
    /// percent-encoded (RFC 3986 §2.3), so any UID makes a valid href.
    static func pathSegment(_ uid: String) -> String {
        let hex: StaticString = "0123456789ABCDEF"
        var out: [UInt8] = []
        out.reserveCapacity(uid.utf8.count)
        for b in uid.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"):
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex.utf8Start[Int(b >> 4)])
                out.append(hex.utf8Start[Int(b & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func slug(_ title: String) -> String {
        var out = ""
        for c in title.lowercased().unicodeScalars {
            if (c >= "a" && c <= "z") || (c >= "0" && c <= "9") {
                out.unicodeScalars.append(c)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        while out.hasPrefix("-") { out.removeFirst() }
        return out.isEmpty ? "calendar" : out
    }

    /// A strong entity tag from the content (FNV-1a, 64 bits): the same data, the same tag.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer {
            for b in $0 {
                hash ^= UInt64(b)
                hash = hash &* 0x100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
