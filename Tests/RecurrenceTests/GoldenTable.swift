import Foundation

/// Reads a libical-style recurrence table (`icalrecur_test.txt`): blocks of `NAME:value` lines
/// separated by blank lines, `#` lines naming the case.
struct GoldenTable {
    struct Entry {
        var title: String
        var line: Int
        var fields: [String: String]
    }

    var entries: [Entry] = []

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        var current: Entry?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                if let entry = current, !entry.fields.isEmpty { entries.append(entry) }
                current = nil
                continue
            }
            if current == nil { current = Entry(title: "", line: index + 1, fields: [:]) }
            if line.hasPrefix("#") {
                if current!.title.isEmpty { current!.title = String(line.dropFirst(2)) }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            current!.fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        if let entry = current, !entry.fields.isEmpty { entries.append(entry) }
    }
}

/// Where the fixtures live.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}
