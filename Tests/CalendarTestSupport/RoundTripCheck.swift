import CalendarModel
import Conversion
import Foundation
import ICSFormat
import TimeZones

/// Compares what two iCalendar texts say, property by property, the way a careful reader
/// would: parameter order, line folding, escaping choices, letter case of enumerated words,
/// and a VALUE or TRANSP that only restates the default do not count; anything else does.
public enum RoundTripCheck {
    /// The repository root (this file is Tests/CalendarTestSupport/RoundTripCheck.swift).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shared corpus beside the repository.
    public static let corpusRoot = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Every `.ics` file under a folder, sorted.
    public static func icsFiles(under root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension.lowercased() == "ics" }
            .sorted { $0.path < $1.path }
    }

    /// One calendar as untyped trees.
    public struct CalendarTree: Equatable, CustomStringConvertible {
        public var properties: [String]
        public var components: [ComponentTree]

        public var description: String {
            (["VCALENDAR"] + properties + components.map(\.description)).joined(separator: "\n")
        }
    }

    /// A component as normalized property lines (sorted) and sub-components (in order).
    public struct ComponentTree: Equatable, CustomStringConvertible {
        public var name: String
        public var properties: [String]
        public var components: [ComponentTree]

        public var description: String {
            (["BEGIN:\(name)"] + properties + components.map(\.description) + ["END:\(name)"]).joined(separator: "\n")
        }
    }

    /// Reads ICS bytes as untyped trees, leniently.
    public static func trees(of bytes: [UInt8], name: String = "input") throws -> [CalendarTree] {
        var reader = ICSReader.componentTreeReader(
            source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: DiagnosticLog())
        var result: [CalendarTree] = []
        while let element = try reader.next() {
            switch element {
            case .beginCalendar(let c): result.append(CalendarTree(properties: normalized(c.properties), components: []))
            case .entry(let e, _):
                if case .other(let component) = e { result[result.count - 1].components.append(tree(component)) }
            case .endCalendar(let trailing):
                result[result.count - 1].properties = (result[result.count - 1].properties + normalized(trailing)).sorted()
            }
        }
        return result
    }

    /// Converts bytes in format `start` (ICS by default) through `hops` (format ids) and returns the result.
    public static func convert(
        _ bytes: [UInt8], through hops: [String], registry: FormatRegistry = StandardFormats.registry,
        log: DiagnosticLog = DiagnosticLog(), from start: String = "ics"
    ) throws -> [UInt8] {
        var current = bytes
        var from = start
        for to in hops {
            guard let input = registry.format(id: from), let output = registry.format(id: to) else {
                throw CalendarError(.usage, file: from, "unknown format")
            }
            var reader = input.makeReader(source: MemoryByteSource(current), options: ReadOptions(sourceName: from), log: log)
            let sink = MemoryByteSink()
            var writer = output.makeWriter(sink: sink, options: WriteOptions(destinationName: to), log: log)
            while let element = try reader.next() { try writer.write(element) }
            try writer.finish()
            current = sink.bytes
            from = to
        }
        return current
    }

    /// ICS bytes with their times put on today's tz data, as a conversion run puts them
    /// (`TimeZoneNormalizer`, zones kept): TZIDs become IANA ids, a TZID that names no zone by
    /// itself is read through the file's VTIMEZONE, and input VTIMEZONEs are dropped. Two
    /// texts that name one zone differently (`Fabrikam Pacific (2007 rules)` with its
    /// definition, `America/Los_Angeles`) then read alike.
    public static func zonesNormalized(_ bytes: [UInt8], name: String = "input") throws -> [UInt8] {
        let log = DiagnosticLog()
        var reader = ICSFormat().makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: log)
        let sink = MemoryByteSink()
        var writer = ICSFormat().makeWriter(sink: sink, options: WriteOptions(destinationName: name), log: log)
        let normalizer = try TimeZoneNormalizer(options: TimeZoneOptions(), file: name, log: log)
        while let element = try reader.next() { try normalizer.process(element) { try writer.write($0) } }
        try normalizer.finish { try writer.write($0) }
        try writer.finish()
        return sink.bytes
    }

    /// The first difference between two readings, or nil when they say the same.
    public static func difference(_ before: [CalendarTree], _ after: [CalendarTree]) -> String? {
        guard before.count == after.count else { return "\(before.count) calendars became \(after.count)" }
        for (a, b) in zip(before, after) {
            // VERSION and PRODID are supplied by the writer when missing; that adds, it loses nothing.
            let added = Set(b.properties).subtracting(a.properties)
            let extra = added.filter { !($0.hasPrefix("VERSION") || $0.hasPrefix("PRODID")) }
            let missing = Set(a.properties).subtracting(b.properties)
            if !missing.isEmpty || !extra.isEmpty {
                return "calendar properties differ: lost \(missing.sorted()), gained \(extra.sorted())"
            }
            if let d = difference(a.components, b.components, path: "VCALENDAR") { return d }
        }
        return nil
    }

    /// The first difference between two readings when the order of each calendar's components
    /// does not count (RFC 5545 gives it no meaning; a writer that holds a series until its
    /// overrides come may put it after the events that followed it).
    public static func differenceInAnyOrder(_ before: [CalendarTree], _ after: [CalendarTree]) -> String? {
        func sorted(_ trees: [CalendarTree]) -> [CalendarTree] {
            trees.map { CalendarTree(properties: $0.properties, components: $0.components.sorted { $0.description < $1.description }) }
        }
        return difference(sorted(before), sorted(after))
    }

    private static func difference(_ a: [ComponentTree], _ b: [ComponentTree], path: String) -> String? {
        guard a.count == b.count else {
            return "\(path): \(a.count) components became \(b.count) (\(a.map(\.name)) vs \(b.map(\.name)))"
        }
        for (index, (x, y)) in zip(a, b).enumerated() {
            let here = "\(path)/\(x.name)[\(index)]"
            guard x.name == y.name else { return "\(here): became \(y.name)" }
            if x.properties != y.properties {
                let lost = x.properties.filter { !y.properties.contains($0) }
                let gained = y.properties.filter { !x.properties.contains($0) }
                return "\(here): lost \(lost), gained \(gained)"
            }
            if let d = difference(x.components, y.components, path: here) { return d }
        }
        return nil
    }

    private static func tree(_ c: Component) -> ComponentTree {
        var properties = normalized(c.properties)
        // TRANSP:OPAQUE is what a VEVENT without TRANSP is (RFC 5545 §3.8.2.7).
        if c.name == "VEVENT" { properties.removeAll { $0 == opaque } }
        return ComponentTree(name: c.name, properties: properties, components: c.components.map(tree))
    }

    private static let opaque = normalized(Property(name: "TRANSP", value: .text(["OPAQUE"])))

    /// Parameters whose values are enumerations, compared without regard to letter case.
    private static let enumeratedParameters: Set<String> = [
        "ROLE", "PARTSTAT", "CUTYPE", "RSVP", "RANGE", "RELATED", "FBTYPE", "RELTYPE", "ENCODING", "VALUE",
    ]
    /// Properties whose TEXT values are enumerations.
    private static let enumeratedProperties: Set<String> = ["STATUS", "CLASS", "TRANSP", "ACTION", "METHOD", "CALSCALE"]

    private static func normalized(_ properties: [Property]) -> [String] {
        properties.map(normalized).sorted()
    }

    private static func normalized(_ p: Property) -> String {
        let parameters = p.parameters.map { parameter -> String in
            let values = enumeratedParameters.contains(parameter.name) ? parameter.values.map { $0.uppercased() } : parameter.values
            return parameter.name + "=" + values.map { "\"\($0)\"" }.joined(separator: ",")
        }.sorted()
        var value = p.value
        if enumeratedProperties.contains(p.name), case .text(let t) = value { value = .text(t.map { $0.uppercased() }) }
        return p.name + "[" + parameters.joined(separator: ";") + "]=" + String(describing: value)
    }
}
