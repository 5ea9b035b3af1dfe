import CalendarModel
import Foundation

/// What a push has written, one line per item (`collection TAB uid TAB fingerprint`), appended
/// as each PUT succeeds: a run that was killed or ran out of retries is resumed by the same
/// command, which sends nothing for what the journal holds in the same version. Removed when
/// a run ends with every item done. Without it a rerun still creates no duplicate (the UID
/// index), but asks the server about every item again.
final class CalDAVJournal: @unchecked Sendable {
    let path: String
    private var done: Set<String> = []
    private let lock = NSLock()
    private var handle: FileHandle?

    /// The journal at `path` (missing is empty); in a dry run nothing is written.
    init(path: String, writable: Bool) throws {
        self.path = path
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") { done.insert(String(line)) }
        }
        guard writable else { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CalendarError(.cannotCreateOutput, file: path, "cannot create the push journal")
            }
        }
        handle = FileHandle(forWritingAtPath: path)
        handle?.seekToEndOfFile()
    }

    /// Whether an earlier run pushed this version of the item.
    func contains(collection: String, uid: String, fingerprint: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return done.contains(Self.line(collection, uid, fingerprint))
    }

    /// Notes a pushed (or found equal) item.
    func record(collection: String, uid: String, fingerprint: String) {
        let line = Self.line(collection, uid, fingerprint)
        lock.lock()
        defer { lock.unlock() }
        guard done.insert(line).inserted else { return }
        handle?.write(Data((line + "\n").utf8))
    }

    /// Removes the journal: the push is complete.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        try? handle?.close()
        handle = nil
        unlink(path)
    }

    private static func line(_ collection: String, _ uid: String, _ fingerprint: String) -> String {
        // Tabs and newlines cannot be in a path; in a UID they would break the line.
        "\(collection)\t\(uid.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " "))\t\(fingerprint)"
    }

    /// The default place: beside `--state`, else under `$XDG_STATE_HOME/calport/` (or
    /// `~/.local/state/calport/`), named after the target and the inputs.
    static func defaultPath(options: CalDAVOptions, target: String, inputs: [String]) -> String {
        if let explicit = options.journalPath { return explicit }
        if let state = options.statePath { return state + ".journal" }
        let base = options.environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((options.environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        let inputsKey = inputs.map { CalDAVOptions.isURL($0) ? $0.redactedLocation : (($0 as NSString).standardizingPath) }
        let key = ICSText.stableHash(target.redactedLocation + "\n" + inputsKey.joined(separator: "\n"))
        return base + "/calport/push-\(key).journal"
    }
}

#if canImport(Glibc)
    import Glibc
#endif
