import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on standard error: items, bytes, rate and time left. It draws only
/// when standard error is a terminal, so pipelines and logs see nothing, and redraws at most
/// ten times a second so it costs nothing measurable.
public final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private let totalBytes: Int
    private let knownTotal: Bool
    private var bytes = 0
    private var items = 0
    private var phase: String
    private var start = ProcessInfo.processInfo.systemUptime
    private var lastDraw = 0.0
    private var drawn = false
    private let output: (String) -> Void

    /// A meter for `totalBytes` of input; nil when standard error is not a terminal.
    public static func forTerminal(totalBytes: Int) -> ProgressMeter? {
        guard isatty(2) != 0 else { return nil }
        return ProgressMeter(totalBytes: totalBytes) { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// A meter that draws through `output` (tests).
    public init(totalBytes: Int, output: @escaping (String) -> Void) {
        self.totalBytes = max(totalBytes, 1)
        self.knownTotal = totalBytes > 0
        self.phase = "converting"
        self.output = output
    }

    /// Starts a new pass over the inputs ("indexing", "converting"): counts start again.
    public func begin(phase: String) {
        lock.lock()
        self.phase = phase
        bytes = 0
        items = 0
        start = ProcessInfo.processInfo.systemUptime
        lock.unlock()
    }

    /// Counts items and bytes done since the last call.
    public func advance(items: Int, bytes: Int) {
        lock.lock()
        self.items += items
        self.bytes += bytes
        let now = ProcessInfo.processInfo.systemUptime
        let due = now - lastDraw >= 0.1
        if due { lastDraw = now }
        let line = due ? render(now: now) : nil
        lock.unlock()
        if let line { output(line) }
    }

    /// Clears the bar so that what follows starts on a clean line.
    public func finish() {
        lock.lock()
        let wasDrawn = drawn
        drawn = false
        lock.unlock()
        if wasDrawn { output("\r\u{1B}[K") }
    }

    private func render(now: Double) -> String {
        drawn = true
        let elapsed = max(now - start, 0.001)
        guard knownTotal else {
            // Standard input: no size, so no bar and no time left, just what was done.
            return "\r\u{1B}[K\(phase) \(items) items  \(Self.megabytes(bytes))  \(Self.megabytes(Int(Double(bytes) / elapsed)))/s"
        }
        let fraction = min(Double(bytes) / Double(totalBytes), 1)
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let rate = Double(bytes) / elapsed
        let eta = rate > 0 ? Double(totalBytes - bytes) / rate : 0
        return "\r\u{1B}[K\(phase) \(bar) \(Int(fraction * 100))%  \(items) items  \(Self.megabytes(bytes))/\(Self.megabytes(totalBytes))  "
            + "\(Self.megabytes(Int(rate)))/s  ETA \(Self.duration(eta))"
    }

    static func megabytes(_ n: Int) -> String {
        String(format: "%.1f MB", Double(n) / 1_000_000)
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
