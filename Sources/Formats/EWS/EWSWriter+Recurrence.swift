import CalendarModel
import ExchangeData
import Recurrence

extension EWSWriter {
    /// A series: the master (with its Recurrence, ModifiedOccurrences and DeletedOccurrences),
    /// then each modified occurrence's own exception item. A series EWS cannot hold (a rule
    /// Exchange has no pattern for, RDATEs, several RRULEs) is written as its occurrences, each
    /// a single item, and the loss is reported.
    mutating func writeMaster(_ master: Event, line: Int, overrides: [(event: Event, line: Int)]) throws {
        guard let start = master.item.start, let times = times(of: master, line: line) else { return }
        let recurrence: ExchangeRecurrence
        switch exchangeRecurrence(of: master.item, start: start) {
        case .success(let value):
            recurrence = value
        case .failure(let problem):
            try writeExpanded(master, line: line, overrides: overrides, reason: problem.reason)
            return
        }
        var modified: [(start: Int, end: Int, originalStart: Int)] = []
        var deleted: [Int] = []
        var exceptions: [(event: Event, line: Int, times: ItemTimes, original: Int)] = []
        for list in master.item.exceptionDates {
            for date in list.dates {
                deleted.append(instant(of: Self.occurrenceStart(date, seriesStart: start), line: line, fallback: times.startZone).utc)
            }
            if !list.periods.isEmpty {
                losses.loss("exceptionDates.period", log: log, file: destination, line: line, "EXDATE periods are not dates; not written")
            }
        }
        for (override, overrideLine) in overrides {
            guard let recurrenceID = override.recurrenceID else { continue }
            let original = instant(of: Self.occurrenceStart(recurrenceID, seriesStart: start), line: overrideLine, fallback: times.startZone).utc
            if override.item.status == .cancelled {
                // A cancelled occurrence is what Exchange calls a deleted one.
                deleted.append(original)
                continue
            }
            guard let overrideTimes = self.times(of: override, line: overrideLine) else { continue }
            modified.append((overrideTimes.start, overrideTimes.end, original))
            exceptions.append((override, overrideLine, overrideTimes, original))
        }
        deleted.sort()
        modified.sort { $0.originalStart < $1.originalStart }
        if createsItems && (!modified.isEmpty || !deleted.isEmpty) {
            losses.loss(
                "overrides", log: log, file: destination, line: line,
                "CreateItem creates a series without its modified and deleted occurrences (UpdateItem and DeleteItem on its occurrences change them)"
            )
            modified = []
            deleted = []
        }
        openItemMessage()
        writeCalendarItem(
            master, line: line, kind: .recurringMaster, uid: master.uid, times: times,
            series: SeriesParts(recurrence: recurrence, uid: master.uid ?? "", modified: modified, deleted: deleted))
        closeItemMessage()
        for exception in exceptions {
            writeException(exception.event, line: exception.line, times: exception.times, originalStart: exception.original)
            try flushIfFull()
        }
    }

    /// The occurrence of a series starting at `start` that an EXDATE or RECURRENCE-ID `value`
    /// names, as the recurrence engine reads it (RFC 5545 leaves the mixes open): in a series of
    /// dates, the value's date; a DATE in a timed series, that day's occurrence at the start's
    /// wall time (Exchange's patterns give at most one a day).
    static func occurrenceStart(_ value: CalendarDateTime, seriesStart start: CalendarDateTime) -> CalendarDateTime {
        if start.isDateOnly { return value.isDateOnly ? value : CalendarDateTime(date: value.date) }
        if value.isDateOnly { return CalendarDateTime(date: value.date, time: start.time, reference: start.reference) }
        return value
    }

    /// The item's recurrence as Exchange's one pattern, or why EWS cannot hold it.
    private func exchangeRecurrence(of item: CalendarItem, start: CalendarDateTime) -> Result<
        ExchangeRecurrence, ExchangeRecurrence.Unrepresentable
    > {
        if !item.recurrenceDates.isEmpty { return .failure(.init("RDATE: Exchange has no added dates")) }
        guard item.recurrenceRules.count == 1, let rule = item.recurrenceRules.first else {
            return .failure(.init("\(item.recurrenceRules.count) RRULEs: Exchange holds one pattern"))
        }
        do {
            let recurrence = try ExchangeRecurrence(rule: rule, start: start)
            if let reason = recurrence.unrepresentableReason(in: .ews) ?? recurrence.offPatternReason(start: start) {
                return .failure(.init(reason))
            }
            return .success(recurrence)
        } catch let problem as ExchangeRecurrence.Unrepresentable {
            return .failure(problem)
        } catch {
            return .failure(.init("\(error)"))
        }
    }

    /// Writes every occurrence of a series EWS cannot hold as a single item whose UID is the
    /// series' with the occurrence's original start, so the occurrences stay where they were
    /// and are told apart; at most `expansionLimit` of them.
    private mutating func writeExpanded(_ master: Event, line: Int, overrides: [(event: Event, line: Int)], reason: String) throws {
        let set: RecurrenceSet
        do {
            set = try RecurrenceSet(
                master: master.item, extent: master.occurrenceExtent,
                overrides: overrides.map { RecurrenceSet.Override(item: $0.event.item, extent: $0.event.occurrenceExtent) },
                options: RecurrenceOptions(maxOccurrences: Self.expansionLimit))
        } catch {
            losses.loss(
                "recurrence", log: log, file: destination, line: line,
                "the recurrence cannot be expanded (\(error)) nor held by EWS (\(reason)); the series' first occurrence is written alone")
            writeSingle(withoutRecurrence(master, uid: master.uid), line: line)
            return
        }
        let expansion = set.occurrences()
        losses.loss(
            "recurrence", log: log, file: destination, line: line,
            "EWS cannot hold this series' recurrence (\(reason)); written as \(expansion.occurrences.count) single items"
                + (expansion.truncated ? ", its first \(Self.expansionLimit) occurrences only" : ""))
        for occurrence in expansion.occurrences {
            var event: Event
            var sourceLine = line
            switch occurrence.source {
            case .master:
                event = master
            case .override(let index):
                event = overrides[index].event
                sourceLine = overrides[index].line
            }
            let zone = instant(of: occurrence.start, line: sourceLine).zone
            let originalStart = Self.basicUTC(occurrence.startInstant - occurrence.start.wallSecondsSinceEpoch + occurrence.recurrenceID.wallSecondsSinceEpoch)
            // A series without a UID gives occurrences without one (Exchange makes its own).
            event = withoutRecurrence(event, uid: master.uid.map { $0 + "-" + originalStart })
            let times = ItemTimes(
                start: occurrence.startInstant, end: max(occurrence.endInstant, occurrence.startInstant), startZone: zone,
                endZone: zone, isAllDay: occurrence.start.isDateOnly)
            openItemMessage()
            writeCalendarItem(event, line: sourceLine, kind: .single, uid: event.uid, times: times, series: nil)
            closeItemMessage()
            try flushIfFull()
        }
    }

    private func withoutRecurrence(_ event: Event, uid: String?) -> Event {
        var event = event
        event.item.recurrenceRules = []
        event.item.recurrenceDates = []
        event.item.exceptionDates = []
        event.item.recurrenceID = nil
        event.item.uid = uid
        return event
    }

    /// `20240305T090000Z`.
    static func basicUTC(_ seconds: Int) -> String {
        var bytes: [UInt8] = []
        var days = seconds / 86_400
        if seconds % 86_400 < 0 { days -= 1 }
        let rest = seconds - days * 86_400
        let date = CalendarDate(daysSinceEpoch: days)
        bytes.appendDecimal(date.year)
        bytes.appendTwoDigits(date.month)
        bytes.appendTwoDigits(date.day)
        bytes.append(UInt8(ascii: "T"))
        bytes.appendTwoDigits(rest / 3600)
        bytes.appendTwoDigits(rest / 60 % 60)
        bytes.appendTwoDigits(rest % 60)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// `t:Recurrence` (Types.xsd RecurrenceType: one pattern element, then one range element),
    /// `t:ModifiedOccurrences` and `t:DeletedOccurrences`.
    mutating func writeSeriesParts(_ parts: SeriesParts, startZone: EWSZone) {
        let pattern = parts.recurrence.pattern
        let range = parts.recurrence.range
        xml.open("t:Recurrence")
        let month = pattern.month.map { Self.monthNames[max(1, min(12, $0)) - 1] }
        let relativeDay = parts.recurrence.ewsRelativeDay?.ews ?? ""
        switch pattern.kind {
        case .relativeYearly:
            xml.open("t:RelativeYearlyRecurrence")
            xml.element("t:DaysOfWeek", relativeDay)
            xml.element("t:DayOfWeekIndex", (pattern.index ?? .first).ews)
            xml.element("t:Month", month ?? "January")
            xml.close("t:RelativeYearlyRecurrence")
        case .absoluteYearly:
            xml.open("t:AbsoluteYearlyRecurrence")
            xml.element("t:DayOfMonth", integer: pattern.dayOfMonth ?? 1)
            xml.element("t:Month", month ?? "January")
            xml.close("t:AbsoluteYearlyRecurrence")
        case .relativeMonthly:
            xml.open("t:RelativeMonthlyRecurrence")
            xml.element("t:Interval", integer: pattern.interval)
            xml.element("t:DaysOfWeek", relativeDay)
            xml.element("t:DayOfWeekIndex", (pattern.index ?? .first).ews)
            xml.close("t:RelativeMonthlyRecurrence")
        case .absoluteMonthly:
            xml.open("t:AbsoluteMonthlyRecurrence")
            xml.element("t:Interval", integer: pattern.interval)
            xml.element("t:DayOfMonth", integer: pattern.dayOfMonth ?? 1)
            xml.close("t:AbsoluteMonthlyRecurrence")
        case .weekly:
            xml.open("t:WeeklyRecurrence")
            xml.element("t:Interval", integer: pattern.interval)
            xml.element("t:DaysOfWeek", pattern.daysOfWeek.map(\.ews).joined(separator: " "))
            if let first = pattern.firstDayOfWeek { xml.element("t:FirstDayOfWeek", first.ews) }
            xml.close("t:WeeklyRecurrence")
        case .daily:
            xml.open("t:DailyRecurrence")
            xml.element("t:Interval", integer: pattern.interval)
            xml.close("t:DailyRecurrence")
        }
        switch range.kind {
        case .noEnd:
            xml.open("t:NoEndRecurrence")
            xml.element("t:StartDate", date: range.startDate)
            xml.close("t:NoEndRecurrence")
        case .endDate:
            xml.open("t:EndDateRecurrence")
            xml.element("t:StartDate", date: range.startDate)
            xml.element("t:EndDate", date: range.endDate ?? range.startDate)
            xml.close("t:EndDateRecurrence")
        case .numbered:
            xml.open("t:NumberedRecurrence")
            xml.element("t:StartDate", date: range.startDate)
            xml.element("t:NumberOfOccurrences", integer: range.numberOfOccurrences ?? 1)
            xml.close("t:NumberedRecurrence")
        }
        xml.close("t:Recurrence")
        if !parts.modified.isEmpty {
            xml.open("t:ModifiedOccurrences")
            for occurrence in parts.modified {
                xml.open("t:Occurrence")
                // OccurrenceInfoType requires an ItemId; Exchange's are opaque, so calport names
                // the occurrence by its series and original start, stable from run to run.
                xml.empty("t:ItemId", attributes: ["Id": "calport-occurrence:\(parts.uid):\(Self.basicUTC(occurrence.originalStart))"])
                xml.element("t:Start", utcSeconds: occurrence.start)
                xml.element("t:End", utcSeconds: occurrence.end)
                xml.element("t:OriginalStart", utcSeconds: occurrence.originalStart)
                xml.close("t:Occurrence")
            }
            xml.close("t:ModifiedOccurrences")
        }
        if !parts.deleted.isEmpty {
            xml.open("t:DeletedOccurrences")
            for start in parts.deleted {
                xml.open("t:DeletedOccurrence")
                xml.element("t:Start", utcSeconds: start)
                xml.close("t:DeletedOccurrence")
            }
            xml.close("t:DeletedOccurrences")
        }
    }
}
