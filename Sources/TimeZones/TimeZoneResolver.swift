import CalendarModel
import Foundation

/// Resolves any TZID real files carry to today's IANA zone, trying in order: IANA ids and
/// aliases, Windows ids, Outlook display names, vendor prefixes, repaired spellings, the file's
/// own VTIMEZONE matched against known zones, fixed offsets, and the calendar's X-WR-TIMEZONE.
///
/// Thread-safe; results are cached by name (and by definition and years for matching).
public final class TimeZoneResolver: @unchecked Sendable {
    /// Where offsets, aliases and the zone list come from.
    public let database: TimeZoneDatabase
    /// The region (ISO 3166) used for Windows ids whose zone depends on it; nil means CLDR's default.
    public let region: String?

    private let lock = NSLock()
    private var nameCache: [String: TimeZoneResolution] = [:]
    private var matchCache: [MatchKey: TimeZoneResolution] = [:]
    // The indexes are built once: the first three from calport's own tables, the others once per database
    // (`TimeZoneDatabase.derived`; each resolver keeps a reference, read under its lock).
    private static let windowsByLowercase: [String: String] = {
        var map: [String: String] = [:]
        for row in WindowsZoneMapping.icu + WindowsZoneMapping.all { map[row.windowsID.lowercased()] = row.windowsID }
        return map
    }()
    /// Current CLDR's rows by Windows id, then region: what `windowsZone` consults first.
    private static let windowsRows: [String: [String: [String]]] = {
        var map: [String: [String: [String]]] = [:]
        for row in WindowsZoneMapping.all { map[row.windowsID, default: [:]][row.region] = row.zones }
        return map
    }()
    private static let displayNames: [String: String] = {
        var map: [String: String] = [:]
        for (name, windows) in OutlookDisplayNames.table { map[TimeZoneResolver.words(name)] = windows }
        return map
    }()
    /// Current CLDR's Windows id of every zone it lists, under CLDR's spelling and today's
    /// (`Asia/Calcutta` and `Asia/Kolkata`); a zone's 001 row is taken before other regions'.
    private lazy var windowsByZone: [String: String] = database.derived("TimeZoneResolver.windowsByZone") {
        var map: [String: String] = [:]
        let rows = WindowsZoneMapping.all.filter { $0.region == "001" } + WindowsZoneMapping.all.filter { $0.region != "001" }
        for row in rows {
            for zone in row.zones {
                if map[zone] == nil { map[zone] = row.windowsID }
                if let current = database.currentIdentifier(for: zone), map[current] == nil { map[current] = row.windowsID }
            }
        }
        return map
    }
    private lazy var windowsDefaults: Set<String> = database.derived("TimeZoneResolver.windowsDefaults") {
        var set: Set<String> = []
        for row in WindowsZoneMapping.all where row.region == "001" {
            for zone in row.zones { set.insert(database.currentIdentifier(for: zone) ?? zone) }
        }
        return set
    }
    private lazy var goldenZones: Set<String> = database.derived("TimeZoneResolver.goldenZones") {
        Set(ICU.goldenZones().map { database.currentIdentifier(for: $0) ?? $0 })
    }
    private lazy var zonesByCity: [String: [String]] = database.derived("TimeZoneResolver.zonesByCity") {
        var map: [String: [String]] = [:]
        // Only geographic names: `US/Eastern` or `Etc/GMT+1` are not cities.
        let areas: Set<Substring> = ["Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"]
        for id in database.zoneIdentifiers + database.links.keys.sorted() {
            let parts = id.split(separator: "/")
            guard parts.count > 1, areas.contains(parts[0]), let city = parts.last else { continue }
            let key = Self.words(city.replacingOccurrences(of: "_", with: " "))
            if let current = database.currentIdentifier(for: id), !(map[key]?.contains(current) ?? false) {
                map[key, default: []].append(current)
            }
        }
        return map
    }

    private struct MatchKey: Hashable {
        var definition: Component
        var years: ClosedRange<Int>
    }

    /// A resolver over `database`; `region` steers Windows ids with per-region zones.
    public init(database: TimeZoneDatabase = .system, region: String? = nil) {
        self.database = database
        self.region = region
    }

    /// Resolves a TZID. `definition` is the file's VTIMEZONE with that TZID, `calendarDefault`
    /// the calendar's X-WR-TIMEZONE, and `years` the years the calendar uses, over which a
    /// definition must agree with a zone to match it.
    public func resolve(
        _ tzid: String, definition: Component? = nil, calendarDefault: String? = nil, years: ClosedRange<Int>? = nil
    ) -> TimeZoneResolution {
        var resolution = resolveName(tzid)
        // A real id or Windows name is trusted over the file's definition (current data is
        // newer), so its rules are not even expanded (Outlook's start in 1601 makes that slow).
        if resolution.zoneID != nil, !resolution.isGuess { return resolution }
        let rules = definition.flatMap(VTimeZoneRules.init)
        if let zone = resolution.zoneID {
            // A zone only guessed from a city in the name must agree with the file's own
            // definition.
            guard let rules else { return resolution }
            let span = years ?? Self.defaultYears(for: rules)
            if agrees(zone, with: rules, years: span) { return resolution }
            resolution.trace.append("but the file's VTIMEZONE disagrees with \(zone) over \(span.lowerBound)–\(span.upperBound)")
            resolution.zoneID = nil
            resolution.isGuess = false
        }
        if let rules, let definition {
            let span = years ?? Self.defaultYears(for: rules)
            // A name that states a fixed offset (`UTC+11`) and a definition that agrees: the
            // name says which of the many zones with that offset is meant.
            var fixedTrace: [String] = []
            if let fixed = fixedOffsetZone(tzid, trace: &fixedTrace), agrees(fixed, with: rules, years: span) {
                resolution.trace += fixedTrace + ["VTIMEZONE agrees with \(fixed)"]
                resolution.zoneID = fixed
                resolution.step = .fixedOffset
                return resolution
            }
            let key = MatchKey(definition: definition, years: span)
            lock.lock()
            let cached = matchCache[key]
            lock.unlock()
            let match = cached ?? matchDefinition(rules, years: span, hint: tzid)
            if cached == nil {
                lock.lock()
                matchCache[key] = match
                lock.unlock()
            }
            resolution.trace += match.trace
            if let zone = match.zoneID {
                resolution.zoneID = zone
                resolution.step = .definitionMatch
                return resolution
            }
            resolution.step = .definitionRules
            resolution.definitionRules = rules
            resolution.trace.append("using the file's own VTIMEZONE rules")
            return resolution
        }
        if let fixed = fixedOffsetZone(tzid, trace: &resolution.trace) {
            resolution.zoneID = fixed
            resolution.step = .fixedOffset
            return resolution
        }
        if let calendarDefault {
            let fallback = resolveName(calendarDefault)
            if let zone = fallback.zoneID {
                resolution.trace.append("X-WR-TIMEZONE \(calendarDefault) → \(zone)")
                resolution.zoneID = zone
                resolution.step = .calendarDefault
                return resolution
            }
            resolution.trace.append("X-WR-TIMEZONE \(calendarDefault) does not resolve either")
        }
        resolution.trace.append("no VTIMEZONE to match: unresolved")
        return resolution
    }

    /// The Windows id current CLDR gives a zone (`America/New_York` → `Eastern Standard Time`,
    /// `Asia/Bishkek` → `Central Asia Standard Time`), for writers that must name zones the
    /// Windows way; ICU's older table answers only for zones the current one does not list.
    public func windowsID(for zone: String) -> String? {
        lock.lock()
        let index = windowsByZone
        lock.unlock()
        if let id = index[zone] { return id }
        if let current = database.currentIdentifier(for: zone), let id = index[current] { return id }
        if let id = ICU.windowsID(iana: zone) { return id }
        // CLDR lists zones in its own (older) spelling; try the alias ICU knows.
        if let canonical = ICU.canonicalID(zone), canonical != zone {
            return index[canonical] ?? ICU.windowsID(iana: canonical)
        }
        return nil
    }

    // MARK: - Names

    /// Resolution by the name alone (no definition, no calendar default). Cached.
    public func resolveName(_ tzid: String) -> TimeZoneResolution {
        // Writers ask for every time of every item, and a file names a few zones: the first
        // names asked for are looked through (lengths first) before the hashed cache, which
        // cost half of a call.
        lock.lock()
        if let found = firstNames.value(tzid) {
            lock.unlock()
            return found
        }
        if let cached = nameCache[tzid] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let result = computeName(tzid)
        lock.lock()
        nameCache[tzid] = result
        firstNames.remember(tzid, result)
        lock.unlock()
        return result
    }

    /// The first names resolved, looked through before `nameCache`.
    private var firstNames = FirstZoneNames<TimeZoneResolution>(capacity: 8)

    private func computeName(_ tzid: String) -> TimeZoneResolution {
        var trace: [String] = []
        func done(_ zone: String, _ step: TimeZoneResolution.Step, _ line: String) -> TimeZoneResolution {
            trace.append(line)
            return TimeZoneResolution(input: tzid, zoneID: zone, step: step, trace: trace)
        }
        let cleaned = Self.clean(tzid)
        if cleaned != tzid { trace.append("cleaned to \"\(cleaned)\"") }
        let repaired = cleaned != tzid
        if database.contains(cleaned), let current = database.currentIdentifier(for: cleaned) {
            if current == cleaned { return done(current, repaired ? .spelling : .iana, "IANA id \(current)") }
            return done(current, .alias, "tz alias of \(current)")
        }
        trace.append("not an IANA id or tz alias")
        if let canonical = ICU.canonicalID(cleaned), let current = database.currentIdentifier(for: canonical) {
            return done(current, .alias, "ICU alias of \(canonical), today \(current)")
        }
        trace.append("not an ICU alias")
        if let current = database.currentIdentifier(for: cleaned) {
            return done(current, .spelling, "IANA id \(current) in other case")
        }
        if let zone = windowsZone(cleaned) {
            return done(zone, .windows, "Windows id → \(zone)" + (region.map { " (region \($0))" } ?? ""))
        }
        trace.append("not a Windows id")
        if let (zone, how) = displayNameZone(cleaned) {
            var result = done(zone, .outlookDisplayName, "Outlook display name: \(how) → \(zone)")
            result.isGuess = how.hasPrefix("city")
            return result
        }
        trace.append("not an Outlook display name")
        // Vendor prefixes (/mozilla.org/20050126_1/, /citadel.org/…, posix/) precede a real id:
        // try every tail of the path.
        let parts = cleaned.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts.count > 1 || cleaned.hasPrefix("/") {
            for k in 0..<parts.count where k > 0 || cleaned.hasPrefix("/") {
                let tail = parts[k...].joined(separator: "/")
                if let (zone, how) = simpleLookup(tail) {
                    return done(
                        zone, .vendorPrefix, "prefix \"\(parts[0..<k].joined(separator: "/"))\" dropped, \(tail) is \(how) → \(zone)")
                }
            }
            trace.append("no tail of the path is a zone")
        }
        // Hand-made spellings: spaces for underscores, dashes for slashes.
        var variants: [String] = []
        if cleaned.contains(" ") { variants.append(cleaned.replacingOccurrences(of: " ", with: "_")) }
        if cleaned.contains("-") && !cleaned.contains("/") {
            variants.append(cleaned.replacingOccurrences(of: "--", with: "/").replacingOccurrences(of: "-", with: "/"))
            if let dash = cleaned.firstIndex(of: "-") {
                variants.append(cleaned.replacingCharacters(in: dash...dash, with: "/"))
            }
        }
        for variant in variants {
            if let (zone, how) = simpleLookup(variant) {
                return done(zone, .spelling, "read as \(variant), \(how) → \(zone)")
            }
        }
        if !variants.isEmpty { trace.append("no repaired spelling is a zone") }
        // Last, a city a path ends with (`America/Chica/Chicago`, `custom_America/New_York`).
        if parts.count > 1, let last = parts.last {
            let key = Self.words(last.replacingOccurrences(of: "_", with: " "))
            lock.lock()
            let zones = zonesByCity[key] ?? []
            lock.unlock()
            if zones.count == 1 {
                var result = done(zones[0], .vendorPrefix, "path ends with the city \"\(last)\" → \(zones[0])")
                result.isGuess = true
                return result
            }
            trace.append("no city the path ends with")
        }
        return TimeZoneResolution(input: tzid, zoneID: nil, step: .unresolved, trace: trace)
    }

    /// Exact id, alias (tz or ICU), other case, or Windows id.
    private func simpleLookup(_ name: String) -> (String, String)? {
        if database.contains(name), let current = database.currentIdentifier(for: name) { return (current, "an IANA id") }
        if let canonical = ICU.canonicalID(name), let current = database.currentIdentifier(for: canonical) {
            return (current, "an ICU alias")
        }
        if let current = database.currentIdentifier(for: name) { return (current, "an IANA id in other case") }
        if let zone = windowsZone(name) { return (zone, "a Windows id") }
        return nil
    }

    private func windowsZone(_ name: String) -> String? {
        guard let id = Self.windowsByLowercase[name.lowercased()] else { return nil }
        let rows = Self.windowsRows[id]
        let mapped: String?
        if let rows {
            mapped = (region.flatMap { rows[$0.uppercased()] } ?? rows["001"])?.first
        } else {
            mapped = region.flatMap { ICU.ianaID(windows: id, region: $0) } ?? ICU.ianaID(windows: id, region: nil)
        }
        guard let mapped else { return nil }
        return database.currentIdentifier(for: mapped) ?? mapped
    }

    /// `(UTC+01:00) Amsterdam, Berlin, …`, `(GMT-05:00) Eastern Time (US & Canada)` or the text alone.
    private func displayNameZone(_ name: String) -> (String, String)? {
        var rest = Substring(name)
        var statedOffset: Int?
        if rest.hasPrefix("("), let close = rest.firstIndex(of: ")") {
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            let upper = inside.uppercased()
            guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
            statedOffset = Self.parseOffset(String(inside.dropFirst(3))) ?? (inside.count == 3 ? 0 : nil)
            rest = rest[rest.index(after: close)...]
        }
        let text = rest.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let windows = Self.displayNames[Self.words(text)]
        if let windows, let zone = windowsZone(windows) { return (zone, "\"\(text)\" is Windows \(windows)") }
        // Unknown wording: take the first city the tz data knows whose standard offset agrees
        // with the stated one — only for text shaped like a display name (an offset prefix or
        // a list of cities), since a lone word is too weak a clue.
        guard statedOffset != nil || text.contains(",") else { return nil }
        let cities = text.split(whereSeparator: { ",;/".contains($0) }).map { Self.words(String($0)) }
        lock.lock()
        let index = zonesByCity
        lock.unlock()
        for city in cities {
            for zone in index[city] ?? [] {
                if let statedOffset, !standardOffsets(zone).contains(statedOffset) { continue }
                return (zone, "city \"\(city)\"")
            }
        }
        return nil
    }

    private func standardOffsets(_ zone: String) -> Set<Int> {
        var result: Set<Int> = []
        for year in [2005, 2015, 2025] {
            let january = CalendarDate(year: year, month: 1, day: 15).daysSinceEpoch * 86_400
            let july = CalendarDate(year: year, month: 7, day: 15).daysSinceEpoch * 86_400
            if let a = database.offset(zone: zone, utcSeconds: january), let b = database.offset(zone: zone, utcSeconds: july) {
                result.insert(min(a, b))
            }
        }
        return result
    }

    /// `GMT+1`, `UTC+11`, `GMT +0100 (Standard) / …`, `(GMT-03:00)`: whole-hour fixed offsets
    /// map to `Etc/GMT∓N` (whose sign POSIX inverts).
    private func fixedOffsetZone(_ tzid: String, trace: inout [String]) -> String? {
        // Only the whole name may be the offset: `GMT +0100 (Standard) / GMT +0200 (Daylight)`
        // has daylight time, which a fixed offset would lose.
        var text = Self.clean(tzid).uppercased()
        text.removeAll { $0 == "(" || $0 == ")" }
        text = text.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("GMT") || text.hasPrefix("UTC") else { return nil }
        let body = text.dropFirst(3).trimmingCharacters(in: .whitespaces)
        guard let offset = body.isEmpty ? 0 : Self.parseOffset(body), offset % 3600 == 0 else { return nil }
        let hours = offset / 3600
        let id = hours == 0 ? "Etc/UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
        guard let zone = database.currentIdentifier(for: id) else { return nil }
        trace.append("fixed offset \(body.isEmpty ? "+0" : body) → \(zone)")
        return zone
    }

    // MARK: - Definitions

    private static func defaultYears(for rules: VTimeZoneRules) -> ClosedRange<Int> {
        let first =
            rules.onsets.first.map { CalendarDate(daysSinceEpoch: Int((Double($0.utcSeconds) / 86_400).rounded(.down))).year } ?? 2000
        let start = min(max(first, 2000), 2030)
        return start...max(start, 2030)
    }

    private func matchDefinition(_ rules: VTimeZoneRules, years: ClosedRange<Int>, hint: String) -> TimeZoneResolution {
        var trace: [String] = []
        let samples = Self.samples(of: rules, years: years)
        var agreeing: [String] = []
        for zone in database.zoneIdentifiers {
            guard let compiled = database.zone(zone) else { continue }
            if samples.allSatisfy({ compiled.offset(utcSeconds: $0) == rules.offset(utcSeconds: $0) }),
                agrees(zone, with: rules, years: years)
            {
                agreeing.append(zone)
            }
        }
        let span = "\(years.lowerBound)–\(years.upperBound)"
        guard !agreeing.isEmpty else {
            trace.append("VTIMEZONE agrees with no known zone over \(span)")
            return TimeZoneResolution(input: hint, zoneID: nil, step: .unresolved, trace: trace)
        }
        // Prefer a zone the name mentions, then UTC itself, then CLDR's golden zones (the
        // representative of each metazone: New York rather than Grand Turk), then the zones
        // Windows maps to by default, then any but the Etc/ ones.
        let words = Self.words(hint)
        lock.lock()
        let defaults = windowsDefaults
        let golden = goldenZones
        lock.unlock()
        func rank(_ zone: String) -> Int {
            let city = Self.words(zone.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? zone)
            if !city.isEmpty, (" " + words + " ").contains(" " + city + " ") { return 0 }
            if zone == "Etc/UTC" { return 1 }
            if golden.contains(zone) { return 2 }
            if defaults.contains(zone) { return 3 }
            if !zone.hasPrefix("Etc/") { return 4 }
            return 5
        }
        let best = agreeing.min { (rank($0), $0) < (rank($1), $1) }!
        let others = agreeing.count > 1 ? " (of \(agreeing.count) agreeing zones)" : ""
        trace.append("VTIMEZONE agrees with \(best) over \(span)\(others)")
        return TimeZoneResolution(input: hint, zoneID: best, step: .definitionMatch, trace: trace)
    }

    /// Instants at which a definition and a zone must agree: twice a month, and either side of
    /// every transition of the definition.
    private static func samples(of rules: VTimeZoneRules, years: ClosedRange<Int>) -> [Int] {
        var result: [Int] = []
        for year in years {
            for month in 1...12 {
                for day in [1, 15] { result.append(CalendarDate(year: year, month: month, day: day).daysSinceEpoch * 86_400 + 43_200) }
            }
        }
        let from = CalendarDate(year: years.lowerBound, month: 1, day: 1).daysSinceEpoch * 86_400
        let to = CalendarDate(year: years.upperBound + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        for transition in rules.transitions(from: from, to: to) {
            result += [transition.utcSeconds - 1, transition.utcSeconds]
        }
        return result
    }

    /// Whether `zone` has the same offset as `rules` at every transition of either, over `years`.
    func agrees(_ zone: String, with rules: any ZoneRules, years: ClosedRange<Int>) -> Bool {
        guard let compiled = database.zone(zone) else { return false }
        let from = CalendarDate(year: years.lowerBound, month: 1, day: 1).daysSinceEpoch * 86_400
        let to = CalendarDate(year: years.upperBound + 1, month: 1, day: 1).daysSinceEpoch * 86_400
        if compiled.offset(utcSeconds: from) != rules.offset(utcSeconds: from) { return false }
        for transition in compiled.transitions(from: from, to: to) + rules.transitions(from: from, to: to) {
            for t in [transition.utcSeconds - 1, transition.utcSeconds]
            where compiled.offset(utcSeconds: t) != rules.offset(utcSeconds: t) {
                return false
            }
        }
        return true
    }

    // MARK: - Text

    /// Trims, drops surrounding quotes and undoes TEXT escapes some writers put in parameters.
    static func clean(_ text: String) -> String {
        var s = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while s.count >= 2, let first = s.first, let last = s.last, (first == "\"" || first == "'"), last == first {
            s = String(s.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        s = s.replacingOccurrences(of: "\\,", with: ",").replacingOccurrences(of: "\\;", with: ";")
        return s
    }

    /// Lower-case words without accents or punctuation, for comparing display names.
    static func words(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var out = ""
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) || scalar == "&" || scalar == "+" {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                out.unicodeScalars.append(scalar)
                pendingSpace = false
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    /// `+01:00`, `-0500`, `+1`, `+01.00`, `-3` in seconds east of UTC.
    static func parseOffset(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let body = t.dropFirst().trimmingCharacters(in: .whitespaces)
        let digits = body.filter(\.isNumber)
        guard !digits.isEmpty, body.allSatisfy({ $0.isNumber || $0 == ":" || $0 == "." }) else { return nil }
        var hours = 0
        var minutes = 0
        if let separator = body.firstIndex(where: { $0 == ":" || $0 == "." }) {
            guard let h = Int(body[..<separator]), let m = Int(body[body.index(after: separator)...]) else { return nil }
            (hours, minutes) = (h, m)
        } else if digits.count <= 2 {
            hours = Int(digits)!
        } else if digits.count == 4 {
            (hours, minutes) = (Int(digits.prefix(2))!, Int(digits.suffix(2))!)
        } else {
            return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
