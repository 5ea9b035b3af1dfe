import CalendarModel

extension RecurrenceSet {
    /// Walks the set in recurrence-id order, merging the rules, RDATEs and detached
    /// occurrences lazily: it holds one pending instance per rule, nothing more.
    public struct Iterator: IteratorProtocol {
        private let set: RecurrenceSet
        private let includeSingleOverrides: Bool
        private let stopAfterWall: Int?
        private let timeline: Timeline
        private var engines: [RuleEngine]
        private var heads: [Int?]
        private var rdateIndex = 0
        private var overrideIndex = 0
        private var startPending: Bool
        private var produced = 0
        private var warnedStops = Set<Int>()
        /// Whether `maxOccurrences` ended the iteration.
        public private(set) var truncated = false
        /// Warnings met while iterating (a rule that can never recur again).
        public private(set) var warnings: [String] = []

        init(set: RecurrenceSet, includeSingleOverrides: Bool, skipToWall: Int?, stopAfterWall: Int?) {
            self.set = set
            self.includeSingleOverrides = includeSingleOverrides
            self.stopAfterWall = stopAfterWall
            timeline = Timeline(
                clock: set.clock, floatingZone: set.options.floatingTimeZone, primaryZone: set.start.reference.zoneIdentifier)
            let reference: TimeReference = set.start.isDateOnly ? .floating : set.start.reference
            let timeline = self.timeline
            engines = set.rules.compactMap { rule in
                // Rules were checked when the set was built; one that throws here cannot occur.
                try? RuleEngine(
                    rule: rule, start: set.start, startAlwaysOccurs: set.options.startAlwaysOccurs,
                    instantOf: { wall in timeline.instant(wall, reference) })
            }
            startPending = set.rules.isEmpty
            if let skip = skipToWall, skip > set.startWall {
                for i in engines.indices { engines[i].skip(toWall: skip) }
                if skip > set.startWall + 86_400 { startPending = false }
                while rdateIndex < set.recurrenceDates.count && set.recurrenceDates[rdateIndex].wall < skip { rdateIndex += 1 }
                while overrideIndex < set.overrideRecurrenceWalls.count && set.overrideRecurrenceWalls[overrideIndex] < skip {
                    overrideIndex += 1
                }
            }
            heads = []
            for i in engines.indices { heads.append(engines[i].next()) }
        }

        /// The next occurrence in recurrence-id order, or nil at the end.
        public mutating func next() -> Occurrence? {
            while true {
                if includeSingleOverrides && produced >= set.options.maxOccurrences {
                    truncated = true
                    return nil
                }
                var wall = Int.max
                for head in heads { if let head, head < wall { wall = head } }
                if rdateIndex < set.recurrenceDates.count { wall = min(wall, set.recurrenceDates[rdateIndex].wall) }
                if includeSingleOverrides && overrideIndex < set.overrideRecurrenceWalls.count {
                    wall = min(wall, set.overrideRecurrenceWalls[overrideIndex])
                }
                if startPending { wall = min(wall, set.startWall) }
                if wall == Int.max {
                    noteStops()
                    return nil
                }
                if let stopAfterWall, wall > stopAfterWall { return nil }
                // Advance every source that stands on this wall time: the set has no duplicates.
                for i in heads.indices where heads[i] == wall { heads[i] = engines[i].next() }
                var periodLength: RecurrenceSet.Length?
                while rdateIndex < set.recurrenceDates.count && set.recurrenceDates[rdateIndex].wall == wall {
                    periodLength = periodLength ?? set.recurrenceDates[rdateIndex].length
                    rdateIndex += 1
                }
                while overrideIndex < set.overrideRecurrenceWalls.count && set.overrideRecurrenceWalls[overrideIndex] == wall {
                    overrideIndex += 1
                }
                if startPending && wall == set.startWall { startPending = false }

                if let single = set.singleOverrides[wall] {
                    guard includeSingleOverrides, !single.cancelled,
                        let occurrence = overrideOccurrence(single.index, recurrenceWall: wall, timeline: timeline)
                    else { continue }
                    produced += 1
                    return occurrence
                }
                if set.exceptionWalls.contains(wall) || set.exceptionDays.contains(RuleEngine.floorDiv(wall, 86_400)) {
                    continue
                }
                if !set.futureOverrides.isEmpty {
                    let instant = timeline.instant(wall, set.start.isDateOnly ? .floating : set.start.reference)
                    if let future = set.futureOverrides.last(where: { $0.ridInstant <= instant }) {
                        if future.cancelled { continue }
                        let template = set.overrides[future.index].item.start ?? set.start
                        produced += 1
                        return Self.makeOccurrence(
                            timeline: timeline, seriesStart: set.start,
                            recurrenceWall: wall, startWall: wall + future.deltaWall,
                            template: template.isDateOnly == set.start.isDateOnly ? template : set.start,
                            length: future.length, endReference: future.endReference, source: .override(future.index))
                    }
                }
                produced += 1
                return Self.makeOccurrence(
                    timeline: timeline, seriesStart: set.start,
                    recurrenceWall: wall, startWall: wall, template: set.start, length: periodLength ?? set.length,
                    endReference: set.endReference, source: .master)
            }
        }

        /// The occurrence a single detached item stands for, where it now is.
        func overrideOccurrence(_ index: Int, recurrenceWall: Int, timeline: Timeline) -> Occurrence? {
            let item = set.overrides[index]
            guard let start = item.item.start ?? item.item.recurrenceID else { return nil }
            let (length, endReference) = timeline.length(start: start, extent: item.extent)
            return Self.makeOccurrence(
                timeline: timeline, seriesStart: set.start,
                recurrenceWall: recurrenceWall, startWall: start.wallSecondsSinceEpoch, template: start, length: length,
                endReference: endReference, source: .override(index))
        }

        // Static, so that calling it from `next()` does not copy the whole iterator (a
        // non-mutating method on `inout self` loads a copy: one per occurrence, measured).
        private static func makeOccurrence(
            timeline: Timeline, seriesStart: CalendarDateTime,
            recurrenceWall: Int, startWall: Int, template: CalendarDateTime, length: RecurrenceSet.Length,
            endReference: TimeReference, source: Occurrence.Source
        ) -> Occurrence {
            let reference: TimeReference = template.isDateOnly ? .floating : template.reference
            let startInstant = timeline.instant(startWall, reference)
            // A wall time in a DST gap is shown as the instant it became (RFC 5545 §3.3.5).
            let shownWall = template.isDateOnly ? startWall : timeline.wall(startInstant, reference)
            let startValue = template.withWallSeconds(shownWall)
            let endValue: CalendarDateTime
            let endInstant: Int
            switch length {
            case .days(let days):
                let endWall = startWall + days * 86_400
                endInstant = timeline.instant(endWall, reference)
                endValue = template.withWallSeconds(template.isDateOnly ? endWall : timeline.wall(endInstant, reference))
            case .seconds(let seconds):
                endInstant = startInstant + seconds
                let endAnchor: TimeReference = template.isDateOnly ? .floating : endReference
                endValue = CalendarDateTime(date: template.date, time: template.time, reference: endAnchor)
                    .withWallSeconds(timeline.wall(endInstant, endAnchor))
            }
            return Occurrence(
                recurrenceID: seriesStart.withWallSeconds(recurrenceWall), start: startValue, end: endValue,
                startInstant: startInstant, endInstant: endInstant, source: source)
        }

        private mutating func noteStops() {
            for (i, engine) in engines.enumerated() where engine.stop == .noFurtherInstance && !warnedStops.contains(i) {
                warnedStops.insert(i)
                warnings.append(
                    "RRULE \(set.rules[i].rfc5545Text) can produce no further instance (400 years of the calendar checked); expansion stopped"
                )
            }
        }
    }
}
