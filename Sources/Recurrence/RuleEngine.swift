import CalendarModel

/// Why a rule stopped producing instances.
public enum RecurrenceStop: Hashable, Sendable {
    /// COUNT reached.
    case count
    /// UNTIL passed.
    case until
    /// Past 9999-12-31, the last date RFC 5545 can write.
    case lastYear
    /// A whole repeat cycle of the calendar (400 years) produced nothing: the rule can never
    /// produce another instance (e.g. BYMONTH=2;BYMONTHDAY=30).
    case noFurtherInstance
}

/// The expansion of one RRULE in wall seconds (days since 1970 × 86 400 + seconds of day),
/// period by period as RFC 5545 §3.3.10 describes: each period (year, month, week, day, hour,
/// minute or second, stepped by INTERVAL) is expanded and limited by the BYxxx parts, BYSETPOS
/// picks from the period's sorted set, and COUNT/UNTIL end the series. Lazy: one period is
/// held at a time.
struct RuleEngine {
    private let frequency: RecurrenceRule.Frequency
    private let interval: Int
    private let startWall: Int
    private let startDay: Int
    private let isDate: Bool
    private let count: Int?
    private let untilWall: Int?
    private let untilInstant: Int?
    private let instantOf: (Int) -> Int
    private let startAlwaysOccurs: Bool

    // Day filters. Masks keep the per-day test cheap: this is the inner loop.
    private let monthMask: UInt16  // bit m for month m; 0 = any
    private let monthDayPositive: UInt32  // bit d for BYMONTHDAY=d
    private let monthDayNegative: UInt32  // bit d for BYMONTHDAY=-d
    private let hasMonthDays: Bool
    private let yearDayPositive: [Bool]
    private let yearDayNegative: [Bool]
    private let hasYearDays: Bool
    private let weekNoPositive: UInt64
    private let weekNoNegative: UInt64
    private let hasWeekNos: Bool
    private let plainWeekdays: UInt8  // bit iso weekday
    private let ordinalWeekdays: [(iso: Int, n: Int)]
    private let hasWeekdays: Bool
    private let weekStart: Int  // ISO weekday of WKST
    private let setPositions: [Int]
    /// RFC 7529 SKIP with RSCALE=GREGORIAN: what happens to a BYMONTHDAY or BYYEARDAY that
    /// names a day the month or year does not have.
    private enum SkipMode { case omit, backward, forward }
    private let skipMode: SkipMode
    private let monthDayList: [Int]
    private let yearDayList: [Int]
    /// Seconds of day an instance may have, sorted (periods of a day or longer).
    private let timesOfDay: [Int]
    /// RFC 7529: the days a rule with a non-Gregorian RSCALE names. With it, a YEARLY period is a
    /// year of that calendar (`periodCursor` its extended year) and a MONTHLY one a month of it
    /// (`periodCursor` is year × 32 + month index); the Gregorian day masks stay empty.
    private let scaled: ScaleDaySelector?
    /// How far apart instances are when every period holds exactly one (no BYxxx part, no
    /// BYSETPOS, a day of month every month has): then a COUNT rule can skip ahead by
    /// arithmetic rather than walk each instance from DTSTART (`skip(toWall:)`).
    private enum Cadence { case seconds(Int), months(Int) }
    private let cadence: Cadence?

    // Sub-daily frequencies: seconds of day grouped by the unit (hour, minute, second) they fall in.
    private let unit: Int
    private let unitsPerDay: Int
    private let startUnit: Int
    private let bucketUnits: [Int]
    private let bucketStarts: [Int]

    // Iteration state.
    private var periodCursor: Int
    /// The first period (year, month index, week start day or day), INTERVAL's origin.
    private var firstPeriod = 0
    private var buffer: [Int] = []
    private var bufferIndex = 0
    private var emitted = 0
    private var startPending: Bool
    /// Instances before this wall time are dropped: DTSTART, or where a COUNT skip landed.
    private var floorWall: Int
    private var emptyRun = 0
    private let emptyLimit: Int
    private(set) var stop: RecurrenceStop?

    /// - Parameters:
    ///   - instantOf: wall seconds → UTC seconds, for UNTIL in UTC against a zoned start.
    ///   - untilIsInstant: compare UNTIL as an instant (UTC UNTIL with a zoned or UTC start).
    init(
        rule: RecurrenceRule, start: CalendarDateTime, startAlwaysOccurs: Bool,
        instantOf: @escaping (Int) -> Int
    ) throws {
        let scale = try rule.scale.flatMap { try CalendarScale.forRSCALE($0) }
        switch rule.skip?.uppercased() {
        case nil, "OMIT": skipMode = .omit
        // SKIP only means something with RSCALE (RFC 7529 §3.1); without it, RFC 5545's
        // omission stands.
        case "BACKWARD": skipMode = rule.scale == nil ? .omit : .backward
        case "FORWARD": skipMode = rule.scale == nil ? .omit : .forward
        case let other?: throw RecurrenceError(.invalid, "SKIP=\(other) is not OMIT, BACKWARD or FORWARD (RFC 7529)")
        }
        if scale == nil, let leap = rule.months.first(where: { $0.isLeap || $0.number > 12 }) {
            throw RecurrenceError(.invalid, "BYMONTH=\(leap.number)\(leap.isLeap ? "L" : "") names no Gregorian month")
        }
        // Rules can come from JSON or code, not only from checked RFC 5545 text: out-of-range
        // values are refused here rather than trusted.
        func check(_ name: String, _ values: [Int], _ range: ClosedRange<Int>, zero: Bool = false) throws {
            if let bad = values.first(where: { !range.contains($0) || (!zero && $0 == 0) }) {
                throw RecurrenceError(.invalid, "\(name)=\(bad) is out of range \(range)")
            }
        }
        try check("BYSECOND", rule.bySecond, 0...60, zero: true)
        try check("BYMINUTE", rule.byMinute, 0...59, zero: true)
        try check("BYHOUR", rule.byHour, 0...23, zero: true)
        try check("BYMONTHDAY", rule.daysOfTheMonth, -31...31)
        try check("BYYEARDAY", rule.daysOfTheYear, scale == nil ? -366...366 : -390...390)
        try check("BYWEEKNO", rule.weeksOfTheYear, -53...53)
        try check("BYSETPOS", rule.setPositions, -366...366)
        try check("BYDAY ordinal", rule.daysOfTheWeek.map(\.weekNumber), -53...53, zero: true)
        if rule.months.contains(where: { $0.number < 1 }) {
            throw RecurrenceError(.invalid, "BYMONTH values start at 1")
        }
        if case .count(let n) = rule.end, n < 1 {
            throw RecurrenceError(.invalid, "COUNT=\(n) must be a positive integer")
        }
        if rule.interval < 1 {
            throw RecurrenceError(.invalid, "INTERVAL=\(rule.interval) must be a positive integer")
        }
        frequency = rule.frequency
        // INTERVAL=2^40 units is past 9999-12-31 from any start in every frequency (2^40
        // seconds are 34,000 years): a larger one yields the same series, and keeps the period
        // arithmetic from overflowing.
        interval = min(rule.interval, RuleEngine.intervalCap)
        isDate = start.isDateOnly
        startWall = start.wallSecondsSinceEpoch
        floorWall = startWall
        startDay = start.date.daysSinceEpoch
        self.instantOf = instantOf
        self.startAlwaysOccurs = startAlwaysOccurs
        startPending = startAlwaysOccurs

        switch rule.end {
        case .count(let n):
            count = n
            untilWall = nil
            untilInstant = nil
        case .until(let until):
            count = nil
            if until.isDateOnly {
                // A DATE UNTIL ends with its day, whatever the start's type.
                untilWall = (until.date.daysSinceEpoch + 1) * 86_400 - 1
                untilInstant = nil
            } else if !isDate && until.reference == .utc && start.reference != .floating {
                // RFC 5545 §3.3.10: a UTC UNTIL bounds a zoned start as an instant.
                untilWall = nil
                untilInstant = until.wallSecondsSinceEpoch
            } else {
                // Floating start (UNTIL should then be floating too) or a DATE start: wall time.
                untilWall = until.wallSecondsSinceEpoch
                untilInstant = nil
            }
        case nil:
            count = nil
            untilWall = nil
            untilInstant = nil
        }

        let startDate = start.date
        let startTime = start.time ?? TimeOfDay(hour: 0, minute: 0, second: 0)
        // With a non-Gregorian RSCALE, months and month and year days are the selector's.
        var months = scale == nil ? rule.months.map(\.number) : []
        var monthDays = scale == nil ? rule.daysOfTheMonth : []
        let yearDays = scale == nil ? rule.daysOfTheYear : []
        var weekdays = rule.daysOfTheWeek
        let noDayParts = rule.weeksOfTheYear.isEmpty && rule.daysOfTheYear.isEmpty && rule.daysOfTheMonth.isEmpty && weekdays.isEmpty
        // RFC 5545 §3.3.10: what the rule leaves out is taken from DTSTART.
        switch scale == nil ? frequency : .secondly {
        case .yearly:
            if noDayParts {
                if months.isEmpty { months = [startDate.month] }
                monthDays = [startDate.day]
            } else if !rule.weeksOfTheYear.isEmpty && weekdays.isEmpty && monthDays.isEmpty && rule.daysOfTheYear.isEmpty {
                // BYWEEKNO names weeks; the day within the week is DTSTART's (libical and
                // sabre/vobject agree; RFC 5545 takes what the rule leaves out from DTSTART).
                weekdays = [.init(.init(isoWeekday: startDate.isoWeekday))]
            } else if !monthDays.isEmpty && months.isEmpty && rule.weeksOfTheYear.isEmpty && rule.daysOfTheYear.isEmpty {
                // BYMONTHDAY counts within a month; the month is DTSTART's (libical and ical.js
                // agree; RFC 5545 says missing information comes from DTSTART).
                months = [startDate.month]
            }
        case .monthly:
            if noDayParts { monthDays = [startDate.day] }
        default:
            break
        }
        if frequency == .weekly && noDayParts { weekdays = [.init(.init(isoWeekday: startDate.isoWeekday))] }

        var mm: UInt16 = 0
        for m in months { mm |= 1 << UInt16(m) }
        monthMask = mm
        var mdp: UInt32 = 0
        var mdn: UInt32 = 0
        for d in monthDays {
            if d > 0 { mdp |= 1 << UInt32(d) } else { mdn |= 1 << UInt32(-d) }
        }
        monthDayPositive = mdp
        monthDayNegative = mdn
        hasMonthDays = !monthDays.isEmpty
        monthDayList = monthDays
        yearDayList = yearDays
        var ydp = [Bool](repeating: false, count: 367)
        var ydn = [Bool](repeating: false, count: 367)
        for d in yearDays {
            if d > 0 { ydp[d] = true } else { ydn[-d] = true }
        }
        yearDayPositive = ydp
        yearDayNegative = ydn
        hasYearDays = !yearDays.isEmpty
        var wnp: UInt64 = 0
        var wnn: UInt64 = 0
        for w in rule.weeksOfTheYear {
            if w > 0 { wnp |= 1 << UInt64(w) } else { wnn |= 1 << UInt64(-w) }
        }
        weekNoPositive = wnp
        weekNoNegative = wnn
        hasWeekNos = !rule.weeksOfTheYear.isEmpty
        // Ordinals only mean something within a month or a year (RFC 5545 §3.3.10); in
        // shorter periods they are read as plain weekdays, as dateutil and libical do.
        let ordinalsApply = frequency == .monthly || (frequency == .yearly && rule.weeksOfTheYear.isEmpty)
        var pw: UInt8 = 0
        var ow: [(iso: Int, n: Int)] = []
        for day in weekdays {
            if day.weekNumber != 0 && ordinalsApply {
                ow.append((day.weekday.isoNumber, day.weekNumber))
            } else {
                pw |= 1 << UInt8(day.weekday.isoNumber)
            }
        }
        plainWeekdays = pw
        ordinalWeekdays = ow
        if let scale {
            scaled = try ScaleDaySelector(
                rule: rule, scale: scale, startDay: startDay,
                skip: skipMode == .forward ? .forward : skipMode == .backward ? .backward : .omit, plainWeekdays: pw,
                ordinalWeekdays: ow)
        } else {
            scaled = nil
        }
        hasWeekdays = !weekdays.isEmpty
        weekStart = (rule.firstDayOfTheWeek ?? .monday).isoNumber
        setPositions = rule.setPositions

        // Times of day. RFC 5545 §3.3.10: BYHOUR/BYMINUTE/BYSECOND are ignored with a DATE start.
        let hours: [Int]
        let minutes: [Int]
        let seconds: [Int]
        if isDate {
            hours = [0]
            minutes = [0]
            seconds = [0]
        } else {
            let order: [RecurrenceRule.Frequency] = [.yearly, .monthly, .weekly, .daily, .hourly, .minutely, .secondly]
            let level = order.firstIndex(of: frequency)!
            func unitValues(_ given: [Int], _ own: RecurrenceRule.Frequency, _ fromStart: Int, _ all: ClosedRange<Int>) -> [Int] {
                if !given.isEmpty { return Array(Set(given)).sorted() }
                return level >= order.firstIndex(of: own)! ? Array(all) : [fromStart]
            }
            hours = unitValues(rule.byHour, .hourly, startTime.hour, 0...23)
            minutes = unitValues(rule.byMinute, .minutely, startTime.minute, 0...59)
            // A leap second (60) cannot be told apart from :00 of the next minute in wall
            // seconds; it is dropped, as the tz database has no leap seconds either.
            seconds = unitValues(rule.bySecond, .secondly, startTime.second, 0...59).filter { $0 < 60 }
        }
        var times: [Int] = []
        times.reserveCapacity(hours.count * minutes.count * seconds.count)
        for h in hours {
            for m in minutes {
                for s in seconds { times.append(h * 3600 + m * 60 + s) }
            }
        }
        timesOfDay = times

        switch frequency {
        case .hourly: unit = 3600
        case .minutely: unit = 60
        case .secondly: unit = 1
        default: unit = 86_400
        }
        unitsPerDay = 86_400 / unit
        startUnit = RuleEngine.floorDiv(startWall, unit)
        if unit < 86_400 {
            // Units of the day that hold a time and can ever line up with INTERVAL: unit u of
            // day d is a period iff (d × unitsPerDay + u − startUnit) ≡ 0 (mod INTERVAL), which
            // some day satisfies iff u ≡ startUnit (mod gcd(unitsPerDay, INTERVAL)).
            let g = RuleEngine.gcd(unitsPerDay, interval)
            let residue = RuleEngine.floorMod(startUnit, g)
            var units: [Int] = []
            var starts: [Int] = []
            var last = -1
            for (i, t) in times.enumerated() {
                let u = t / unit
                if u != last {
                    last = u
                    if RuleEngine.floorMod(u, g) == residue || isDate {
                        units.append(u)
                        starts.append(i)
                    } else {
                        units.append(-1)
                        starts.append(i)
                    }
                }
            }
            starts.append(times.count)
            bucketUnits = units
            bucketStarts = starts
        } else {
            bucketUnits = []
            bucketStarts = []
        }

        switch frequency {
        case .yearly:
            periodCursor = startDate.year
            // The Gregorian calendar repeats every 400 years; lunisolar leap months can be
            // centuries apart (a Chinese 9L: 2014, then 2109).
            emptyLimit = scale == nil ? 400 : 1000
        case .monthly:
            periodCursor = startDate.year * 12 + startDate.month - 1
            emptyLimit = scale == nil ? 4800 : 12_000
        case .weekly:
            periodCursor = startDay - RuleEngine.floorMod(startDate.isoWeekday - weekStart, 7)
            emptyLimit = 20_871  // weeks in 400 years
        case .daily:
            periodCursor = startDay
            emptyLimit = 146_097  // days in 400 years
        default:
            periodCursor = startDay  // sub-daily: the day being scanned
            emptyLimit = 146_097
        }
        let noParts =
            rule.months.isEmpty && rule.daysOfTheMonth.isEmpty && rule.daysOfTheYear.isEmpty && rule.weeksOfTheYear.isEmpty
            && rule.daysOfTheWeek.isEmpty && rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty
            && rule.setPositions.isEmpty && scale == nil && startTime.second < 60
        switch frequency {
        case _ where !noParts: cadence = nil
        case .yearly: cadence = startDate.day <= 28 ? .months(12 * interval) : nil
        case .monthly: cadence = startDate.day <= 28 ? .months(interval) : nil
        case .weekly: cadence = .seconds(7 * 86_400 * interval)
        case .daily: cadence = .seconds(86_400 * interval)
        default: cadence = isDate ? nil : .seconds(unit * interval)
        }
        if let scaled, frequency == .yearly {
            periodCursor = scaled.start.year
        } else if let scaled, frequency == .monthly {
            periodCursor = scaled.start.year * 32 + scaled.start.monthIndex
        }
        if frequency == .yearly && hasWeekNos {
            // With BYWEEKNO the year is the week-numbering year (weeks starting on WKST), so
            // INTERVAL steps from the week-year DTSTART's week belongs to: 2024-12-31 is in
            // week 1 of 2025 (libical's reading; RFC 5545 is silent).
            periodCursor = weekYear(of: startDay, year: startDate.year)
        }
        firstPeriod = periodCursor
        if unit < 86_400 && !bucketUnits.contains(where: { $0 >= 0 }) {
            // No time of day can ever fall on a period: nothing but DTSTART.
            stop = .noFurtherInstance
        }
    }

    // MARK: iteration

    /// The next instance in wall seconds, or nil at the end (see `stop`).
    mutating func next() -> Int? {
        if startPending {
            startPending = false
            // DTSTART is the first instance (RFC 5545 §3.8.5.3) even when the rule would not
            // produce it; it counts toward COUNT.
            let first = peekFirstRuleInstance()
            if first == startWall { _ = nextRuleInstance() }
            emitted = 1
            return startWall
        }
        guard let wall = nextRuleInstance() else { return nil }
        if let count, emitted >= count {
            stop = .count
            return nil
        }
        if let untilWall, wall > untilWall {
            stop = .until
            return nil
        }
        if let untilInstant, instantOf(wall) > untilInstant {
            stop = .until
            return nil
        }
        emitted += 1
        return wall
    }

    /// Moves the period cursor forward so that the next instance is the first at or after
    /// `wall` (or a little before it); only allowed without COUNT, which needs every instance.
    mutating func skip(toWall wall: Int) {
        if count != nil {
            skipCounted(toWall: wall)
            return
        }
        guard stop == nil, wall > startWall else { return }
        startPending = false
        buffer.removeAll(keepingCapacity: true)
        bufferIndex = 0
        let day = RuleEngine.floorDiv(wall, 86_400)
        let date = CalendarDate(daysSinceEpoch: day)
        let target: Int
        let step: Int
        if let scaled, frequency == .monthly {
            // Months of the calendar vary in number per year: walk INTERVAL by INTERVAL to the
            // last period that starts on or before the day.
            var cursor = (year: RuleEngine.floorDiv(periodCursor, 32), index: RuleEngine.floorMod(periodCursor, 32))
            while true {
                guard let candidate = scaled.month(interval, after: cursor.year, cursor.index),
                    let first = scaled.firstDay(ofYear: candidate.year, monthIndex: candidate.index),
                    first <= day
                else { break }
                cursor = candidate
            }
            periodCursor = cursor.year * 32 + cursor.index
            return
        }
        switch scaled == nil ? frequency : frequency == .yearly ? .secondly : frequency {
        case .secondly where scaled != nil:
            target = scaled?.scale.position(ofDay: day)?.year ?? periodCursor
            step = interval
        case .yearly:
            target = hasWeekNos ? weekYear(of: day, year: date.year) : date.year
            step = interval
        case .monthly:
            target = date.year * 12 + date.month - 1
            step = interval
        case .weekly:
            target = day - RuleEngine.floorMod(date.isoWeekday - weekStart, 7)
            step = 7 * interval
        case .daily:
            target = day
            step = interval
        default:
            // Sub-daily rules scan day by day; start on the target day.
            if day > periodCursor { periodCursor = day }
            return
        }
        let aligned = firstPeriod + RuleEngine.floorDiv(target - firstPeriod, step) * step
        if aligned > periodCursor { periodCursor = aligned }
    }

    /// A COUNT rule of one instance per period moves straight to its first instance at or after
    /// `wall`, with that instance's number: FREQ=SECONDLY;COUNT=2147483647 from 1900 asked about
    /// 2024 is answered at once rather than after four billion steps. Other COUNT rules must
    /// count every instance and are left alone. Only before the first instance is taken.
    private mutating func skipCounted(toWall wall: Int) {
        guard let count, let cadence, stop == nil, emitted == 0, wall > startWall else { return }
        var k: Int
        let instance: Int
        switch cadence {
        case .seconds(let step):
            k = (wall - startWall) / step + ((wall - startWall) % step == 0 ? 0 : 1)
            guard k < count else { return stopCounting() }
            instance = startWall + k * step
            switch frequency {
            case .weekly: periodCursor = firstPeriod + k * 7 * interval
            case .daily: periodCursor = firstPeriod + k * interval
            default: periodCursor = RuleEngine.floorDiv(instance, 86_400)  // the day being scanned
            }
        case .months(let step):
            let start = CalendarDate(daysSinceEpoch: startDay)
            let target = CalendarDate(daysSinceEpoch: RuleEngine.floorDiv(wall, 86_400))
            let months = (target.year - start.year) * 12 + target.month - start.month
            k = max(0, RuleEngine.floorDiv(months, step))
            func wallOf(_ k: Int) -> Int {
                let index = start.year * 12 + start.month - 1 + k * step
                let year = RuleEngine.floorDiv(index, 12)
                let day = CalendarDate(year: year, month: index - year * 12 + 1, day: start.day).daysSinceEpoch
                return day * 86_400 + RuleEngine.floorMod(startWall, 86_400)
            }
            if wallOf(k) < wall { k += 1 }
            guard k < count else { return stopCounting() }
            instance = wallOf(k)
            periodCursor = firstPeriod + k * (frequency == .yearly ? interval : step)
        }
        startPending = false
        buffer.removeAll(keepingCapacity: true)
        bufferIndex = 0
        emitted = k
        floorWall = instance
    }

    /// Ends a COUNT rule whose last instance lies before where it was asked to skip to.
    private mutating func stopCounting() {
        startPending = false
        buffer.removeAll(keepingCapacity: true)
        bufferIndex = 0
        stop = .count
    }

    private mutating func peekFirstRuleInstance() -> Int? {
        // Looks ahead without consuming, so the first rule instance still goes through the
        // COUNT/UNTIL checks of `next`.
        let saved = (periodCursor, buffer, bufferIndex, emptyRun, stop)
        let first = nextRuleInstance()
        (periodCursor, buffer, bufferIndex, emptyRun, stop) = saved
        return first
    }

    /// The next wall time the rule itself produces at or after DTSTART, ignoring COUNT/UNTIL.
    private mutating func nextRuleInstance() -> Int? {
        while true {
            if bufferIndex < buffer.count {
                let w = buffer[bufferIndex]
                bufferIndex += 1
                if w > RuleEngine.lastWall {
                    stop = .lastYear
                    return nil
                }
                if w >= floorWall { return w }
                continue
            }
            if stop != nil { return nil }
            if pastLastYear() {
                stop = .lastYear
                return nil
            }
            buffer.removeAll(keepingCapacity: true)
            bufferIndex = 0
            fillNextPeriod()
            if buffer.isEmpty {
                emptyRun += 1
                if emptyRun >= emptyLimit && stop == nil { stop = .noFurtherInstance }
            } else {
                emptyRun = 0
            }
            if stop == nil && pastLastYear() { stop = .lastYear }
        }
    }

    private func pastLastYear() -> Bool {
        if let scaled, frequency == .yearly || frequency == .monthly {
            let first =
                frequency == .yearly
                ? scaled.firstDay(ofYear: periodCursor)
                : scaled.firstDay(ofYear: RuleEngine.floorDiv(periodCursor, 32), monthIndex: RuleEngine.floorMod(periodCursor, 32))
            // No layout: ICU cannot go on (beyond its range), which ends the series as well.
            return (first ?? Int.max) > RuleEngine.lastDay
        }
        switch frequency {
        case .yearly: return periodCursor > 9999
        case .monthly: return periodCursor > 9999 * 12 + 11
        default: return periodCursor > RuleEngine.lastDay
        }
    }

    // MARK: periods

    private mutating func fillNextPeriod() {
        if let scaled, frequency == .yearly {
            let year = periodCursor
            periodCursor += interval
            emit(days: scaled.days(inYear: year) ?? [])
            return
        }
        if let scaled, frequency == .monthly {
            let year = RuleEngine.floorDiv(periodCursor, 32)
            let index = RuleEngine.floorMod(periodCursor, 32)
            let next = scaled.month(interval, after: year, index)
            // Past ICU's range: a cursor beyond the last date ends the series in pastLastYear.
            periodCursor = next.map { $0.year * 32 + $0.index } ?? Int.max / 2
            emit(days: scaled.days(inYear: year, monthIndex: index) ?? [])
            return
        }
        switch frequency {
        case .yearly:
            let year = periodCursor
            periodCursor += interval
            fillYear(year)
        case .monthly:
            let index = periodCursor
            periodCursor += interval
            let year = RuleEngine.floorDiv(index, 12)
            let month = index - year * 12 + 1
            if monthMask != 0 && monthMask & (1 << UInt16(month)) == 0 { return }
            var days: [Int] = []
            let first = CalendarDate(year: year, month: month, day: 1).daysSinceEpoch
            let length = CalendarDate.daysInMonth(year: year, month: month)
            let ordinals = ordinalDays(from: first, count: length)
            if skipMode != .omit && hasMonthDays {
                emit(days: skippedMonthDays(first: first, length: length, ordinals: ordinals))
                return
            }
            for i in 0..<length where matches(day: first + i, ordinals: ordinals, year: year, month: month, dayOfMonth: i + 1) {
                days.append(first + i)
            }
            emit(days: days)
        case .weekly:
            let first = periodCursor
            periodCursor += 7 * interval
            var days: [Int] = []
            for d in first..<(first + 7) where matches(day: d, ordinals: [], checkMonth: true) { days.append(d) }
            emit(days: days)
        case .daily:
            let d = periodCursor
            periodCursor += interval
            if matches(day: d, ordinals: [], checkMonth: true) { emit(days: [d]) }
        default:
            fillSubDaily()
        }
    }

    private mutating func fillYear(_ year: Int) {
        var days: [Int] = []
        if hasWeekNos {
            for day in weekOneStart(year)..<weekOneStart(year + 1) where matches(day: day, ordinals: [], checkMonth: true) {
                days.append(day)
            }
            emit(days: days)
            return
        }
        let yearFirst = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch
        let yearLength = CalendarDate.isLeapYear(year) ? 366 : 365
        // With BYMONTH, BYDAY ordinals count within each month; without, within the year.
        let perMonthOrdinals = monthMask != 0 && !ordinalWeekdays.isEmpty
        let yearOrdinals = perMonthOrdinals ? [] : ordinalDays(from: yearFirst, count: yearLength)
        if skipMode != .omit && hasYearDays && !hasMonthDays {
            var moved: [Int] = []
            for d in yearDayList {
                let raw = d > 0 ? yearFirst + d - 1 : yearFirst + yearLength + d
                moved.append(skipped(raw, first: yearFirst, last: yearFirst + yearLength - 1))
            }
            emit(days: Set(moved).sorted().filter { matchesMoved($0, ordinals: yearOrdinals, checkMonth: true, checkYearDays: false) })
            return
        }
        for month in 1...12 {
            if monthMask != 0 && monthMask & (1 << UInt16(month)) == 0 { continue }
            let first = CalendarDate(year: year, month: month, day: 1).daysSinceEpoch
            let length = CalendarDate.daysInMonth(year: year, month: month)
            let ordinals = perMonthOrdinals ? ordinalDays(from: first, count: length) : yearOrdinals
            if skipMode != .omit && hasMonthDays {
                days.append(contentsOf: skippedMonthDays(first: first, length: length, ordinals: ordinals))
                continue
            }
            for i in 0..<length where matches(day: first + i, ordinals: ordinals, year: year, month: month, dayOfMonth: i + 1) {
                days.append(first + i)
            }
        }
        emit(days: skipMode == .omit ? days : Set(days).sorted())  // SKIP may move days across months
    }

    /// RFC 7529 SKIP: a day number outside [first, last] moves to the nearest valid day in the
    /// SKIP direction (FORWARD: the day after the month or year, or its first day; BACKWARD:
    /// its last day, or the day before it).
    private func skipped(_ raw: Int, first: Int, last: Int) -> Int {
        if raw >= first && raw <= last { return raw }
        switch skipMode {
        case .forward: return raw > last ? last + 1 : first
        case .backward: return raw > last ? last : first - 1
        case .omit: return raw
        }
    }

    /// BYMONTHDAY of one month with SKIP applied, then limited by the later parts (BYDAY, …).
    private func skippedMonthDays(first: Int, length: Int, ordinals: [Int]) -> [Int] {
        var moved: [Int] = []
        for d in monthDayList {
            let raw = d > 0 ? first + d - 1 : first + length + d
            moved.append(skipped(raw, first: first, last: first + length - 1))
        }
        return Set(moved).sorted().filter { matchesMoved($0, ordinals: ordinals, checkMonth: false, checkYearDays: true) }
    }

    /// The limits after SKIP (RFC 7529 §3.1's order): BYDAY and what follows, not the day
    /// numbers that produced the day.
    private func matchesMoved(_ day: Int, ordinals: [Int], checkMonth: Bool, checkYearDays: Bool) -> Bool {
        let date = CalendarDate(daysSinceEpoch: day)
        if checkMonth && monthMask != 0 && monthMask & (1 << UInt16(date.month)) == 0 { return false }
        return matches(
            day: day, ordinals: ordinals, year: date.year, month: date.month, dayOfMonth: date.day, checkMonthDays: false,
            checkYearDays: checkYearDays)
    }

    /// Days of [first, first+count) named by BYDAY ordinals (`2MO`, `-1FR`), sorted.
    private func ordinalDays(from first: Int, count: Int) -> [Int] {
        RuleEngine.ordinalDays(ordinalWeekdays, from: first, count: count)
    }

    /// Days of [first, first+count) named by BYDAY ordinals (ISO weekday, ordinal); shared with
    /// the RSCALE selector, whose months are not Gregorian ones.
    static func ordinalDays(_ ordinalWeekdays: [(iso: Int, n: Int)], from first: Int, count: Int) -> [Int] {
        if ordinalWeekdays.isEmpty { return [] }
        var result: [Int] = []
        let firstWeekday = CalendarDate(daysSinceEpoch: first).isoWeekday
        let lastDay = first + count - 1
        let lastWeekday = CalendarDate(daysSinceEpoch: lastDay).isoWeekday
        for (iso, n) in ordinalWeekdays {
            let day: Int
            if n > 0 {
                day = first + RuleEngine.floorMod(iso - firstWeekday, 7) + (n - 1) * 7
            } else {
                day = lastDay - RuleEngine.floorMod(lastWeekday - iso, 7) + (n + 1) * 7
            }
            if day >= first && day <= lastDay { result.append(day) }
        }
        return result
    }

    private func matches(day: Int, ordinals: [Int], checkMonth: Bool) -> Bool {
        if let scaled, !scaled.matches(day: day) { return false }
        if monthMask == 0 && !hasMonthDays && !hasYearDays && !hasWeekNos {
            // Only weekdays (or nothing) to check: no calendar date needed.
            return !hasWeekdays || plainWeekdays & (1 << UInt8(RuleEngine.floorMod(day + 3, 7) + 1)) != 0 || ordinals.contains(day)
        }
        let date = CalendarDate(daysSinceEpoch: day)
        if checkMonth && monthMask != 0 && monthMask & (1 << UInt16(date.month)) == 0 { return false }
        return matches(day: day, ordinals: ordinals, year: date.year, month: date.month, dayOfMonth: date.day)
    }

    /// The BYxxx limits for a day whose date the caller knows (BYMONTH already checked).
    private func matches(
        day: Int, ordinals: [Int], year: Int, month: Int, dayOfMonth: Int, checkMonthDays: Bool = true, checkYearDays: Bool = true
    ) -> Bool {
        if hasMonthDays && checkMonthDays {
            let length = CalendarDate.daysInMonth(year: year, month: month)
            if monthDayPositive & (1 << UInt32(dayOfMonth)) == 0 && monthDayNegative & (1 << UInt32(length - dayOfMonth + 1)) == 0 {
                return false
            }
        }
        if hasWeekdays {
            // 1970-01-01 was a Thursday (ISO 4).
            let weekday = RuleEngine.floorMod(day + 3, 7) + 1
            if plainWeekdays & (1 << UInt8(weekday)) == 0 && !ordinals.contains(day) { return false }
        }
        if hasYearDays && checkYearDays {
            let first = CalendarDate(year: year, month: 1, day: 1).daysSinceEpoch
            let doy = day - first + 1
            let length = CalendarDate.isLeapYear(year) ? 366 : 365
            if !yearDayPositive[doy] && !yearDayNegative[length - doy + 1] { return false }
        }
        if hasWeekNos {
            let (week, weeks) = weekNumber(day: day, year: year)
            if weekNoPositive & (1 << UInt64(week)) == 0 && weekNoNegative & (1 << UInt64(weeks - week + 1)) == 0 {
                return false
            }
        }
        return true
    }

    /// First day of week 1 of `year` with weeks starting on WKST: the first week with at least
    /// four days in the year (RFC 5545 §3.3.10, ISO 8601).
    private func weekOneStart(_ year: Int) -> Int {
        let jan1 = CalendarDate(year: year, month: 1, day: 1)
        let d0 = RuleEngine.floorMod(weekStart - jan1.isoWeekday, 7)
        return jan1.daysSinceEpoch + (d0 >= 4 ? d0 - 7 : d0)
    }

    /// The week-numbering year `day` belongs to.
    private func weekYear(of day: Int, year: Int) -> Int {
        if day < weekOneStart(year) { return year - 1 }
        if day >= weekOneStart(year + 1) { return year + 1 }
        return year
    }

    /// The week number of `day` and how many weeks its week-year has.
    private func weekNumber(day: Int, year: Int) -> (week: Int, weeks: Int) {
        var weekYear = year
        var start = weekOneStart(year)
        if day < start {
            weekYear -= 1
            start = weekOneStart(weekYear)
        } else {
            let next = weekOneStart(year + 1)
            if day >= next {
                weekYear += 1
                start = next
            }
        }
        let weeks = (weekOneStart(weekYear + 1) - start) / 7
        return ((day - start) / 7 + 1, weeks)
    }

    /// Fills the buffer with the instances of one period of whole days, BYSETPOS applied.
    private mutating func emit(days: [Int]) {
        if days.isEmpty { return }
        if setPositions.isEmpty {
            buffer.reserveCapacity(days.count * timesOfDay.count)
            for d in days {
                for t in timesOfDay { buffer.append(d * 86_400 + t) }
            }
            return
        }
        let total = days.count * timesOfDay.count
        var picked: [Int] = []
        for p in setPositions {
            let index = p > 0 ? p - 1 : total + p
            guard index >= 0 && index < total else { continue }
            let d = days[index / timesOfDay.count]
            picked.append(d * 86_400 + timesOfDay[index % timesOfDay.count])
        }
        buffer.append(contentsOf: Set(picked).sorted())
    }

    /// Scans one day for HOURLY, MINUTELY and SECONDLY rules: each unit of the day that lies
    /// on an INTERVAL step from DTSTART is a period holding the times of its bucket.
    private mutating func fillSubDaily() {
        var day = periodCursor
        // Jump over days on which no period starts (INTERVAL longer than a day).
        let dayFirstUnit = day * unitsPerDay
        if dayFirstUnit > startUnit {
            let steps = (dayFirstUnit - startUnit + interval - 1) / interval
            let nextUnit = startUnit + steps * interval
            day = max(day, RuleEngine.floorDiv(nextUnit, unitsPerDay))
        }
        periodCursor = day + 1
        // A long INTERVAL can jump past 9999-12-31, where the series ends (pastLastYear).
        guard day <= RuleEngine.lastDay else { return }
        guard matches(day: day, ordinals: [], checkMonth: true) else { return }
        for (b, u) in bucketUnits.enumerated() where u >= 0 {
            let globalUnit = day * unitsPerDay + u
            if globalUnit < startUnit || (globalUnit - startUnit) % interval != 0 { continue }
            let range = bucketStarts[b]..<bucketStarts[b + 1]
            if setPositions.isEmpty || isDate {
                for i in range { buffer.append(day * 86_400 + timesOfDay[i]) }
            } else {
                var picked: [Int] = []
                for p in setPositions {
                    let index = p > 0 ? p - 1 : range.count + p
                    guard index >= 0 && index < range.count else { continue }
                    picked.append(day * 86_400 + timesOfDay[range.lowerBound + index])
                }
                buffer.append(contentsOf: Set(picked).sorted())
            }
            if isDate { break }  // a DATE start has one instance per day at most
        }
    }

    // MARK: arithmetic

    /// The largest INTERVAL the engine steps by (see `interval`).
    static let intervalCap = 1 << 40
    /// 9999-12-31, the last date RFC 5545 can write, in days since 1970, and its last second.
    static let lastDay = 2_932_896
    static let lastWall = lastDay * 86_400 + 86_399

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func floorMod(_ a: Int, _ b: Int) -> Int {
        let r = a % b
        return r < 0 ? r + b : r
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
