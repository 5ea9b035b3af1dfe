import CalDAVClient
import CalendarModel
import Foundation

/// A pull into a vdir (one folder per calendar, one .ics file per resource, as vdirsyncer and
/// khal keep them), brought up to date on each run. With `--state FILE` the next run asks
/// only for what changed: RFC 6578 sync-collection from the saved token, or — when the server
/// has no sync token or no longer knows it — a comparison of entity tags; files of resources
/// the server no longer has are deleted. Each file holds the resource as the server stores it.
final class CalDAVVdirSync {
    private let request: ConversionRequest
    private let options: CalDAVOptions
    private let log: DiagnosticLog
    private var report: ConversionReport
    private var summary = ConversionSummary()
    private let started = Date()

    /// What `--state` keeps between runs.
    struct State: Codable {
        var collections: [String: CollectionState] = [:]
    }

    /// One collection's token, folder and resources.
    struct CollectionState: Codable {
        var folder: String
        var syncToken: String?
        /// href (path) → entity tag and file name.
        var items: [String: Item] = [:]
    }

    struct Item: Codable {
        var etag: String?
        var file: String
    }

    init(request: ConversionRequest, log: DiagnosticLog) {
        self.request = request
        self.options = request.calDAV
        self.log = log
        report = ConversionReport(dryRun: request.dryRun, outputFormat: "ics")
        report.calDAV = ConversionReport.Server(direction: "pull", servers: request.inputs)
        report.run = ConversionReport.Run(arguments: request.commandLine, start: started)
    }

    func run() throws -> ConversionSummary {
        guard let directory = request.output, directory != "-" else {
            throw CalendarError(.usage, file: "-", "a vdir output needs -o DIRECTORY")
        }
        var state = State()
        if let path = options.statePath, FileManager.default.fileExists(atPath: path) {
            do {
                state = try JSONDecoder().decode(State.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw CalendarError(.data, file: path, "not a calport state file: \(error)")
            }
        }
        var requests: [String: Int] = [:]
        var retries = 0
        for location in request.inputs {
            guard CalDAVOptions.isURL(location) else {
                throw CalendarError(.usage, file: location, "a vdir pull reads CalDAV URLs only; convert files in a separate run")
            }
            let url = try CalDAVOptions.url(location)
            let client = options.makeClient(for: url, log: log)
            do {
                for collection in try client.discover(url).calendars {
                    try sync(collection, client: client, directory: directory, state: &state)
                }
            } catch let error as CalDAVError {
                throw error.calendarError
            }
            for (method, n) in client.requestCounts.byMethod { requests[method, default: 0] += n }
            retries += client.requestCounts.retries
        }
        report.calDAV?.requests = requests
        report.calDAV?.retries = retries
        if let path = options.statePath, !request.dryRun {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try Self.writeAtomically(Array(try encoder.encode(state)), to: path)
        }
        summary.report = currentReport
        summary.warnings = log.warningCount
        return summary
    }

    /// The report as far as the run got (`Converter` writes it, also when the run fails).
    var currentReport: ConversionReport {
        var r = report
        r.run?.durationSeconds = Date().timeIntervalSince(started)
        r.collect(log.diagnostics, suppressed: log.suppressed)
        return r
    }

    private func sync(_ collection: CalDAVCollection, client: CalDAVClient, directory: String, state: inout State) throws {
        let key = collection.url.redacted
        var known = state.collections[key] ?? CollectionState(folder: uniqueFolder(collection, directory: directory, state: state))
        let folder = directory + "/" + known.folder
        var counts = ConversionReport.ServerCalendar(url: key, title: collection.displayName)
        var changed: [URL] = []
        var removed: [String] = []
        var token = collection.syncToken
        if let previous = known.syncToken, state.collections[key] != nil,
            let changes = try client.changes(in: collection.url, since: previous)
        {
            counts.syncMethod = "sync-collection"
            changed = changes.changed.map(\.url)
            removed = changes.removed.map(\.path)
            token = changes.syncToken
        } else {
            counts.syncMethod = state.collections[key] == nil ? "full" : "etag"
            let listed = try client.resources(in: collection.url)
            let onServer = Set(listed.map(\.url.path))
            changed = listed.filter { known.items[$0.url.path]?.etag == nil || known.items[$0.url.path]?.etag != $0.etag }.map(\.url)
            removed = known.items.keys.filter { !onServer.contains($0) }.sorted()
        }
        if !request.dryRun {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let name = collection.displayName { try Self.writeAtomically(Array((name + "\n").utf8), to: folder + "/displayname") }
            if let color = collection.color { try Self.writeAtomically(Array((color + "\n").utf8), to: folder + "/color") }
        }
        var used = Set(known.items.values.map(\.file))
        var fetches: [Fetch] = []
        let batches = stride(from: 0, to: changed.count, by: options.multigetBatch).map {
            Array(changed[$0..<min($0 + options.multigetBatch, changed.count)])
        }
        var b = 0
        while b < batches.count || !fetches.isEmpty {
            while fetches.count < max(1, options.connections), b < batches.count {
                let urls = batches[b], collectionURL = collection.url
                fetches.append(Fetch { try client.multigetBody(collection: collectionURL, urls) })
                b += 1
            }
            let body = try fetches.removeFirst().value()
            let multistatus = try CalDAVClient.resources(inMultistatus: body, base: collection.url)
            for resource in multistatus {
                guard let data = resource.calendarData else { continue }
                let path = resource.url.path
                let isNew = known.items[path] == nil
                let file = known.items[path]?.file ?? Self.fileName(for: path, used: &used)
                if !request.dryRun { try Self.writeAtomically(Self.crlf(data), to: folder + "/" + file) }
                known.items[path] = Item(etag: resource.etag, file: file)
                counts.pulled += 1
                if counts.examples.filter({ $0.outcome == "pulled" }).count < 20 {
                    let reason = counts.syncMethod == "full" ? "new in the vdir" : isNew ? "new on the server" : "changed on the server"
                    counts.examples.append(
                        ConversionReport.ServerItem(
                            outcome: "pulled", uid: Self.uid(in: data), href: path, place: folder + "/" + file, reason: reason))
                }
                summary.events += 1
            }
        }
        for path in removed {
            guard let item = known.items.removeValue(forKey: path) else { continue }
            if !request.dryRun { unlink(folder + "/" + item.file) }
            counts.deleted += 1
            if counts.examples.filter({ $0.outcome == "deleted" }).count < 20 {
                counts.examples.append(
                    ConversionReport.ServerItem(
                        outcome: "deleted", uid: "", href: path, place: folder + "/" + item.file, reason: "removed on the server"))
            }
        }
        known.syncToken = token
        state.collections[key] = known
        summary.calendars += 1
        report.calDAV?.calendars.append(counts)
        report.outputs.append(
            ConversionReport.Output(
                path: folder,
                calendars: [
                    ConversionReport.CalendarCounts(
                        title: collection.displayName, kind: collection.isSubscription ? "subscription" : "calDAV",
                        readOnly: collection.isReadOnly)
                ]))
        report.totals.calendars += 1
    }

    /// The value of a resource's first UID line, unfolded (RFC 5545 §3.1), or "" (for a
    /// report's example; the resource itself is written as the server sent it).
    static func uid(in text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("UID:") }) else { return "" }
        var value = String(lines[first].dropFirst(4))
        for line in lines[(first + 1)...] {
            guard line.first == " " || line.first == "\t" else { break }
            value += line.dropFirst()
        }
        return value
    }

    private func uniqueFolder(_ collection: CalDAVCollection, directory: String, state: State) -> String {
        var used = Set(state.collections.values.map(\.folder))
        let name = collection.displayName ?? collection.url.lastPathComponent
        return FileNames.unique(FileNames.slug(name, fallback: "calendar"), extension: nil, used: &used)
    }

    /// The file for a resource: its name on the server when that is safe, else a hash of it.
    static func fileName(for href: String, used: inout Set<String>) -> String {
        let last = href.split(separator: "/").last.map(String.init)?.removingPercentEncoding ?? "item"
        var base = FileNames.slug(last, fallback: "item")
        if base.lowercased().hasSuffix(".ics") { base = String(base.dropLast(4)) }
        if base.isEmpty || base.hasPrefix(".") { base = "item-" + ICSText.stableHash(href) }
        return FileNames.unique(base, extension: "ics", used: &used)
    }

    /// iCalendar text with CRLF line ends (RFC 5545 §3.1): an XML parser hands calendar-data
    /// over with every CRLF turned into LF (XML 1.0 §2.11).
    static func crlf(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 40)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(byte)
            previous = byte
        }
        return out
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let sink = try AtomicFileSink(destination: path)
        do {
            try sink.write(bytes)
            try sink.commit()
        } catch {
            sink.discard()
            throw error
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
