import CalendarModel
import Foundation

/// One unit of a batch: what is read as a whole and, in lenient mode, skipped as a whole when
/// it cannot be read. A file, standard input, or a vdir collection (a folder holding one .ics
/// file per item, as vdirsyncer and khal keep calendars).
public struct BatchInput: Hashable, Sendable {
    /// Where the unit's bytes come from.
    public enum Kind: Hashable, Sendable {
        case file(String)
        case standardInput
        /// A vdir collection: its item files, sorted, and the metadata files' contents.
        case collection(directory: String, items: [String], title: String?, color: String?)
        /// A CalDAV URL (userinfo kept here for credentials; `name` never shows it).
        case remote(String)
    }

    /// The unit's name in diagnostics and reports (the path as the user would recognize it).
    public var name: String
    /// Where the bytes come from.
    public var kind: Kind
    /// Bytes to read, when known in advance (progress estimates).
    public var byteCount: Int

    /// A unit named `name` for diagnostics.
    public init(name: String, kind: Kind, byteCount: Int = 0) {
        self.name = name
        self.kind = kind
        self.byteCount = byteCount
    }

    /// The name a calendar from this unit gets when it has no title of its own: the file's
    /// name without its extension.
    public var baseName: String {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard case .file = kind, let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last == "-" ? "stdin" : last }
        return String(last[..<dot])
    }
}

/// Turns the paths a user gave into batch units: files as they are, directories walked
/// recursively (in sorted order, so runs are repeatable), vdir collections recognized by
/// their `displayname` or `color` metadata files.
public struct BatchInputExpander {
    /// The formats whose extensions select files in directories.
    public let registry: FormatRegistry
    /// With an explicit input format every file in a directory is read; without one, only
    /// files whose extension names a registered format.
    public let explicitFormat: String?

    /// An expander over `registry`; with `explicitFormat` every file in a directory is taken.
    public init(registry: FormatRegistry, explicitFormat: String? = nil) {
        self.registry = registry
        self.explicitFormat = explicitFormat
    }

    /// What `expand` found besides the units: files left out because no format claims them.
    public struct Expansion: Sendable {
        /// The units, in command-line order, directories expanded in sorted order.
        public var inputs: [BatchInput] = []
        /// Files in directories that no registered format claims.
        public var skippedFiles: [String] = []
    }

    /// The units for `paths`; a path that does not exist is an error naming it.
    public func expand(_ paths: [String]) throws -> Expansion {
        var result = Expansion()
        for path in paths {
            if path == "-" {
                result.inputs.append(BatchInput(name: "-", kind: .standardInput))
                continue
            }
            if CalDAVOptions.isURL(path) {
                result.inputs.append(BatchInput(name: path.redactedLocation, kind: .remote(path)))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CalendarError(.inputMissing, file: path, "no such file or directory")
            }
            if isDirectory.boolValue {
                try walk(directory: path, into: &result)
            } else {
                result.inputs.append(BatchInput(name: path, kind: .file(path), byteCount: Self.size(path)))
            }
        }
        return result
    }

    /// The metadata files of a vdir collection (vdirsyncer's storage format).
    static let vdirMetadata = ["displayname", "color"]

    private func walk(directory: String, into result: inout Expansion) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw CalendarError(.io, file: directory, "cannot list directory")
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        // Hidden entries are skipped: they include calport's own temporary files and
        // vdirsyncer's status folders.
        let visible = names.filter { !$0.hasPrefix(".") }
        var files: [String] = []
        // Entries in name order, files and folders interleaved, so the order is the sorted order
        // of full paths: what `find | sort` shows.
        var entries: [(path: String, isFolder: Bool)] = []
        for name in visible {
            let path = base + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            entries.append((path, isDirectory.boolValue))
            if !isDirectory.boolValue { files.append(path) }
        }
        let isCollection = visible.contains { Self.vdirMetadata.contains($0) } && files.contains { $0.lowercased().hasSuffix(".ics") }
        if isCollection {
            let items = files.filter { $0.lowercased().hasSuffix(".ics") }
            result.inputs.append(BatchInput(
                name: base, kind: .collection(directory: base, items: items, title: Self.metadata(base + "/displayname"),
                                              color: Self.metadata(base + "/color")),
                byteCount: items.reduce(0) { $0 + Self.size($1) }))
            result.skippedFiles += files.filter { !$0.lowercased().hasSuffix(".ics") && !Self.vdirMetadata.contains(String($0.split(separator: "/").last!)) }
            for entry in entries where entry.isFolder { try walk(directory: entry.path, into: &result) }
            return
        }
        if pagedFormat(of: files) != nil {
            // A folder of pages of one calendar (EWS FindItem pages): one unit, like a vdir.
            result.inputs.append(
                BatchInput(
                    name: base, kind: .collection(directory: base, items: files, title: nil, color: nil),
                    byteCount: files.reduce(0) { $0 + Self.size($1) }))
            for entry in entries where entry.isFolder { try walk(directory: entry.path, into: &result) }
            return
        }
        for entry in entries {
            if entry.isFolder {
                try walk(directory: entry.path, into: &result)
            } else if explicitFormat != nil || Converter.fileExtension(entry.path).flatMap({ registry.format(forExtension: $0) }) != nil {
                result.inputs.append(BatchInput(name: entry.path, kind: .file(entry.path), byteCount: Self.size(entry.path)))
            } else {
                result.skippedFiles.append(entry.path)
            }
        }
    }

    /// The format of a folder's files when they are all in one format whose folders are one
    /// calendar (`folderIsOneCalendar`): named by `-f`, by extension, else by their first bytes.
    private func pagedFormat(of files: [String]) -> (any CalendarFormat)? {
        guard !files.isEmpty else { return nil }
        var found: (any CalendarFormat)?
        for file in files {
            var format =
                explicitFormat.flatMap { registry.format(id: $0) }
                ?? Converter.fileExtension(file).flatMap { registry.format(forExtension: $0) }
            if format == nil, let handle = FileHandle(forReadingAtPath: file) {
                format = registry.format(sniffing: [UInt8](handle.readData(ofLength: 4096)))
                try? handle.close()
            }
            guard let format, format.folderIsOneCalendar, found == nil || found?.id == format.id else { return nil }
            found = format
        }
        return found
    }

    /// A vdir metadata file's first line, trimmed.
    private static func metadata(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces)
        return text?.isEmpty == false ? text : nil
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
