import CalendarModel

/// The pipeline stage that puts every date-time of a stream on today's tz data: zoned times are
/// resolved (whatever their TZID spelling) and rewritten so their instants stay the same, in the
/// zone `TimeZoneOptions` asks for; VTIMEZONEs are replaced by ones built from current data.
///
/// One normalizer serves one input; call `process` for every element, in order.
public final class TimeZoneNormalizer {
    /// What zoned times become and whether VTIMEZONEs are written.
    public let options: TimeZoneOptions
    /// Resolves TZIDs; its database gives every offset.
    public let resolver: TimeZoneResolver
    /// The input's name, for diagnostics; a batch sets it as each input begins.
    public var file: String
    /// The line where a TZID is used inside the item starting at a line, for warnings about the
    /// TZID; nil (or a nil answer) names the item's line. Asked only when a warning is written.
    public var tzidLine: ((_ tzid: String, _ itemLine: Int) -> Int?)?
    /// Where repairs and unresolved TZIDs are reported, with the item's line.
    public let log: DiagnosticLog

    private let builder: TimeZoneDefinitionBuilder
    private let targetZone: String?
    private let floatingZone: String?
    // State of the calendar being streamed.
    private var definitions: [String: Component] = [:]
    private var calendarDefault: String?
    /// The zone the calendar's X-WR-TIMEZONE gives its floating times, while the output moves
    /// times to another zone (`--tz utc`, `--tz ZONE`) and `--floating-tz` does not say otherwise.
    private var calendarFloatingZone: String?
    private var emitted: Set<String> = []
    private var warned: Set<String> = []
    private var byName: [String: Source] = [:]
    private var byYears: [SourceKey: Source] = [:]
    // Hot-path memos: consecutive date-times mostly share a zone, and each output zone's name
    // and rules are looked up once (the database's lock and hashing cost more than the math).
    private var lastSource: (key: SourceKey, source: Source)?
    private var outputs: [String: OutputZone] = [:]
    private var lastOutput: (zone: String, output: OutputZone)?
    private var currentEntry: CalendarEntry?
    private var held: [(CalendarEntry, Int)] = []
    private var flushing = false
    private var waitForDefinition = false
    private var currentYears: ClosedRange<Int>?

    /// How an IANA zone is written: its output TZID and the rules its wall times follow.
    private struct OutputZone {
        var name: String
        var rules: CompiledZone?
    }

    private struct SourceKey: Hashable {
        var tzid: String
        /// Nil when the resolution does not depend on the years (most TZIDs).
        var years: ClosedRange<Int>?
    }

    /// Where a time's instant comes from and what its zone is called today. A class, since
    /// every zoned date-time looks one up and a copy of the resolution retains all its parts.
    private final class Source {
        let resolution: TimeZoneResolution
        let rules: (any ZoneRules)?
        /// Set when the output writes this TZID as it is, with these very rules: a regular wall
        /// time (see `CompiledZone.regularOffset`) then comes out as it went in.
        var unchangedByOutput: CompiledZone?

        init(resolution: TimeZoneResolution, rules: (any ZoneRules)?) {
            self.resolution = resolution
            self.rules = rules
        }
    }

    /// A normalizer for one input. Throws a usage error when `--tz ZONE` or `--floating-tz ZONE`
    /// names no zone.
    public init(options: TimeZoneOptions, resolver: TimeZoneResolver = TimeZoneResolver(), file: String, log: DiagnosticLog) throws {
        self.options = options
        self.resolver = resolver
        self.file = file
        self.log = log
        self.builder = TimeZoneDefinitionBuilder(database: resolver.database)
        func zone(_ name: String, _ option: String) throws -> String {
            guard let id = resolver.resolveName(name).zoneID else {
                throw CalendarError(.usage, file: file, "\(option) \(name): no such time zone")
            }
            return id
        }
        if case .zone(let name) = options.output { targetZone = try zone(name, "--tz") } else { targetZone = nil }
        floatingZone = try options.floatingZone.map { try zone($0, "--floating-tz") }
    }

    /// Rewrites one stream element; returns what to pass on (VTIMEZONEs are withheld, generated
    /// ones come before the item that first uses a zone).
    public func process(_ element: CalendarStreamElement) -> [CalendarStreamElement] {
        var result: [CalendarStreamElement] = []
        process(element) { result.append($0) }
        return result
    }

    /// Rewrites one stream element and hands what to pass on to `emit`, in order, without
    /// collecting it first (the pipeline's per-item path).
    public func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) rethrows {
        switch element {
        case .beginCalendar(var calendar):
            definitions = [:]
            emitted = []
            warned = []
            byName = [:]
            byYears = [:]
            lastSource = nil
            calendarDefault = calendar.defaultTimeZone
            calendarFloatingZone = nil
            if let stated = calendar.defaultTimeZone {
                if let id = resolver.resolveName(stated).zoneID {
                    // Floating times of such a calendar are wall times of its X-WR-TIMEZONE (as
                    // Google and Apple write them). Kept floating, they would follow the rewritten
                    // X-WR-TIMEZONE to other instants; so every one of them (DTSTART, DTEND,
                    // RECURRENCE-ID, EXDATE, RDATE) is read in that zone, as with `--floating-tz`.
                    if options.output != .keep, floatingZone == nil { calendarFloatingZone = id }
                    calendar.defaultTimeZone = output(targetZone ?? id).name
                } else {
                    warnOnce("X-WR-TIMEZONE \(stated)", line: nil, "X-WR-TIMEZONE \"\(stated)\" names no known time zone; kept as is")
                }
            }
            try emit(.beginCalendar(calendar))
        case .entry(.timeZone(let definition), _):
            if case .text(let names)? = definition.property("TZID")?.value, let name = names.first {
                definitions[name] = definition
                // A definition after a first use (a forward reference) counts from now on.
                byName[name] = nil
                if byYears.keys.contains(where: { $0.tzid == name }) { byYears = byYears.filter { $0.key.tzid != name } }
                lastSource = nil
            }
            return
        case .entry(let entry, let line):
            try process(entry, line: line, emit: emit)
        case .endCalendar:
            try flushHeldEntries(emit: emit)
            definitions = [:]
            calendarDefault = nil
            calendarFloatingZone = nil
            try emit(element)
        }
    }

    /// Passes on what is left when the input ends without closing its calendar.
    public func finish(emit: (CalendarStreamElement) throws -> Void) rethrows {
        try flushHeldEntries(emit: emit)
    }

    /// Items that used a TZID no name rule knows before any VTIMEZONE defined it wait for the
    /// end of the calendar, since the definition may come after them (RFC 5545 does not
    /// order components); only those items are held.
    private func flushHeldEntries(emit: (CalendarStreamElement) throws -> Void) rethrows {
        guard !held.isEmpty else { return }
        flushing = true
        defer { flushing = false }
        let waiting = held
        held = []
        for (entry, line) in waiting { try process(entry, line: line, emit: emit) }
    }

    private func process(_ original: CalendarEntry, line: Int, emit: (CalendarStreamElement) throws -> Void) rethrows {
        // The years an entry spans matter only for matching a VTIMEZONE and for writing
        // one, so they are computed on first need. The entry waits in a property rather
        // than in a closure's context, which would copy it for every date-time.
        currentEntry = original
        currentYears = nil
        defer { currentEntry = nil }
        waitForDefinition = false
        // An item uses one or two zones: a linear search beats hashing every date-time's TZID.
        var used: [String] = []
        let (startZone, recurs) = Self.startZoneAndRecurrence(of: original)
        // Converted first without changing anything: most date-times come out as they went in
        // (UTC stamps, times already in today's zone names), and changing the entry would copy
        // it, since the caller still holds it. Only the values from the first change on are kept.
        var visited = 0
        var firstChange: Int?
        var changed: [CalendarDateTime] = []
        original.forEachDateTime { field, before in
            var value = before
            // A floating UNTIL under a zoned DTSTART (RFC 5545 §3.3.10 wants UTC; Outlook
            // writes local time) means local time in the start's zone.
            if field == .recurrenceUntil, value.reference == .floating, !value.isDateOnly, let startZone {
                value.reference = .zone(startZone)
            }
            convert(&value, field: field, line: line)
            if let zone = value.reference.zoneIdentifier, !used.contains(zone) {
                used.append(zone)
            }
            if firstChange == nil, value != before { firstChange = visited }
            if firstChange != nil { changed.append(value) }
            visited += 1
        }
        if waitForDefinition {
            held.append((original, line))
            return
        }
        var entry = original
        if let firstChange {
            // `mapDateTimes` visits the date-times in `forEachDateTime`'s order.
            var index = 0
            entry.mapDateTimes { _, value in
                if index >= firstChange { value = changed[index - firstChange] }
                index += 1
            }
        }
        if recurs {
            warnIfRecurrenceShifts(startZone: startZone, line: line)
        }
        if options.emitTimeZoneDefinitions {
            for name in used where !emitted.contains(name) {
                emitted.insert(name)
                guard let zone = zoneID(forOutputName: name),
                    let definition = builder.definition(
                        zone: zone, tzid: name, fromYear: min(options.definitionsFromYear, years().lowerBound),
                        throughYear: max(2037, years().upperBound))
                else { continue }
                try emit(.entry(.timeZone(definition), line: line))
            }
        }
        try emit(.entry(entry, line: line))
    }

    /// The start's zone and whether the item has rules, read in place (`CalendarEntry.item`
    /// would copy the whole item for two fields).
    private static func startZoneAndRecurrence(of entry: CalendarEntry) -> (String?, Bool) {
        switch entry {
        case .event(let e): (e.item.start?.reference.zoneIdentifier, !e.item.recurrenceRules.isEmpty)
        case .reminder(let r): (r.item.start?.reference.zoneIdentifier, !r.item.recurrenceRules.isEmpty)
        case .timeZone, .other: (nil, false)
        }
    }

    // MARK: - Conversion

    /// The years the entry being processed spans (see `years(of:)`), computed once.
    private func years() -> ClosedRange<Int> {
        if let known = currentYears { return known }
        let computed = currentEntry.map(Self.years(of:)) ?? 2000...2000
        currentYears = computed
        return computed
    }

    private func convert(_ value: inout CalendarDateTime, field: DateTimeField, line: Int) {
        guard !value.isDateOnly else { return }
        let instant: Int
        var sourceZone: String?
        switch value.reference {
        case .floating:
            guard let floating = floatingZone ?? calendarFloatingZone, let zone = resolver.database.zone(floating) else { return }
            instant = zone.utcSeconds(wallSeconds: value.wallSecondsSinceEpoch)
            sourceZone = floating
        case .utc:
            // Most date-times of a file are UTC stamps (DTSTAMP, CREATED, LAST-MODIFIED) that
            // stay as they are unless `--tz ZONE` wants wall times; a leap second (:60) still
            // goes the long way, which carries it into the next minute.
            if targetZone == nil || field.requiresUTC || field == .recurrenceUntil, (value.time?.second ?? 0) < 60 { return }
            instant = value.wallSecondsSinceEpoch
        case .zone(let tzid):
            let source = self.source(tzid, line: line)
            // Most zoned times keep their zone and name: skip the round trip through the instant
            // when it cannot change the wall time (a leap second still goes the long way).
            if let zone = source.unchangedByOutput, !field.requiresUTC, field != .recurrenceUntil,
                (value.time?.second ?? 0) < 60, zone.regularOffset(wallSeconds: value.wallSecondsSinceEpoch) != nil
            {
                return
            }
            guard let rules = source.rules else { return }
            instant = rules.utcSeconds(wallSeconds: value.wallSecondsSinceEpoch)
            sourceZone = source.resolution.zoneID
        }
        // RFC 5545 §3.3.10: UNTIL is UTC whenever DTSTART has a zone or is UTC.
        if field.requiresUTC || field == .recurrenceUntil {
            value = utc(instant, like: value)
            return
        }
        switch options.output {
        case .utc:
            value = utc(instant, like: value)
        case .zone:
            value = wall(instant, zone: targetZone!, like: value)
        case .keep:
            if let sourceZone {
                value = wall(instant, zone: sourceZone, like: value)
            } else if value.reference != .utc {
                // Zone known only by the file's VTIMEZONE: no IANA name to keep, so UTC.
                value = utc(instant, like: value)
            }
        }
    }

    private func utc(_ instant: Int, like value: CalendarDateTime) -> CalendarDateTime {
        var result = value.withWallSeconds(instant)
        result.reference = .utc
        return result
    }

    private func wall(_ instant: Int, zone: String, like value: CalendarDateTime) -> CalendarDateTime {
        let target = output(zone)
        let offset = target.rules?.offset(utcSeconds: instant) ?? 0
        var result = value.withWallSeconds(instant + offset)
        result.reference = .zone(target.name)
        return result
    }

    private func output(_ zone: String) -> OutputZone {
        // Consecutive date-times mostly share their zone: compare before hashing.
        if let last = lastOutput, last.zone == zone { return last.output }
        if let known = outputs[zone] {
            lastOutput = (zone, known)
            return known
        }
        let name = outputName(zone)
        // Under Windows ids several zones share one name (Berlin and Vienna are both
        // `W. Europe Standard Time`) and one VTIMEZONE, that of the id's main zone; wall times
        // must follow that zone so they agree with the definition written for the name.
        let rulesZone = name == zone ? zone : (zoneID(forOutputName: name) ?? zone)
        let result = OutputZone(name: name, rules: resolver.database.zone(rulesZone))
        outputs[zone] = result
        lastOutput = (zone, result)
        return result
    }

    /// The TZID the output uses for an IANA zone.
    private func outputName(_ zone: String) -> String {
        guard options.tzidStyle == .windows else { return zone }
        if let windows = resolver.windowsID(for: zone) { return windows }
        warnOnce("windows \(zone)", line: nil, "\(zone) has no Windows id in CLDR's table; written as IANA id")
        return zone
    }

    private func zoneID(forOutputName name: String) -> String? {
        if resolver.database.contains(name) { return name }
        return resolver.resolveName(name).zoneID
    }

    private func source(_ tzid: String, line: Int) -> Source {
        if let last = lastSource, last.key.tzid == tzid, last.key.years == nil { return last.source }
        if let known = byName[tzid] {
            lastSource = (SourceKey(tzid: tzid, years: nil), known)
            return known
        }
        let definition = definitions[tzid] ?? definitions[TimeZoneResolver.clean(tzid)]
        // The years matter only when a VTIMEZONE must be matched or must confirm a guess.
        let named = resolver.resolveName(tzid)
        if definition == nil, named.zoneID == nil, !flushing {
            // Its VTIMEZONE may still come: hold the item (see `flushHeldEntries`).
            waitForDefinition = true
            return Source(resolution: named, rules: nil)
        }
        let span: ClosedRange<Int>? = definition != nil && (named.zoneID == nil || named.isGuess) ? years() : nil
        let key = SourceKey(tzid: tzid, years: span)
        if let last = lastSource, last.key == key { return last.source }
        if let known = byYears[key] {
            lastSource = (key, known)
            return known
        }
        let resolution = resolver.resolve(tzid, definition: definition, calendarDefault: calendarDefault, years: span)
        let rules: (any ZoneRules)? = resolution.zoneID.flatMap { resolver.database.zone($0) } ?? resolution.definitionRules
        let source = Source(resolution: resolution, rules: rules)
        // Windows-style output names zones otherwise (and may warn on lookup), so only IANA output
        // can keep a TZID unchanged.
        if case .keep = options.output, options.tzidStyle != .windows, resolution.zoneID == tzid,
            let compiled = rules as? CompiledZone, let kept = output(tzid).rules, kept === compiled
        {
            source.unchangedByOutput = compiled
        }
        if span == nil { byName[tzid] = source } else { byYears[key] = source }
        lastSource = (key, source)
        let trace = resolution.trace.joined(separator: "; ")
        switch resolution.step {
        case .definitionMatch, .fixedOffset, .calendarDefault:
            warnOnce(
                "tzid \(tzid) \(resolution.zoneID ?? "")", line: self.tzidLine?(tzid, line) ?? line,
                "TZID \"\(tzid)\" read as \(resolution.zoneID ?? "?"): \(trace)")
        case .definitionRules:
            warnOnce(
                "tzid \(tzid)", line: self.tzidLine?(tzid, line) ?? line,
                "TZID \"\(tzid)\" matches no known zone; times computed from the file's VTIMEZONE and written in UTC (\(trace))")
        case .unresolved:
            warnOnce(
                "tzid \(tzid)", line: self.tzidLine?(tzid, line) ?? line,
                "TZID \"\(tzid)\" names no known zone and has no VTIMEZONE; times kept as they are (\(trace))")
        default:
            break
        }
        return source
    }

    /// Occurrences follow the wall clock of the rule's zone; written in another zone they move
    /// across daylight-saving changes the two zones do not share, so say so.
    private func warnIfRecurrenceShifts(startZone: String?, line: Int) {
        if case .keep = options.output { return }
        let years = years()
        guard let startZone else { return }
        let source = self.source(startZone, line: line)
        guard let rules = source.rules, source.resolution.zoneID != targetZone else { return }
        let from = CalendarDate(year: years.lowerBound, month: 1, day: 1).daysSinceEpoch * 86_400
        let to = CalendarDate(year: years.upperBound + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        guard !rules.transitions(from: from, to: to).isEmpty else { return }
        let target = targetZone ?? "UTC"
        warnOnce(
            "recurrence \(startZone) \(line)", line: line,
            "recurring item in \(startZone) written in \(target): later occurrences keep \(target)'s wall clock and move by an hour across daylight-saving changes"
        )
    }

    private func warnOnce(_ key: String, line: @autoclosure () -> Int?, _ message: @autoclosure () -> String) {
        guard !warned.contains(key) else { return }
        warned.insert(key)
        log.warning(file: file, line: line(), message())
    }

    /// The years an entry's date-times span; an open-ended recurrence counts ten years on.
    public static func years(of entry: CalendarEntry) -> ClosedRange<Int> {
        var low = Int.max
        var high = Int.min
        entry.forEachDateTime { field, value in
            if field == .created || field == .lastModified || field == .timestamp { return }
            low = min(low, value.date.year)
            high = max(high, value.date.year)
        }
        guard low <= high else { return 2000...2000 }
        if let item = entry.item, item.recurrenceRules.contains(where: { $0.end == nil }) { high = max(high, low + 10) }
        if let item = entry.item, item.recurrenceRules.contains(where: { if case .count = $0.end { true } else { false } }) {
            high = max(high, low + 2)
        }
        return low...min(high, low + 60)
    }
}
