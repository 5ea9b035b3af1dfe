import CalDAVFormat
import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation
import XCTest

/// Shared helpers: reading and writing in memory, HTTP message bodies, the calport binary.
enum CalDAVTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let rfc4791 = RoundTripCheck.corpusRoot.appendingPathComponent("rfc-specs/extracted/rfc4791")
    static let sabreDAV = RoundTripCheck.corpusRoot.appendingPathComponent("sabre-dav/extracted")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// The body of an HTTP message as the RFC prints it: what follows the first blank line.
    static func httpBody(_ url: URL) throws -> [UInt8] {
        let raw = try bytes(url)
        for i in raw.indices {
            if raw[i] == 0x0A, i + 1 < raw.count, raw[i + 1] == 0x0A { return Array(raw[(i + 2)...]) }
            if raw[i] == 0x0A, i + 2 < raw.count, raw[i + 1] == 0x0D, raw[i + 2] == 0x0A { return Array(raw[(i + 3)...]) }
        }
        return []
    }

    /// Every element a format reads from bytes, with the warnings it reported.
    static func read(_ bytes: [UInt8], format: String = "caldav", name: String = "input.xml", strict: Bool = false) throws -> (
        elements: [CalendarStreamElement], log: DiagnosticLog
    ) {
        let log = DiagnosticLog()
        var reader = StandardFormats.registry.format(id: format)!.makeReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name, strict: strict), log: log)
        var out: [CalendarStreamElement] = []
        while let e = try reader.next() { out.append(e) }
        return (out, log)
    }

    /// Writes elements in a format.
    static func write(_ elements: [CalendarStreamElement], format: String, settings: [String: String] = [:]) throws -> [UInt8] {
        let sink = MemoryByteSink()
        var writer = StandardFormats.registry.format(id: format)!.makeWriter(
            sink: sink, options: WriteOptions(destinationName: "out", formatSettings: settings), log: DiagnosticLog())
        for e in elements { try writer.write(e) }
        try writer.finish()
        return sink.bytes
    }

    /// The elements without their line numbers, for comparing two readings.
    static func withoutLines(_ elements: [CalendarStreamElement]) -> [CalendarStreamElement] {
        elements.map { e in
            if case .entry(let entry, _) = e { return .entry(entry, line: 0) }
            return e
        }
    }

    /// A re-reading of an archive made comparable with the original reading: lines dropped, and
    /// only what an archive must add taken back out — the collection href it had to make up
    /// where the original had none (an MKCALENDAR body), and the VERSION and PRODID the
    /// iCalendar writer supplies where the original's resources had none. Everything else
    /// must be equal.
    static func comparable(_ again: [CalendarStreamElement], original: [CalendarStreamElement]) -> [CalendarStreamElement] {
        let originals = calendars(original)
        var index = 0
        return withoutLines(again).map { e in
            guard case .beginCalendar(var c) = e, index < originals.count else { return e }
            let o = originals[index]
            index += 1
            if literal(o, CalDAVProperty.href) == nil { c.properties.removeAll { $0.name == CalDAVProperty.href } }
            if o.productID == nil { c.productID = nil }
            if o.version == nil { c.version = nil }
            return .beginCalendar(c)
        }
    }

    /// The calendars of a reading.
    static func calendars(_ elements: [CalendarStreamElement]) -> [CalendarModel.Calendar] {
        elements.compactMap { e in
            if case .beginCalendar(let c) = e { return c }
            return nil
        }
    }

    /// A calendar-level X- property's literal.
    static func literal(_ calendar: CalendarModel.Calendar, _ name: String) -> String? {
        guard case .unknown(_, let l)? = calendar.properties.first(where: { $0.name == name })?.value else { return nil }
        return l
    }
}

/// Runs the built calport binary.
struct CalportProcess {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The calport executable beside the test bundle.
    static var executable: URL {
        let bundle = Bundle(for: Marker.self).bundleURL
        let candidates = [bundle.appendingPathComponent("calport"), bundle.deletingLastPathComponent().appendingPathComponent("calport")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    private final class Marker {}

    static func run(_ arguments: [String], in directory: URL) throws -> Run {
        try run(executable, arguments, in: directory)
    }

    /// What a reading thread collects, handed back after it is joined.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }

    /// Runs a program to its end with an empty standard input.
    static func run(_ program: URL, _ arguments: [String], in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        // An empty pipe rather than /dev/null, so the test does not depend on the device node.
        process.standardInput = input
        try process.run()
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let errors = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errors.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errors.data, as: UTF8.self))
    }
}
