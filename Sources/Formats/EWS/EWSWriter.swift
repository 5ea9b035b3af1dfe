import CalendarModel
import ExchangeData
import Foundation

/// Writes calendars as the document Exchange itself returns for GetItem (a SOAP envelope with
/// one `m:GetItemResponseMessage` per `t:CalendarItem`), or as a CreateItem request
/// (`EWSWriterSettings`). A series is one `RecurringMaster` item holding its `Recurrence`,
/// `ModifiedOccurrences` and `DeletedOccurrences`, followed by each modified occurrence's own
/// `Exception` item, so that an occurrence's own subject, location and attendees survive.
///
/// Streaming: single items are written as they arrive. A series' master and its overrides
/// (RECURRENCE-ID items) must meet before the master can be written, and iCalendar does not
/// order them, so series wait in a pending table keyed by UID, in arrival order, at most
/// `pendingSeriesLimit` of them: when one more arrives the oldest is written. ICS files put
/// overrides right after (or a few items from) their master, so they meet long before that;
/// an override arriving after its master was written (more than `pendingSeriesLimit` series
/// later), or one without a master, is written as an exception item of its own (UID and
/// RecurrenceId say which occurrence it replaces) and reported, since the master's
/// `ModifiedOccurrences` cannot list it any more. Memory is bounded by the limit, not the archive.
public struct EWSWriter: CalendarWriter {
    /// How many series may wait for their overrides at once.
    public static let pendingSeriesLimit = 256
    /// How many occurrences a rule EWS cannot hold is expanded to at most.
    public static let expansionLimit = 1000

    static let soapNamespace: StaticString = "http://schemas.xmlsoap.org/soap/envelope/"

    private let sink: ByteSink
    let log: DiagnosticLog
    let destination: String
    /// Nil when `ews.request` named no known document (reported at the first write).
    let settings: EWSWriterSettings?
    let vocabulary: ParticipantVocabulary
    var xml = EWSXMLEmitter()
    var zones = EWSZoneTable()
    var losses = EWSLossTally()
    /// The calendar's X-WR-TIMEZONE: the zone of its floating times and all-day items.
    var calendarZone: EWSZone?
    /// The stream's VTIMEZONEs, for TZIDs that name no known zone.
    private var definitions = ExchangeZoneDefinitions()
    /// Calendars begun so far.
    private var calendarCount = 0
    private var started = false

    struct Series {
        var master: (event: Event, line: Int)?
        var overrides: [(event: Event, line: Int)] = []
    }

    private var pending: [String: Series] = [:]
    private var pendingOrder: [String] = []
    private var pendingHead = 0

    /// A writer onto `sink` with `options`' settings and `--map` words.
    public init(sink: ByteSink, options: WriteOptions, log: DiagnosticLog, vocabulary: ParticipantVocabulary) {
        self.sink = sink
        self.log = log
        self.destination = options.destinationName
        self.settings = EWSWriterSettings(options.formatSettings)
        self.vocabulary = vocabulary
    }

    var createsItems: Bool { settings?.document == .createItemRequest }

    public mutating func write(_ element: CalendarStreamElement) throws {
        try startDocument()
        switch element {
        case .beginCalendar(let calendar):
            calendarCount += 1
            if calendarCount == 2 {
                losses.loss(
                    "calendars", log: log, file: destination, line: nil,
                    "an EWS document is one folder's items: the input's calendars are written as one, so a UID used in two of them names one series"
                )
            }
            calendarZone = calendar.defaultTimeZone.flatMap { zones.zone($0) }
            if calendar.title != nil {
                losses.loss("calendar.title", log: log, file: destination, line: nil, "EWS items carry no calendar name")
            }
        case .entry(let entry, let line):
            switch entry {
            case .event(let event): try route(zoned(event, line: line), line: line)
            case .reminder:
                losses.loss(
                    "reminders", log: log, file: destination, line: line, "a VTODO is not a calendar item; EWS tasks are not written")
            case .timeZone(let definition):
                // Zones are written from current tz data as each item needs them; a definition
                // serves a TZID that names no zone by itself.
                definitions.add(definition)
            case .other(let component):
                losses.loss(
                    "components.\(component.name)", log: log, file: destination, line: line,
                    "EWS calendar items cannot hold a \(component.name)")
            }
        case .endCalendar:
            // A series never spans calendars.
            try writeAllPending()
            calendarZone = nil
        }
        try flushIfFull()
    }

    public mutating func finish() throws {
        try startDocument()
        try writeAllPending()
        if createsItems {
            xml.close("m:Items")
            xml.close("m:CreateItem")
        } else {
            xml.close("m:ResponseMessages")
            xml.close("m:GetItemResponse")
        }
        xml.close("s:Body")
        xml.close("s:Envelope")
        xml.append(0x0A)
        try flush()
        losses.reportTotals(log: log, file: destination)
        if xml.replacedCharacters > 0 {
            log.warning(file: destination, "\(xml.replacedCharacters) characters XML cannot carry were replaced with U+FFFD")
        }
    }

    private mutating func flush() throws {
        guard !xml.buffer.isEmpty else { return }
        try sink.write(xml.takeBytes())
    }

    /// Hands what is written to the sink once it passes 64 KiB. Called after each item, not
    /// only after each input element: one element can become many items (a series expanded to
    /// `expansionLimit` occurrences, the pending series at the end), and holding them all made
    /// peak memory grow with the archive (two expansions of 1000 items put 100k items 9 MB over 10k).
    mutating func flushIfFull() throws {
        if xml.buffer.count >= 1 << 16 { try flush() }
    }

    private mutating func startDocument() throws {
        guard !started else { return }
        guard let settings else {
            throw CalendarError(
                .usage, file: destination,
                "--ews-request takes \(EWSWriterSettings.Document.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        started = true
        xml.declaration()
        xml.open(
            "s:Envelope",
            " xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:m=\"http://schemas.microsoft.com/exchange/services/2006/messages\" xmlns:t=\"http://schemas.microsoft.com/exchange/services/2006/types\""
        )
        switch settings.document {
        case .getItemResponse:
            xml.open("s:Header")
            // What Exchange 2016 and Exchange Online answer with; readers use it to pick a schema.
            xml.empty(
                "t:ServerVersionInfo",
                " MajorVersion=\"15\" MinorVersion=\"1\" MajorBuildNumber=\"2507\" MinorBuildNumber=\"6\" Version=\"V2017_07_11\"")
            xml.close("s:Header")
            xml.open("s:Body")
            xml.open("m:GetItemResponse")
            xml.open("m:ResponseMessages")
        case .createItemRequest:
            xml.open("s:Header")
            // StartTimeZone and EndTimeZone need Exchange 2010 or later.
            xml.empty("t:RequestServerVersion", " Version=\"Exchange2013\"")
            xml.close("s:Header")
            xml.open("s:Body")
            xml.open("m:CreateItem", " SendMeetingInvitations=\"SendToNone\"")
            xml.open("m:SavedItemFolderId")
            xml.empty("t:DistinguishedFolderId", " Id=\"calendar\"")
            xml.close("m:SavedItemFolderId")
            xml.open("m:Items")
        }
    }

    /// `event` with its times in zones Exchange can name (`ExchangeZoneDefinitions`); a zone
    /// that could not be kept is reported.
    private mutating func zoned(_ event: Event, line: Int) -> Event {
        var lost: [String] = []
        let result = definitions.resolving(event, lost: &lost)
        for message in lost { losses.loss("timeZone", log: log, file: destination, line: line, message) }
        return result
    }

    // MARK: - Grouping series

    private mutating func route(_ event: Event, line: Int) throws {
        guard let uid = event.uid else {
            // No override can name an event without a UID: a series is complete as it comes.
            if event.item.hasRecurrenceRules {
                try writeMaster(event, line: line, overrides: [])
            } else {
                writeSingle(event, line: line)
            }
            return
        }
        if event.item.recurrenceID != nil {
            try enqueue(uid) { $0.overrides.append((event, line)) }
        } else if event.item.hasRecurrenceRules || pending[uid] != nil {
            if pending[uid]?.master != nil {
                // A second master with the same UID: the first is complete as it is.
                if let series = pending.removeValue(forKey: uid) { try writeSeries(series) }
            }
            try enqueue(uid) { $0.master = (event, line) }
        } else {
            writeSingle(event, line: line)
        }
    }

    private mutating func enqueue(_ uid: String, _ change: (inout Series) -> Void) throws {
        if pending[uid] == nil {
            pending[uid] = Series()
            pendingOrder.append(uid)
        }
        change(&pending[uid]!)
        while pending.count > Self.pendingSeriesLimit { try writeOldestPending() }
    }

    private mutating func writeOldestPending() throws {
        while pendingHead < pendingOrder.count {
            let uid = pendingOrder[pendingHead]
            pendingHead += 1
            if let series = pending.removeValue(forKey: uid) {
                try writeSeries(series)
                break
            }
        }
        if pendingHead > 4096 && pendingHead * 2 > pendingOrder.count {
            pendingOrder.removeFirst(pendingHead)
            pendingHead = 0
        }
    }

    private mutating func writeAllPending() throws {
        while !pending.isEmpty { try writeOldestPending() }
        pendingOrder.removeAll(keepingCapacity: true)
        pendingHead = 0
    }

    private mutating func writeSeries(_ series: Series) throws {
        guard let master = series.master else {
            for (override, line) in series.overrides {
                log.warning(
                    file: destination, line: line,
                    "the occurrence \(override.uid ?? "") of \(override.recurrenceID.map(describe) ?? "?") has no series within \(Self.pendingSeriesLimit) series of it; written as an exception item its series' ModifiedOccurrences does not list"
                )
                writeOrphanOverride(override, line: line)
                try flushIfFull()
            }
            return
        }
        try writeMaster(master.event, line: master.line, overrides: series.overrides)
    }

    /// `2024-03-05 09:00 (Europe/Berlin)`, for messages.
    func describe(_ value: CalendarDateTime) -> String {
        var text = String(format: "%04d-%02d-%02d", value.date.year, value.date.month, value.date.day)
        if let time = value.time { text += String(format: " %02d:%02d", time.hour, time.minute) }
        switch value.reference {
        case .utc: text += " UTC"
        case .zone(let id): text += " (\(id))"
        case .floating: break
        }
        return text
    }

    // MARK: - Messages

    /// Opens what holds one item: in a response, a message of its own (as Exchange answers
    /// GetItem, one message per item id).
    mutating func openItemMessage() {
        guard !createsItems else { return }
        xml.open("m:GetItemResponseMessage", " ResponseClass=\"Success\"")
        xml.element("m:ResponseCode", literal: "NoError")
        xml.open("m:Items")
    }

    mutating func closeItemMessage() {
        guard !createsItems else { return }
        xml.close("m:Items")
        xml.close("m:GetItemResponseMessage")
    }
}

/// Losses of one run, each field reported once with its first place and counted after, so a
/// 100k-item archive whose every item carries a field EWS cannot hold gets one line, not 100k.
struct EWSLossTally {
    private var counts: [String: Int] = [:]
    private var order: [String] = []

    mutating func loss(_ field: String, log: DiagnosticLog, file: String, line: Int?, _ message: String) {
        if let count = counts[field] {
            counts[field] = count + 1
            return
        }
        counts[field] = 1
        order.append(field)
        log.loss(file: file, line: line, field: field, message)
    }

    /// One line per field lost more than once, with how many times.
    func reportTotals(log: DiagnosticLog, file: String) {
        for field in order {
            guard let count = counts[field], count > 1 else { continue }
            log.warning(file: file, "\(field): lost on \(count) items in all (first reported above)")
        }
    }
}
