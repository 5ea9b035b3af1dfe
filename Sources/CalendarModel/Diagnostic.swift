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
/// Bounded: a hostile input can repeat one fault a million times, so only the first
/// `keptPerKind` diagnostics of each kind (`Diagnostic.kind`) are kept and passed to `onReport`;
/// the rest are counted (`suppressed`), so memory and output stay small while counts stay true.
///
/// Safe to use from several threads: a conversion may read on one thread while it writes on
/// another, and both report here.
public final class DiagnosticLog: @unchecked Sendable {
    /// How many diagnostics of one kind a log keeps unless told otherwise.
    public static let defaultKeptPerKind = 100

    /// Diagnostics of one kind that were counted but not kept.
    public struct Suppressed: Hashable, Sendable {
        /// The first diagnostic of the kind, which was kept.
        public var example: Diagnostic
        /// How many more of the kind were reported and not kept (losses: items, as `lossCount`).
        public var count: Int
    }

    private struct State {
        var kept: [Diagnostic] = []
        var perKind: [String: Int] = [:]
        var suppressed: [String: Suppressed] = [:]
        var suppressedOrder: [String] = []
        var warningCount = 0
    }

    private let storage = Mutex<State>(State())
    private let keptPerKind: Int?
    /// Called on every diagnostic that is kept, as it is reported (e.g. to print it at once).
    public var onReport: ((Diagnostic) -> Void)?

    /// - Parameter keptPerKind: how many diagnostics of one kind to keep; nil keeps every one
    ///   (for a log whose entries are replayed into another one, which bounds them).
    public init(keptPerKind: Int? = DiagnosticLog.defaultKeptPerKind, onReport: ((Diagnostic) -> Void)? = nil) {
        self.keptPerKind = keptPerKind
        self.onReport = onReport
    }

    public func report(_ diagnostic: Diagnostic) {
        // Printing happens under the lock too, so lines from two threads never interleave.
        storage.withLock { state in
            if diagnostic.severity == .warning { state.warningCount += 1 }
            if let limit = keptPerKind {
                let kind = diagnostic.kind
                let seen = state.perKind[kind, default: 0]
                state.perKind[kind] = seen + 1
                if seen >= limit {
                    let count = diagnostic.lostField == nil ? 1 : diagnostic.lossCount
                    if state.suppressed[kind] == nil {
                        state.suppressedOrder.append(kind)
                        let first = state.kept.first { $0.kind == kind } ?? diagnostic
                        state.suppressed[kind] = Suppressed(example: first, count: 0)
                    }
                    state.suppressed[kind]!.count += count
                    return
                }
            }
            state.kept.append(diagnostic)
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

    /// The diagnostics kept, in the order they were reported.
    public var diagnostics: [Diagnostic] { storage.withLock { $0.kept } }
    /// Every warning reported, kept or not.
    public var warningCount: Int { storage.withLock { $0.warningCount } }
    /// The kinds of which some diagnostics were only counted, in the order they first overflowed.
    public var suppressed: [Suppressed] { storage.withLock { s in s.suppressedOrder.map { s.suppressed[$0]! } } }

    /// One line for a kind that was only counted: how many more there were, and the first.
    public static func suppressionNote(_ s: Suppressed) -> String {
        "\(s.count) more like this were not listed: \(s.example.message)"
    }

    /// The notes of every kind that was only counted, as diagnostics to print at the end of a run.
    public var suppressionNotes: [Diagnostic] {
        suppressed.map { s in
            Diagnostic(severity: s.example.severity, file: s.example.file, message: Self.suppressionNote(s))
        }
    }
}

extension Diagnostic {
    /// What makes two diagnostics the same kind of fault: severity, lost field and the message
    /// with its numbers and quoted text left out ("unknown member 'x1'" and "'x2'" are one kind).
    public var kind: String {
        var shape: [UInt8] = Array(severity.rawValue.utf8)
        shape.append(0x1F)
        shape.append(contentsOf: (lostField ?? "").utf8)
        shape.append(0x1F)
        var quote: UInt8?
        var lastWasDigit = false
        for b in message.utf8 {
            if let q = quote {
                if b == q { quote = nil }
                continue
            }
            // An apostrophe inside a word ("can't") is not a quote.
            if b == 0x22 || b == 0x60 || (b == 0x27 && (shape.last.map { !Self.isWordByte($0) } ?? true)) {
                quote = b
                shape.append(0x2A)
                continue
            }
            let digit = b >= 0x30 && b <= 0x39
            if digit {
                if !lastWasDigit { shape.append(0x23) }
            } else {
                shape.append(b)
            }
            lastWasDigit = digit
        }
        return String(decoding: shape, as: UTF8.self)
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b >= 0x80
    }
}
