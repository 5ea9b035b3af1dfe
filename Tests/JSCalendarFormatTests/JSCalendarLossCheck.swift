import CalendarModel
import CalendarTestSupport
import Foundation
import ICalendarData

@testable import JSCalendarFormat

/// Finds what a calendar lost on its way through JSCalendar without calport's vendor members,
/// by kind: the fields the issue requires to survive are checked one by one ("title",
/// "start", "participant-status:COMPLETED", …); everything else is compared as iCalendar
/// properties ("property:DTSTAMP", "property:X-*", "component:VTIMEZONE").
enum JSCalendarLossCheck {
    struct Loss {
        var kind: String
        var detail: String
    }

    static func items(_ stream: [CalendarStreamElement]) -> [CalendarEntry] {
        stream.compactMap { if case .entry(let e, _) = $0, e.item != nil { return e } else { return nil } }
    }

    static func losses(from original: [CalendarStreamElement], to seen: [CalendarStreamElement]) -> [Loss] {
        var losses: [Loss] = []
        var clock = ZoneClock()
        func instant(_ v: CalendarDateTime?) -> Int? {
            guard let v else { return nil }
            switch v.reference {
            case .zone(let id) where !v.isDateOnly: return clock.utc(v, in: id)?.wallSecondsSinceEpoch
            default: return v.wallSecondsSinceEpoch
            }
        }
        let before = items(original)
        let after = items(seen)
        if before.count != after.count { losses.append(Loss(kind: "item-count", detail: "\(before.count) items became \(after.count)")) }
        for (a, b) in zip(before, after) {
            guard let x = a.item, let y = b.item else { continue }
            let uid = x.uid ?? "?"
            func lose(_ kind: String, _ detail: String) { losses.append(Loss(kind: kind, detail: "\(uid): \(detail)")) }
            if x.title != y.title { lose("title", "\(x.title ?? "nil") → \(y.title ?? "nil")") }
            if x.start != y.start { lose("start", "\(String(describing: x.start)) → \(String(describing: y.start))") }
            // A value JSCalendar keys by the start's local time needs the start's form.
            func sameForm(_ v: CalendarDateTime) -> Bool {
                guard let start = x.start else { return false }
                if v.isDateOnly || start.isDateOnly { return v.isDateOnly == start.isDateOnly }
                if v.reference == start.reference { return true }
                if v.reference == .utc, let z = start.reference.zoneIdentifier { return clock.local(v, in: z) != nil }
                return false
            }
            let zoneResolves = x.start.map { s in s.reference.zoneIdentifier.map { clock.utc(s, in: $0) != nil } ?? true } ?? true
            if case .event(let ex) = a, case .event(let ey) = b, let end = ex.effectiveEnd, ex.end != nil || ex.duration != nil {
                if instant(end) != instant(ey.effectiveEnd) && end != ey.effectiveEnd {
                    if x.start == nil {
                        lose("end-without-start", "\(end)")
                    } else if let start = x.start, end.isDateOnly != start.isDateOnly {
                        lose("end-form-differs-from-start", "\(end)")
                    } else if !zoneResolves || (end.reference.zoneIdentifier.map { clock.utc(end, in: $0) == nil } ?? false) {
                        lose("end-in-unresolvable-zone", "\(end)")
                    } else {
                        lose("end", "\(end) → \(String(describing: ey.effectiveEnd))")
                    }
                }
            }
            if x.recurrenceRules.map(\.rfc5545Text) != y.recurrenceRules.map(\.rfc5545Text) {
                let untilLost = x.recurrenceRules.contains { r in
                    if case .until(let u) = r.end {
                        return !sameForm(u) && !(x.start?.isDateOnly == false && u.reference == .utc && zoneResolves)
                    }
                    return false
                }
                lose(
                    untilLost ? "recurrence-until-form-or-zone" : "recurrence-rule",
                    "\(x.recurrenceRules.map(\.rfc5545Text)) → \(y.recurrenceRules.map(\.rfc5545Text))")
            }
            let rdates = x.recurrenceDates.flatMap(\.dates)
            if Set(rdates.compactMap(instant)) != Set(y.recurrenceDates.flatMap(\.dates).compactMap(instant)) {
                let alsoExcluded = Set(rdates.compactMap(instant)).intersection(x.exceptionDates.flatMap(\.dates).compactMap(instant))
                lose(
                    !alsoExcluded.isEmpty
                        ? "recurrence-date-also-excluded"
                        : rdates.allSatisfy(sameForm) ? "recurrence-dates" : "recurrence-dates-form-differs-from-start", "RDATE")
            }
            if x.recurrenceDates.contains(where: { !$0.periods.isEmpty }) { lose("recurrence-date-periods", "RDATE periods") }
            let exdates = x.exceptionDates.flatMap(\.dates)
            if Set(exdates.compactMap(instant)) != Set(y.exceptionDates.flatMap(\.dates).compactMap(instant)) {
                lose(exdates.allSatisfy(sameForm) ? "exception-dates" : "exception-dates-form-differs-from-start", "EXDATE")
            }
            if instant(x.recurrenceID) != instant(y.recurrenceID) || x.recurrenceID?.isDateOnly != y.recurrenceID?.isDateOnly {
                lose(
                    x.start == nil
                        ? "recurrence-id-without-start"
                        : x.recurrenceID.map(sameForm) == false ? "recurrence-id-form-differs-from-start" : "recurrence-id",
                    "\(String(describing: x.recurrenceID)) → \(String(describing: y.recurrenceID))")
            }
            if x.organizer?.url.lowercased() != y.organizer?.url.lowercased() { lose("organizer", "ORGANIZER") }
            for p in x.attendees {
                guard let q = y.attendees.first(where: { $0.url.lowercased() == p.url.lowercased() }) else {
                    lose("participant-missing", p.url)
                    continue
                }
                func word(_ v: Any?) -> String {
                    guard let v else { return "nil" }
                    let s = "\(v)"
                    return s.hasPrefix("other(") ? "other" : s
                }
                if (p.role ?? .required) != (q.role ?? .required) { lose("participant-role:\(word(p.role))", p.url) }
                if (p.status ?? .pending) != (q.status ?? .pending) { lose("participant-status:\(word(p.status))", p.url) }
                let kinds: [ParticipantType] = [.person, .group, .room, .resource]
                if let t = p.type, kinds.contains(t), t != q.type { lose("participant-kind", p.url) }
                if let t = p.type, !kinds.contains(t) { lose("participant-kind:\(word(t))", p.url) }
                if p.expectsReply != q.expectsReply { lose("participant-rsvp", p.url) }
                if p.name != q.name { lose("participant-name", p.url) }
            }
            // JSCalendar triggers are offsets or UTC times (RFC 8984 §4.5.2).
            let triggered = x.alarms.filter { a in
                switch a.trigger {
                case .relative?: return true
                case .absolute(let t)?: return t.reference == .utc
                case nil: return false
                }
            }
            if x.alarms.contains(where: { $0.trigger == nil }) { lose("alert-without-trigger", "VALARM without TRIGGER") }
            if x.alarms.contains(where: { if case .absolute(let t)? = $0.trigger { return t.reference != .utc } else { return false } }) {
                lose("alert-trigger-not-utc", "absolute TRIGGER in local time")
            }
            if triggered.count != y.alarms.count { lose("alert-count", "\(triggered.count) → \(y.alarms.count)") }
            for (m, n) in zip(triggered, y.alarms) {
                switch (m.trigger, n.trigger) {
                case (.relative(let d1, let e1), .relative(let d2, let e2)) where d1 == d2 && e1 == e2: break
                case (.absolute(let t1), .absolute(let t2)) where t1 == t2: break
                case (.absolute(let t), _) where t.reference != .utc: lose("alert-trigger-not-utc", "\(t)")
                default: lose("alert-trigger", "\(String(describing: m.trigger)) → \(String(describing: n.trigger))")
                }
                switch m.action {
                case .display, .email: if m.action != n.action { lose("alert-action", "\(m.action)") }
                default:
                    let a = "\(m.action)"
                    lose("alert-action:\(a.hasPrefix("other(") ? "other" : a)", a)
                }
            }
            if x.location != y.location { lose("location", "LOCATION") }
            if x.geo != y.geo { lose("location-coordinates", "GEO") }
            if let s = x.structuredLocation {
                if s.title != y.structuredLocation?.title || s.latitude != y.structuredLocation?.latitude
                    || s.longitude != y.structuredLocation?.longitude
                {
                    lose("structured-location", "X-APPLE-STRUCTURED-LOCATION")
                }
            }
        }
        return losses
    }

    /// iCalendar property and component names the ICS made from plain JSCalendar lacks.
    static func propertyLosses(original: [UInt8], plain: [UInt8]) throws -> [Loss] {
        let a = try RoundTripCheck.trees(of: original)
        let b = try RoundTripCheck.trees(of: plain)
        var losses: [Loss] = []
        func name(_ line: String) -> String {
            let n = String(line.prefix { $0 != "[" })
            if n.hasPrefix("X-") { return "X-*" }
            return PropertyTable.definition(n) != nil ? n : "(unregistered name)"
        }
        let componentNames: Set<String> = [
            "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "STANDARD", "DAYLIGHT", "VALARM", "VAVAILABILITY", "AVAILABLE",
            "PARTICIPANT", "VLOCATION", "VRESOURCE", "VCALENDAR",
        ]
        func componentKind(_ n: String) -> String {
            componentNames.contains(n) ? n : n.hasPrefix("X-") ? "X-*" : "(unregistered name)"
        }
        func walk(_ x: [RoundTripCheck.ComponentTree], _ y: [RoundTripCheck.ComponentTree], path: String) {
            var remaining = y
            // Components are matched by UID and the RECURRENCE-ID's value (its parameters may be lost).
            func key(_ c: RoundTripCheck.ComponentTree) -> [String] {
                func value(_ p: String) -> String { String(p[(p.range(of: "]=")?.upperBound ?? p.startIndex)...]) }
                let uid = c.properties.first { $0.hasPrefix("UID[") }.map(value)
                let rid = c.properties.first { $0.hasPrefix("RECURRENCE-ID[") }.map(value)
                return [uid ?? "", rid ?? ""]
            }
            for c in x {
                // When the RECURRENCE-ID itself changed (a documented loss), the UID alone pairs them.
                guard
                    let index = remaining.firstIndex(where: { $0.name == c.name && key($0) == key(c) })
                        ?? remaining.firstIndex(where: { $0.name == c.name && key($0)[0] == key(c)[0] })
                else {
                    losses.append(Loss(kind: "component:\(componentKind(c.name))", detail: "\(path)/\(c.name)"))
                    continue
                }
                let d = remaining.remove(at: index)
                for p in c.properties where !d.properties.contains(p) {
                    losses.append(
                        Loss(
                            kind: "property:\(c.name == "VALARM" ? "VALARM/" : "")\(name(p))", detail: "\(path)/\(c.name): \(p.prefix(200))"
                        ))
                }
                walk(c.components, d.components, path: "\(path)/\(c.name)")
            }
        }
        // Calendar properties a Group can stand for; any other property directly in a VCALENDAR
        // is an item's property outside any item (fragments and broken files).
        let calendarLevel: Set<String> = [
            "VERSION", "PRODID", "CALSCALE", "METHOD", "NAME", "DESCRIPTION", "COLOR", "REFRESH-INTERVAL", "SOURCE", "URL",
            "LAST-MODIFIED", "UID", "IMAGE", "CATEGORIES", "X-*", "(unregistered name)",
        ]
        for (x, y) in zip(a, b) {
            for p in x.properties where !y.properties.contains(p) {
                let n = name(p)
                let kind = calendarLevel.contains(n) ? "property:VCALENDAR/\(n)" : "property:VCALENDAR/(item property outside any item)"
                losses.append(Loss(kind: kind, detail: String(p.prefix(200))))
            }
            walk(x.components, y.components, path: "VCALENDAR")
        }
        return losses
    }
}
