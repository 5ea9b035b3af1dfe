import CalDAVClient
import CalendarModel
import Foundation

/// `calport inspect URL`: the calendars a CalDAV URL leads to, with what the server says of
/// each (name, type, colour, item count, writability, sync token).
public struct CalDAVInspector: Sendable {
    /// How to talk to the server.
    public let options: CalDAVOptions

    /// An inspector with these options.
    public init(options: CalDAVOptions) {
        self.options = options
    }

    /// The listing, one block per calendar, as `calport inspect` prints it.
    public func listing(location: String, log: DiagnosticLog) throws -> String {
        let url = try CalDAVOptions.url(location)
        let client = options.makeClient(for: url, log: log)
        do {
            var text = ""
            for (i, c) in try client.discover(url).calendars.enumerated() {
                let kind: CalendarModel.Calendar.Kind = c.isSubscription ? .subscription : .calDAV
                let items = try client.resources(in: c.url).count
                var lines = ["\(i + 1). \(c.displayName ?? c.url.lastPathComponent)"]
                lines.append("   type: \(kind.rawValue) (\(CalendarOverview.typeName(kind)))")
                lines.append("   url: \(c.url.redacted)")
                lines.append("   color: \(c.color ?? "none")")
                lines.append("   allows modifications: \(c.isReadOnly ? "no" : "yes")")
                lines.append("   items: \(items)")
                if !c.components.isEmpty { lines.append("   components: \(c.components.joined(separator: ", "))") }
                lines.append("   sync token: \(c.syncToken ?? "none (changes found by comparing ETags)")")
                text += lines.joined(separator: "\n") + "\n"
            }
            return text
        } catch let error as CalDAVError {
            throw error.calendarError
        }
    }
}
