import Conversion
import Foundation

/// What `convert --dry-run` prints on standard output: each file that would be written, its
/// calendars with their counts, and what merging would drop.
struct DryRunPlan {
    let summary: ConversionSummary

    func print() {
        var lines: [String] = ["dry run: nothing written"]
        let calendarsByOutput = Dictionary(
            (summary.report?.outputs ?? []).map { ($0.path, $0.calendars) }, uniquingKeysWith: { a, _ in a })
        for file in summary.outputs {
            lines.append("would write \(file.path) (\(file.bytes) bytes)")
            for c in calendarsByOutput[file.path] ?? [] {
                lines.append("  calendar \(c.title ?? "(untitled)"): \(c.events) events, \(c.reminders) reminders, \(c.timeZones) time zones, \(c.otherComponents) other")
            }
        }
        if summary.outputs.isEmpty, let outputs = summary.report?.outputs {
            // Standard output: no file, but the same counts.
            for o in outputs {
                for c in o.calendars {
                    lines.append("would write to \(o.path): calendar \(c.title ?? "(untitled)"): \(c.events) events, \(c.reminders) reminders")
                }
            }
        }
        if let merge = summary.merge {
            lines.append("merge: \(merge.versionsRead) versions read, \(merge.distinctItems) items kept, \(merge.superseded) older versions dropped, \(merge.identicalCopies) identical copies dropped, \(merge.conflicts.count) conflicts")
            for c in merge.conflicts {
                lines.append("  conflict UID \(c.uid)\(c.recurrenceID.map { " RECURRENCE-ID \($0)" } ?? ""): kept \(c.kept), dropped \(c.dropped)")
            }
        }
        Swift.print(lines.joined(separator: "\n"))
    }
}
