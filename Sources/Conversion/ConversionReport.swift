import CalendarModel
import Foundation

/// What `--report FILE` writes: every input and whether it was converted, every output with
/// its calendars and their counts by type, the warnings with their places, every field a
/// target format could not hold, and what merging did. Stable keys (documented in README).
public struct ConversionReport: Codable, Sendable, Equatable {
    /// One input and what became of it.
    public struct Input: Codable, Sendable, Equatable {
        /// The input as the user named it.
        public var file: String
        /// "converted" or "failed".
        public var status: String
        /// Why it failed, as `file:line: error: message`.
        public var error: String?
    }

    /// Items of one calendar in one output, by type.
    public struct CalendarCounts: Codable, Sendable, Equatable {
        /// The calendar's title, if it has one.
        public var title: String?
        /// EventKit's calendar type: local, calDAV, exchange, subscription or birthday.
        public var kind = "local"
        /// Whether the calendar does not allow modifications (birthday and subscription
        /// calendars, read-only shares).
        public var readOnly = false
        /// VEVENTs.
        public var events = 0
        /// VTODOs.
        public var reminders = 0
        /// VTIMEZONE definitions.
        public var timeZones = 0
        /// Components kept as they were (VJOURNAL, VFREEBUSY, …).
        public var otherComponents = 0
        /// Events and reminders that are one occurrence of a series (they carry a
        /// RECURRENCE-ID: detached occurrences, or each occurrence `--expand` wrote).
        public var occurrences = 0
        /// Events by the month they start in, counted as they stream past.
        public var eventsByMonth = MonthlyCounts()
    }

    /// One output file (or vdir folder) and the calendars in it.
    public struct Output: Codable, Sendable, Equatable {
        /// The file (or, for a vdir, the folder or item file) written.
        public var path: String
        /// Its calendars in order.
        public var calendars: [CalendarCounts] = []
    }

    /// A warning or error with its place.
    public struct Message: Codable, Sendable, Equatable {
        /// The file the message is about.
        public var file: String
        /// Its 1-based line, when the place is a line.
        public var line: Int?
        /// A place that is not a line (XML path, CSV column).
        public var location: String?
        /// "warning" or "error".
        public var severity: String
        /// What happened.
        public var message: String
    }

    /// One field a target format could not hold: how often, and where the first few were.
    public struct Loss: Codable, Sendable, Equatable {
        /// The model field the target could not hold (e.g. "recurrenceRules").
        public var field: String
        /// How many times it was dropped.
        public var count: Int
        /// `file:line` of the first 20 drops.
        public var places: [String]
        /// The first drop's message.
        public var message: String
    }

    /// The merge's outcome.
    public struct Merge: Codable, Sendable, Equatable {
        /// Versions with a UID over all inputs.
        public var versionsRead: Int
        /// Distinct (UID, RECURRENCE-ID) pairs written.
        public var distinctItems: Int
        /// Older versions dropped.
        public var superseded: Int
        /// Exact copies dropped.
        public var identicalCopies: Int
        /// Equally new but different versions, and which was kept.
        public var conflicts: [Choice]
        /// The first 1000 superseded versions.
        public var supersededExamples: [Choice]
    }

    /// One choice between two versions.
    public struct Choice: Codable, Sendable, Equatable {
        /// The item's UID.
        public var uid: String
        /// Its RECURRENCE-ID as iCalendar text, for a detached occurrence.
        public var recurrenceID: String?
        /// `file:line` of the version written.
        public var kept: String
        /// `file:line` of the version dropped.
        public var dropped: String
        /// Why.
        public var reason: String
    }

    /// Totals over all outputs.
    public struct Totals: Codable, Sendable, Equatable {
        /// Calendars written.
        public var calendars = 0
        /// VEVENTs written.
        public var events = 0
        /// VTODOs written.
        public var reminders = 0
        /// VTIMEZONEs written.
        public var timeZones = 0
        /// Other components written.
        public var otherComponents = 0
        /// Occurrences of a series written (items with a RECURRENCE-ID).
        public var occurrences = 0
    }

    /// The command, when and how long, and which calport.
    public var run: Run?
    /// Whether this was a dry run (nothing written).
    public var dryRun: Bool
    /// The output format's id.
    public var outputFormat: String
    /// Every input unit and what became of it.
    public var inputs: [Input] = []
    /// Files in input directories that no format claims.
    public var skippedFiles: [String] = []
    /// Every output and its calendars.
    public var outputs: [Output] = []
    /// Counts over all outputs.
    public var totals = Totals()
    /// Warnings and errors with their places (losses apart).
    public var warnings: [Message] = []
    /// Every field a target format could not hold.
    public var losses: [Loss] = []
    /// What merging did, when merging.
    public var merge: Merge?
    /// Live CalDAV (ConversionReport+CalDAV.swift): per server calendar, what a push created,
    /// updated, left unchanged, skipped (and which side won each conflict) or failed, or what a
    /// pull fetched and deleted.
    public var calDAV: Server?

    /// An empty report for a run.
    public init(dryRun: Bool, outputFormat: String) {
        self.dryRun = dryRun
        self.outputFormat = outputFormat
    }

    /// Counts an element written to `output`.
    mutating func count(_ element: CalendarStreamElement, output: String) {
        if outputs.last?.path != output {
            if let index = outputs.firstIndex(where: { $0.path == output }) {
                let moved = outputs.remove(at: index)
                outputs.append(moved)
            } else {
                outputs.append(Output(path: output))
            }
        }
        let o = outputs.count - 1
        switch element {
        case .beginCalendar(let c):
            outputs[o].calendars.append(CalendarCounts(title: c.title, kind: c.kind.rawValue, readOnly: !c.allowsContentModifications))
            totals.calendars += 1
            return
        case .endCalendar:
            return
        case .entry(let entry, _):
            if outputs[o].calendars.isEmpty {
                outputs[o].calendars.append(CalendarCounts(title: nil))
                totals.calendars += 1
            }
            let c = outputs[o].calendars.count - 1
            switch entry {
            case .event(let event):
                outputs[o].calendars[c].events += 1
                totals.events += 1
                if let start = event.item.start {
                    outputs[o].calendars[c].eventsByMonth.add(year: start.date.year, month: start.date.month)
                }
                if event.item.recurrenceID != nil {
                    outputs[o].calendars[c].occurrences += 1
                    totals.occurrences += 1
                }
            case .reminder(let reminder):
                outputs[o].calendars[c].reminders += 1
                totals.reminders += 1
                if reminder.item.recurrenceID != nil {
                    outputs[o].calendars[c].occurrences += 1
                    totals.occurrences += 1
                }
            case .timeZone:
                outputs[o].calendars[c].timeZones += 1
                totals.timeZones += 1
            case .other:
                outputs[o].calendars[c].otherComponents += 1
                totals.otherComponents += 1
            }
        }
    }

    /// Takes the warnings and losses of a run; `suppressed` are the kinds the log only counted
    /// past its limit (`DiagnosticLog`): their losses are added to the counts, and each kind of
    /// warning gets one message saying how many more there were.
    public mutating func collect(_ diagnostics: [Diagnostic], suppressed: [DiagnosticLog.Suppressed] = []) {
        defer {
            for s in suppressed {
                if let field = s.example.lostField, let i = losses.firstIndex(where: { $0.field == field }) {
                    losses[i].count += s.count
                } else {
                    let d = s.example
                    let note = DiagnosticLog.suppressionNote(s)
                    warnings.append(Message(file: d.file, line: nil, location: nil, severity: d.severity.rawValue, message: note))
                }
            }
        }
        var lossIndex: [String: Int] = [:]
        for d in diagnostics {
            if let field = d.lostField {
                let places = d.lossLines.isEmpty ? [d.line.map { "\(d.file):\($0)" } ?? d.file] : d.lossLines.map { "\(d.file):\($0)" }
                let i: Int
                if let known = lossIndex[field] {
                    i = known
                    losses[i].count += d.lossCount
                } else {
                    i = losses.count
                    lossIndex[field] = i
                    losses.append(Loss(field: field, count: d.lossCount, places: [], message: d.message))
                }
                losses[i].places += places.prefix(max(0, 20 - losses[i].places.count))
            } else {
                warnings.append(
                    Message(file: d.file, line: d.line, location: d.location, severity: d.severity.rawValue, message: d.message))
            }
        }
    }

    mutating func record(_ merge: MergeSummary) {
        func choice(_ c: MergeConflict) -> Choice {
            Choice(uid: c.uid, recurrenceID: c.recurrenceID, kept: c.kept, dropped: c.dropped, reason: c.reason)
        }
        self.merge = Merge(
            versionsRead: merge.versionsRead, distinctItems: merge.distinctItems, superseded: merge.superseded,
            identicalCopies: merge.identicalCopies, conflicts: merge.conflicts.map(choice),
            supersededExamples: merge.supersededExamples.map(choice))
    }

    /// The report in `format`: JSON, or the HTML page a person opens.
    public func data(_ format: ReportFormat) throws -> [UInt8] {
        switch format {
        case .json:
            var data = try jsonData()
            data.append(0x0A)
            return Array(data)
        case .html:
            return Array(HTMLReport(self).render().utf8)
        }
    }

    /// The report as pretty-printed JSON with sorted keys (stable for diffs).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes the report atomically to `path`, in `format`.
    public func write(to path: String, format: ReportFormat = .json) throws {
        let sink = try AtomicFileSink(destination: path)
        do {
            try sink.write(try data(format))
            try sink.commit()
        } catch {
            sink.discard()
            throw error
        }
    }
}
