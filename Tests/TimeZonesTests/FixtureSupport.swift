import CalendarModel
import Conversion
import Foundation
import ICSFormat
import TimeZones
import XCTest

/// Reads the fixtures of this target and parses what they hold without calport's time-zone code.
enum FixtureSupport {
    static let root = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    /// Rows of a TSV fixture without comment lines; cells are not trimmed.
    static func rows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Seconds since the epoch of `YYYYMMDDTHHMMSS` (optionally with Z), read as UTC by Foundation.
    static func seconds(_ text: String) -> Int {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss"
        let date = formatter.date(from: text.hasSuffix("Z") ? String(text.dropLast()) : text)!
        return Int(date.timeIntervalSince1970)
    }

    /// Every stream element of an ICS file or byte string.
    static func elements(_ bytes: [UInt8], name: String = "fixture") throws -> [CalendarStreamElement] {
        var reader = ICSFormat().makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: DiagnosticLog())
        var result: [CalendarStreamElement] = []
        while let element = try reader.next() { result.append(element) }
        return result
    }

    static func elements(file: String) throws -> [CalendarStreamElement] {
        try elements([UInt8](Data(contentsOf: root.appendingPathComponent(file))), name: file)
    }

    /// The first VTIMEZONE of a fixture calendar.
    static func definition(_ name: String) throws -> Component {
        for case .entry(.timeZone(let component), _) in try elements(file: "vtimezones/\(name).ics") { return component }
        throw XCTSkip("no VTIMEZONE in \(name)")
    }

    /// Events by UID.
    static func events(_ elements: [CalendarStreamElement]) -> [String: Event] {
        var result: [String: Event] = [:]
        for case .entry(.event(let event), _) in elements { result[event.uid ?? ""] = event }
        return result
    }

    /// The instant a date-time names, computed with Foundation's `TimeZone` (its own reading of
    /// the system tz data), not calport's: nil for floating times and unknown zones.
    static func foundationInstant(_ value: CalendarDateTime) -> Int? {
        let wall = value.date.daysSinceEpoch * 86_400 + (value.time?.secondsOfDay ?? 0)
        switch value.reference {
        case .utc: return wall
        case .floating: return nil
        case .zone(let id):
            guard let zone = TimeZone(identifier: id) else { return nil }
            // Foundation answers offsets for instants; the wall time's instant is where the
            // offset at (wall - offset) is consistent. Try both neighbouring offsets; first wins.
            let candidates = Set(
                [-86_400, 0, 86_400].map { wall - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall + $0))) })
            let valid = candidates.filter { wall - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) == $0 }
            return valid.min()
        }
    }

    /// Runs `calport convert` on a fixture and returns the output's elements and the warnings.
    static func convert(_ file: String, timeZones: TimeZoneOptionsValue) throws -> (
        elements: [CalendarStreamElement], log: DiagnosticLog, bytes: [UInt8]
    ) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("calport-tz-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: output) }
        let log = DiagnosticLog()
        let request = ConversionRequest(
            inputs: [root.appendingPathComponent(file).path], output: output.path, outputFormat: "ics", timeZones: timeZones)
        try Converter().run(request, log: log)
        let bytes = [UInt8](try Data(contentsOf: output))
        return (try elements(bytes, name: "output"), log, bytes)
    }
}

typealias TimeZoneOptionsValue = TimeZoneOptions
