import Synchronization

/// A warning or error with the place in the input it concerns.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case warning, error
    }

    public var severity: Severity
    /// The input's name as the user gave it ("-" for standard input).
    public var file: String
    /// 1-based line (or CSV row); nil when the place is not a line.
    public var line: Int?
    /// A place that is not a line: an XML path, a JSON pointer, a CSV column.
    public var location: String?
    public var message: String
    /// For a loss: the field the target format could not hold (e.g. "attendees.role"), so
    /// reports can name every loss rather than hide it among warnings.
    public var lostField: String?
    /// For a loss: how many items lost the field. A writer that loses a field on many items
    /// reports it once, counted, rather than once per item.
    public var lossCount: Int
    /// For a loss counted over many items: the lines (or rows) of the first few.
    public var lossLines: [Int]

    public init(
        severity: Severity, file: String, line: Int? = nil, location: String? = nil, message: String, lostField: String? = nil,
        lossCount: Int = 1, lossLines: [Int] = []
    ) {
        self.severity = severity
        self.file = file
        self.line = line
        self.location = location
        self.message = message
        self.lostField = lostField
        self.lossCount = lossCount
        self.lossLines = lossLines
    }

    /// `file:line: severity: message`, the shape compilers use, so editors can jump to it.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let location { place += ":\(location)" }
        return "\(place): \(severity.rawValue): \(message)"
    }
}

/// A failure that stops reading or writing, with its place.
public struct CalendarError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which exit status the failure deserves (sysexits.h, as the CLI reports them).
    public enum Kind: Hashable, Sendable {
        case data, inputMissing, cannotCreateOutput, io, usage
        /// Nothing answered at a server's address after every retry (69).
        case serverUnreachable
        /// A server kept failing after every retry; the run can be resumed (75).
        case serverFailed
        /// A server refused the credentials, or none were given (77).
        case authentication
    }

    public var kind: Kind
    public var diagnostic: Diagnostic

    public init(_ kind: Kind, file: String, line: Int? = nil, location: String? = nil, _ message: String) {
        self.kind = kind
        self.diagnostic = Diagnostic(severity: .error, file: file, line: line, location: location, message: message)
    }

    public var description: String { diagnostic.description }
}

/// Collects the warnings of a run; readers report lenient repairs here, so nothing is
/// repaired silently.
///
/// Safe to use from several threads: a conversion may read on one thread while it writes on
/// another, and both report here.
public final class DiagnosticLog: @unchecked Sendable {
    private let storage = Mutex<[Diagnostic]>([])
    /// Called on every diagnostic as it is reported (e.g. to print it at once).
    public var onReport: ((Diagnostic) -> Void)?

    public init(onReport: ((Diagnostic) -> Void)? = nil) {
        self.onReport = onReport
    }

    public func report(_ diagnostic: Diagnostic) {
        // Printing happens under the lock too, so lines from two threads never interleave.
        storage.withLock {
            $0.append(diagnostic)
            onReport?(diagnostic)
        }
    }

    public func warning(file: String, line: Int? = nil, location: String? = nil, _ message: String) {
        report(Diagnostic(severity: .warning, file: file, line: line, location: location, message: message))
    }

    /// Reports that a writer had to drop `field` because its format cannot hold it: a warning
    /// that reports collect under "losses".
    public func loss(file: String, line: Int? = nil, field: String, _ message: String) {
        report(Diagnostic(severity: .warning, file: file, line: line, message: message, lostField: field))
    }

    /// Reports that a writer dropped `field` from `count` items, the first few at `lines`: one
    /// warning for them all, which reports count as `count` losses.
    public func loss(file: String, field: String, count: Int, lines: [Int], _ message: String) {
        report(Diagnostic(
            severity: .warning, file: file, line: lines.first, message: message, lostField: field, lossCount: count, lossLines: lines))
    }

    public var diagnostics: [Diagnostic] { storage.withLock { $0 } }
    public var warningCount: Int { storage.withLock { $0.reduce(0) { $0 + ($1.severity == .warning ? 1 : 0) } } }
}
