import CalendarModel
import CalDAVClient
import Foundation

/// How a run talks to CalDAV servers: the options of a URL input or output, as a value.
public struct CalDAVOptions: Sendable {
    /// What to do with an item whose UID the server already holds in another version.
    public enum ConflictPolicy: String, CaseIterable, Sendable {
        /// Keep the newer by SEQUENCE, then LAST-MODIFIED (as `--merge`); a tie keeps the server's.
        case newer
        /// Leave the server's copy.
        case skip
        /// Replace the server's copy.
        case overwrite
    }

    /// Retries of a failing request (`--retries N`).
    public var retries = 5
    /// The first backoff delay in seconds (doubling per retry).
    public var retryDelay = 0.5
    /// Seconds one request may take.
    public var timeout = 60.0
    /// Requests in flight at once (`-j N`).
    public var connections = 4
    /// `--on-conflict`.
    public var onConflict = ConflictPolicy.newer
    /// `--calendar NAME`: everything goes into this one calendar.
    public var calendarName: String?
    /// `--send-invitations`: leave SCHEDULE-AGENT alone so a scheduling server mails attendees.
    public var sendInvitations = false
    /// `--verify`: read back what was pushed and compare item by item.
    public var verify = false
    /// `--state FILE`: sync tokens and entity tags of a pull, kept between runs.
    public var statePath: String?
    /// `--journal FILE`: what a push has done, so a rerun does not send it again.
    public var journalPath: String?
    /// Where credentials come from (CALPORT_USERNAME, CALPORT_PASSWORD, CALPORT_TOKEN, HOME).
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Resources per calendar-multiget.
    public var multigetBatch = 100

    /// The defaults: 5 retries, 4 connections, conflicts decided by `newer`.
    public init() {}

    /// Whether a location names a CalDAV server rather than a file.
    public static func isURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A client for `url` with these options; credentials resolved, a warning logged for
    /// credentials in the URL.
    func makeClient(for url: URL, log: DiagnosticLog) -> CalDAVClient {
        let credentials = CalDAVCredentials.resolve(url: url, environment: environment) { message in
            log.warning(file: url.redacted, message)
        }
        return CalDAVClient(
            credentials: credentials, retry: RetryPolicy(retries: retries, baseDelay: retryDelay, timeout: timeout),
            connections: connections)
    }

    /// The URL a location names (userinfo kept for credentials; never shown).
    static func url(_ location: String) throws -> URL {
        guard var url = URL(string: location), url.host != nil else {
            throw CalendarError(.usage, file: location.redactedLocation, "not a valid URL")
        }
        if !url.path.hasSuffix("/") && !url.path.lowercased().hasSuffix(".ics") { url = url.appendingPathComponent("") }
        return url
    }
}

extension String {
    /// A location as it may be shown: a URL without its userinfo.
    var redactedLocation: String {
        guard CalDAVOptions.isURL(self), let url = URL(string: self) else { return self }
        return url.redacted
    }
}

extension CalDAVError {
    /// The failure as the CLI reports it: 69, 75, 77 or 65.
    var calendarError: CalendarError {
        let kind: CalendarError.Kind
        switch self.kind {
        case .unreachable: kind = .serverUnreachable
        case .exhaustedRetries: kind = .serverFailed
        case .authentication: kind = .authentication
        case .protocolError: kind = .data
        }
        return CalendarError(kind, file: url, message)
    }
}
