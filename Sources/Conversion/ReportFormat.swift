import CalendarModel

/// What `--report FILE` writes: calport's JSON, or an HTML page a person opens.
public enum ReportFormat: String, CaseIterable, Sendable {
    case json, html

    /// The format a report path's extension names (`.json`; `.html` or `.htm`), else nil.
    public static func implied(by path: String) -> ReportFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": return .json
        case "html", "htm": return .html
        default: return nil
        }
    }

    /// The format for `path`: its extension's, else the one asked for, else JSON. A path whose
    /// extension says one format while `explicit` says the other is a usage error.
    public static func resolve(path: String, explicit: ReportFormat?) throws -> ReportFormat {
        let implied = implied(by: path)
        if let implied, let explicit, implied != explicit {
            throw CalendarError(.usage, file: path, "the extension says \(implied.rawValue) but --report-format says \(explicit.rawValue)")
        }
        return implied ?? explicit ?? .json
    }
}
