import CalendarModel

/// The days an RFC 7529 rule with a non-Gregorian RSCALE names, worked out in that calendar's
/// years and months (ICU's, through `CalendarScale`) and handed back as Gregorian days (days
/// since 1970-01-01). The rule engine keeps everything that does not depend on the calendar:
/// periods of a week or less, times of day, BYSETPOS, COUNT and UNTIL.
///
/// RFC 7529 §4.1's order: BYMONTH, SKIP for a missing (leap) month, BYYEARDAY, BYMONTHDAY, SKIP
/// for a missing day, BYDAY.
struct ScaleDaySelector {
    /// RFC 7529 SKIP.
    enum Skip { case omit, backward, forward }

    let scale: CalendarScale
    private let frequency: RecurrenceRule.Frequency
    private let skip: Skip
    /// BYMONTH labels (DTSTART's month when the rule leaves the month out); empty: every month.
    private let months: [RecurrenceRule.Month]
    /// BYMONTHDAY (DTSTART's day when the rule names no day).
    private let monthDays: [Int]
    private let yearDays: [Int]
    private let plainWeekdays: UInt8
    private let ordinalWeekdays: [(iso: Int, n: Int)]
    private let hasWeekdays: Bool
    /// Where DTSTART lies in the calendar.
    let start: CalendarScale.DayPosition

    /// - Parameters:
    ///   - plainWeekdays, ordinalWeekdays: BYDAY as the engine splits it (bit per ISO weekday;
    ///     ordinals only where they apply).
    init(
        rule: RecurrenceRule, scale: CalendarScale, startDay: Int, skip: Skip, plainWeekdays: UInt8,
        ordinalWeekdays: [(iso: Int, n: Int)]
    ) throws {
        let name = rule.scale ?? scale.identifier.uppercased()
        guard let start = scale.position(ofDay: startDay), let startYear = scale.year(start.year) else {
            throw RecurrenceError(.unsupported, "RSCALE=\(name): ICU cannot place DTSTART in the \(scale.identifier) calendar")
        }
        if !rule.weeksOfTheYear.isEmpty {
            // Week numbers in a calendar of 12 or 13 lunar months have no agreed meaning
            // (RFC 7529 leaves them to the calendar; CLDR defines none): refused, never guessed.
            throw RecurrenceError(.unsupported, "BYWEEKNO with RSCALE=\(name) is not supported; the rule is not expanded")
        }
        let monthCount = startYear.months.filter { !$0.isLeap }.count
        if let bad = rule.months.first(where: { $0.number < 1 || $0.number > monthCount }) {
            throw RecurrenceError(.invalid, "BYMONTH=\(bad.number)\(bad.isLeap ? "L" : "") names no month of RSCALE=\(name)")
        }
        if let bad = rule.daysOfTheMonth.first(where: { $0 == 0 || abs($0) > 31 }) {
            throw RecurrenceError(.invalid, "BYMONTHDAY=\(bad) is out of range -31...31")
        }
        if let bad = rule.daysOfTheYear.first(where: { $0 == 0 || abs($0) > 390 }) {
            throw RecurrenceError(.invalid, "BYYEARDAY=\(bad) is out of range -390...390")
        }
        self.scale = scale
        self.frequency = rule.frequency
        self.skip = skip
        self.start = start
        let startMonth = startYear.months[start.monthIndex]
        let startLabel = RecurrenceRule.Month(startMonth.number, isLeap: startMonth.isLeap)
        var months = rule.months
        var monthDays = rule.daysOfTheMonth
        let noDayParts = rule.daysOfTheYear.isEmpty && monthDays.isEmpty && rule.daysOfTheWeek.isEmpty
        // RFC 5545 §3.3.10: what the rule leaves out is DTSTART's, here in the RSCALE calendar.
        switch rule.frequency {
        case .yearly:
            if noDayParts {
                if months.isEmpty { months = [startLabel] }
                monthDays = [start.day]
            } else if !monthDays.isEmpty && months.isEmpty && rule.daysOfTheYear.isEmpty {
                months = [startLabel]
            }
        case .monthly:
            if noDayParts { monthDays = [start.day] }
        default:
            break
        }
        self.months = months
        self.monthDays = monthDays
        self.yearDays = rule.daysOfTheYear
        self.plainWeekdays = plainWeekdays
        self.ordinalWeekdays = ordinalWeekdays
        self.hasWeekdays = !rule.daysOfTheWeek.isEmpty
    }

    // MARK: periods

    /// The days of one year of the calendar a YEARLY rule names, sorted; nil when ICU cannot
    /// lay the year out.
    func days(inYear number: Int) -> [Int]? {
        guard let year = scale.year(number) else { return nil }
        let selected = monthIndexes(in: year)
        // BYDAY ordinals count within each month when BYMONTH is given, else within the year.
        let perMonthOrdinals = !months.isEmpty
        let yearOrdinals = perMonthOrdinals ? [] : ordinalDays(from: year.firstDay, count: year.length)
        var days: [Int] = []
        if !monthDays.isEmpty {
            for index in selected ?? Array(year.months.indices) {
                let month = year.months[index]
                let ordinals = perMonthOrdinals ? ordinalDays(from: month.firstDay, count: month.length) : yearOrdinals
                for day in skippedMonthDays(month) where matchesYearDay(day, year) && matchesWeekday(day, ordinals) {
                    days.append(day)
                }
            }
        } else if !yearDays.isEmpty {
            for day in skippedYearDays(year) where isIn(day, selected, year) && matchesWeekday(day, yearOrdinals) {
                days.append(day)
            }
        } else if hasWeekdays {
            for index in selected ?? Array(year.months.indices) {
                let month = year.months[index]
                let ordinals = perMonthOrdinals ? ordinalDays(from: month.firstDay, count: month.length) : yearOrdinals
                for day in month.firstDay..<(month.firstDay + month.length) where matchesWeekday(day, ordinals) {
                    days.append(day)
                }
            }
        } else {
            // BYMONTH alone took DTSTART's day in init; nothing else is left to name days.
            return []
        }
        return Array(Set(days)).sorted()
    }

    /// The days of one month (index `monthIndex` of year `number`) a MONTHLY rule names, sorted.
    func days(inYear number: Int, monthIndex: Int) -> [Int]? {
        guard let year = scale.year(number), monthIndex < year.months.count else { return nil }
        if let selected = monthIndexes(in: year), !selected.contains(monthIndex) { return [] }
        let month = year.months[monthIndex]
        let ordinals = ordinalDays(from: month.firstDay, count: month.length)
        let candidates = monthDays.isEmpty ? Array(month.firstDay..<(month.firstDay + month.length)) : skippedMonthDays(month)
        return candidates.filter { matchesYearDay($0, year) && matchesWeekday($0, ordinals) }
    }

    /// The month `steps` months after index `monthIndex` of year `number`, a year at a time; nil
    /// past ICU's range or past 9999-12-31, where a series ends anyway. Every calendar has 12 or 13
    /// months a year, so 140,000 months from any date RFC 5545 writes are past its last day: a
    /// larger INTERVAL is answered at once.
    func month(_ steps: Int, after number: Int, _ monthIndex: Int) -> (year: Int, index: Int)? {
        guard steps <= 140_000 else { return nil }
        var (current, index, left) = (number, monthIndex, steps)
        while true {
            guard let year = scale.year(current), let first = year.months.first?.firstDay, first <= RuleEngine.lastDay else { return nil }
            if index + left < year.months.count { return (current, index + left) }
            left -= year.months.count - index
            current += 1
            index = 0
        }
    }

    /// The first day of a year or month of the calendar, for the engine's end-of-dates check.
    func firstDay(ofYear number: Int, monthIndex: Int = 0) -> Int? {
        guard let year = scale.year(number), monthIndex < year.months.count else { return nil }
        return year.months[monthIndex].firstDay
    }

    /// Whether a day passes BYMONTH, BYMONTHDAY and BYYEARDAY read as limits (periods of a week or
    /// less); BYDAY is the engine's to check.
    func matches(day: Int) -> Bool {
        if months.isEmpty && monthDays.isEmpty && yearDays.isEmpty { return true }
        guard let position = scale.position(ofDay: day), let year = scale.year(position.year) else { return false }
        if let selected = monthIndexes(in: year), !selected.contains(position.monthIndex) { return false }
        if !monthDays.isEmpty && !skippedMonthDays(year.months[position.monthIndex]).contains(day) { return false }
        return matchesYearDay(day, year)
    }

    // MARK: the parts

    /// BYMONTH in one year: the indexes of the months it names, with SKIP applied to a leap month
    /// the year lacks (BACKWARD: the regular month it follows; FORWARD: the month after that);
    /// nil when the rule names no month.
    private func monthIndexes(in year: CalendarScale.Year) -> [Int]? {
        if months.isEmpty { return nil }
        var indexes: [Int] = []
        for label in months {
            if let i = year.months.firstIndex(where: { $0.number == label.number && $0.isLeap == label.isLeap }) {
                indexes.append(i)
            } else if label.isLeap, let regular = year.months.firstIndex(where: { $0.number == label.number && !$0.isLeap }) {
                switch skip {
                case .omit: break
                case .backward: indexes.append(regular)
                case .forward: if regular + 1 < year.months.count { indexes.append(regular + 1) }
                }
            }
        }
        return Array(Set(indexes)).sorted()
    }

    /// BYMONTHDAY in one month, with SKIP applied to a day the month lacks (FORWARD: the first
    /// day after the month, or its first day; BACKWARD: its last day, or the day before it).
    private func skippedMonthDays(_ month: CalendarScale.Month) -> [Int] {
        monthDays.compactMap { d in
            moved(d > 0 ? month.firstDay + d - 1 : month.firstDay + month.length + d, first: month.firstDay, count: month.length)
        }
    }

    /// BYYEARDAY in one year, with SKIP applied as for month days.
    private func skippedYearDays(_ year: CalendarScale.Year) -> [Int] {
        yearDays.compactMap { d in
            moved(d > 0 ? year.firstDay + d - 1 : year.firstDay + year.length + d, first: year.firstDay, count: year.length)
        }
    }

    private func moved(_ raw: Int, first: Int, count: Int) -> Int? {
        let last = first + count - 1
        if raw >= first && raw <= last { return raw }
        switch skip {
        case .omit: return nil
        case .forward: return raw > last ? last + 1 : first
        case .backward: return raw > last ? last : first - 1
        }
    }

    private func matchesYearDay(_ day: Int, _ year: CalendarScale.Year) -> Bool {
        if yearDays.isEmpty { return true }
        let ofYear = day - year.firstDay + 1
        return yearDays.contains { $0 > 0 ? $0 == ofYear : year.length + 1 + $0 == ofYear }
    }

    private func isIn(_ day: Int, _ selected: [Int]?, _ year: CalendarScale.Year) -> Bool {
        guard let selected else { return true }
        return selected.contains { day >= year.months[$0].firstDay && day < year.months[$0].firstDay + year.months[$0].length }
    }

    private func matchesWeekday(_ day: Int, _ ordinals: [Int]) -> Bool {
        if !hasWeekdays { return true }
        // 1970-01-01 was a Thursday (ISO 4).
        let weekday = RuleEngine.floorMod(day + 3, 7) + 1
        return plainWeekdays & (1 << UInt8(weekday)) != 0 || ordinals.contains(day)
    }

    private func ordinalDays(from first: Int, count: Int) -> [Int] {
        RuleEngine.ordinalDays(ordinalWeekdays, from: first, count: count)
    }
}
