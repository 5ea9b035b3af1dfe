import CalendarModel
import Foundation

/// Takes the converted stream and sends each element to the file it belongs in, following
/// the run's `OutputLayout`. Files come from the run's `OutputTransaction`, so nothing is
/// visible before the whole batch succeeds.
protocol OutputRouter: AnyObject {
    /// Writes one element. `unitName` is the input it came from (names untitled calendars).
    func write(_ element: CalendarStreamElement, unitName: String) throws
    /// Forgets the calendar an input left open when that input is abandoned.
    func abandonCalendar()
    /// Flushes and closes everything; called once, before the transaction commits.
    func finish() throws
    /// The output file the last element went to, for reports.
    var currentOutput: String { get }
}

/// Everything into one file or standard output, through one writer.
final class SingleFileRouter: OutputRouter {
    private var writer: any CalendarWriter
    let currentOutput: String

    init(format: any CalendarFormat, destination: String?, transaction: OutputTransaction, options: WriteOptions, log: DiagnosticLog) throws {
        let sink: ByteSink
        if let destination {
            sink = try transaction.stage(destination, createDirectories: false)
            currentOutput = destination
        } else {
            sink = transaction.dryRun ? DiscardingSink() : StandardOutputSink()
            currentOutput = "-"
        }
        writer = format.makeWriter(sink: sink, options: options, log: log)
    }

    func write(_ element: CalendarStreamElement, unitName: String) throws { try writer.write(element) }
    func abandonCalendar() {}
    func finish() throws { try writer.finish() }
}

/// One file per calendar in a directory, named after the calendar (or, for an untitled one,
/// after the input it came from); a name used twice gets a numeric suffix.
final class DirectoryRouter: OutputRouter {
    private let directory: String
    private let format: any CalendarFormat
    private let transaction: OutputTransaction
    private let options: WriteOptions
    private let log: DiagnosticLog
    private var open: (writer: any CalendarWriter, file: OutputTransaction.StagedFile)?
    private var usedNames: Set<String> = []
    private(set) var currentOutput: String

    init(directory: String, format: any CalendarFormat, transaction: OutputTransaction, options: WriteOptions, log: DiagnosticLog) {
        self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.format = format
        self.transaction = transaction
        self.options = options
        self.log = log
        self.currentOutput = directory
    }

    func write(_ element: CalendarStreamElement, unitName: String) throws {
        switch element {
        case .beginCalendar(let calendar):
            try close()
            try openFile(named: calendar.title, unitName: unitName)
        case .entry, .endCalendar:
            if open == nil { try openFile(named: nil, unitName: unitName) }
        }
        try open!.writer.write(element)
        if case .endCalendar = element { try close() }
    }

    private func openFile(named title: String?, unitName: String) throws {
        let base = FileNames.slug(title ?? FileNames.baseName(unitName), fallback: "calendar")
        let name = FileNames.unique(base, extension: format.fileExtensions.first ?? format.id, used: &usedNames)
        let path = directory + "/" + name
        let file = try transaction.stage(path)
        var fileOptions = options
        fileOptions.destinationName = path
        open = (format.makeWriter(sink: file, options: fileOptions, log: log), file)
        currentOutput = path
    }

    private func close() throws {
        guard var current = open else { return }
        open = nil
        try current.writer.finish()
        try current.file.close(sync: false)
    }

    func abandonCalendar() { open = nil }

    func finish() throws { try close() }
}

/// A vdir: a folder per calendar holding one .ics file per item (all the components that share
/// a UID, as vdirsyncer requires), each with the VTIMEZONEs it refers to, and `displayname` and
/// `color` files. Items are written as they come; a later component with the same UID (an
/// override) is appended to its file, and every file gets its closing line at the end.
final class VdirRouter: OutputRouter {
    private let directory: String
    private let format: any CalendarFormat
    private let transaction: OutputTransaction
    private let log: DiagnosticLog
    private var usedFolders: Set<String> = []

    /// The calendar being written: its folder, header, zones and item files by UID.
    private struct OpenCalendar {
        var folder: String
        var header: CalendarModel.Calendar
        var zones: [String: Component] = [:]
        var files: [String: (file: OutputTransaction.StagedFile, zones: Set<String>)] = [:]
        var usedNames: Set<String> = []
        var untitledItems = 0
    }

    private var open: OpenCalendar?
    /// Every item file of the run, to be closed with END:VCALENDAR at the end.
    private var itemFiles: [OutputTransaction.StagedFile] = []
    private(set) var currentOutput: String

    init(directory: String, format: any CalendarFormat, transaction: OutputTransaction, log: DiagnosticLog) throws {
        guard format.id == "ics" else {
            throw CalendarError(.usage, file: directory, "a vdir holds iCalendar files; -t \(format.id) cannot be written as a vdir")
        }
        self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.format = format
        self.transaction = transaction
        self.log = log
        self.currentOutput = directory
    }

    func write(_ element: CalendarStreamElement, unitName: String) throws {
        switch element {
        case .beginCalendar(let calendar):
            try openCalendar(calendar, unitName: unitName)
        case .entry(let entry, _):
            if open == nil { try openCalendar(CalendarModel.Calendar(), unitName: unitName) }
            try write(entry)
        case .endCalendar:
            open = nil
        }
    }

    private func openCalendar(_ calendar: CalendarModel.Calendar, unitName: String) throws {
        let base = FileNames.slug(calendar.title ?? FileNames.baseName(unitName), fallback: "calendar")
        let folder = directory + "/" + FileNames.unique(base, extension: nil, used: &usedFolders)
        var header = CalendarModel.Calendar()
        header.productID = calendar.productID
        header.version = calendar.version
        header.scale = calendar.scale
        open = OpenCalendar(folder: folder, header: header)
        currentOutput = folder
        if let title = calendar.title { try writeMetadata(folder + "/displayname", title) }
        if let color = calendar.color { try writeMetadata(folder + "/color", color) }
        if calendar.title == nil && calendar.color == nil {
            // A folder with no metadata file would not be recognized as a collection when read back.
            try writeMetadata(folder + "/displayname", FileNames.baseName(unitName))
        }
    }

    private func writeMetadata(_ path: String, _ text: String) throws {
        let file = try transaction.stage(path)
        try file.write(Array((text + "\n").utf8))
        try file.close(sync: false)
    }

    private func write(_ entry: CalendarEntry) throws {
        if case .timeZone(let zone) = entry {
            if let id = Self.zoneID(zone) { open!.zones[id] = zone }
            return
        }
        let body = try Self.serialize([entry], header: nil)
        let referenced = Self.referencedZones(body)
        let uid = entry.item?.uid
        if let uid, var existing = open!.files[uid] {
            // Another component with the same UID (an override): same file.
            let missing = referenced.subtracting(existing.zones)
            let zones = missing.sorted().compactMap { open!.zones[$0] }.map { CalendarEntry.timeZone($0) }
            if !zones.isEmpty { try existing.file.write(try Self.serialize(zones, header: nil)) }
            try existing.file.write(body)
            try existing.file.close(sync: false)
            existing.zones.formUnion(missing)
            open!.files[uid] = existing
            return
        }
        let base: String
        if let uid {
            base = FileNames.slug(uid, fallback: "item")
        } else {
            open!.untitledItems += 1
            base = "item-\(open!.untitledItems)"
        }
        let path = open!.folder + "/" + FileNames.unique(base, extension: "ics", used: &open!.usedNames)
        let file = try transaction.stage(path)
        let zones = referenced.sorted().compactMap { open!.zones[$0] }.map { CalendarEntry.timeZone($0) }
        try file.write(try Self.serialize(zones, header: open!.header))
        try file.write(body)
        try file.close(sync: false)
        itemFiles.append(file)
        currentOutput = path
        if let uid { open!.files[uid] = (file, Set(zones.compactMap { if case .timeZone(let z) = $0 { return Self.zoneID(z) } else { return nil } })) }
    }

    /// ICS text for `entries`, opening with BEGIN:VCALENDAR and its properties when `header`
    /// is given (never closing: END:VCALENDAR is written when the run finishes).
    private static func serialize(_ entries: [CalendarEntry], header: CalendarModel.Calendar?) throws -> [UInt8] {
        let sink = MemoryByteSink()
        var writer = StandardFormats.registry.format(id: "ics")!.makeWriter(sink: sink, options: WriteOptions(destinationName: "-"), log: DiagnosticLog())
        if let header { try writer.write(.beginCalendar(header)) }
        for entry in entries { try writer.write(.entry(entry, line: 0)) }
        try writer.finish()
        return sink.bytes
    }

    /// The zone ids a serialized component names in TZID parameters.
    static func referencedZones(_ bytes: [UInt8]) -> Set<String> {
        var zones: Set<String> = []
        let marker = Array("TZID=".utf8)
        var i = 0
        while i + marker.count < bytes.count {
            if bytes[i] == 0x54, bytes[i..<(i + marker.count)].elementsEqual(marker) {
                var j = i + marker.count
                let quoted = bytes[j] == 0x22
                if quoted { j += 1 }
                let start = j
                while j < bytes.count, quoted ? bytes[j] != 0x22 : (bytes[j] != 0x3A && bytes[j] != 0x3B) { j += 1 }
                zones.insert(String(decoding: bytes[start..<j], as: UTF8.self))
                i = j
            } else {
                i += 1
            }
        }
        return zones
    }

    private static func zoneID(_ zone: Component) -> String? {
        guard let p = zone.property("TZID") else { return nil }
        switch p.value {
        case .text(let t): return t.first
        case .unknown(_, let literal): return literal
        default: return nil
        }
    }

    func abandonCalendar() { open = nil }

    func finish() throws {
        let end = Array("END:VCALENDAR\r\n".utf8)
        // Files of an input abandoned in lenient mode were discarded with it.
        for file in itemFiles where transaction.isClaimed(file.destination) {
            try file.write(end)
            try file.close(sync: false)
        }
    }
}

/// Drops what it is given: standard output in a dry run.
final class DiscardingSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {}
}

/// File names made from calendar titles and UIDs: safe on every file system, repeatable.
enum FileNames {
    /// `text` with every character that is not a letter, digit, '.', '_', '-' or '@' replaced
    /// by '_', shortened to 120 bytes; `fallback` when nothing usable is left.
    static func slug(_ text: String, fallback: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if out.utf8.count >= 120 { break }
            if CharacterSet.alphanumerics.contains(scalar) || "._-@".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out.append("_")
            }
        }
        while out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? fallback : out
    }

    /// `base` (with `ext`), or `base-2`, `base-3`, … when taken; case-insensitively, so the
    /// result is also unique on case-insensitive file systems.
    static func unique(_ base: String, extension ext: String?, used: inout Set<String>) -> String {
        var candidate = base
        var n = 1
        while used.contains(candidate.lowercased()) {
            n += 1
            candidate = "\(base)-\(n)"
        }
        used.insert(candidate.lowercased())
        return ext.map { candidate + "." + $0 } ?? candidate
    }

    /// The last path component without its extension.
    static func baseName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        if last == "-" { return "stdin" }
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}
