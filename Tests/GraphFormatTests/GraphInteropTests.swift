import CalendarModel
import CalendarTestSupport
import Conversion
import ExchangeData
import Foundation
import XCTest

@testable import GraphFormat

/// What calport writes as Graph is what Microsoft's own SDK reads, and ICS → Graph → ICS keeps
/// the shared corpus's real-world events (or reports what it could not keep).
final class GraphInteropTests: XCTestCase {
    static let script = GraphFixtureTests.fixtures.appendingPathComponent("kiota/parse_with_msgraph.py")

    /// start, end, recurrence and attendees as our own JSON says them, in the script's shape.
    static func described(_ element: [String: Any]) -> [String: Any] {
        func dtz(_ v: Any?) -> Any {
            guard let o = v as? [String: Any] else { return NSNull() }
            return [o["dateTime"] ?? NSNull(), o["timeZone"] ?? NSNull()]
        }
        var recurrence: Any = NSNull()
        if let r = element["recurrence"] as? [String: Any], let p = r["pattern"] as? [String: Any], let g = r["range"] as? [String: Any] {
            recurrence = [
                "type": p["type"] ?? NSNull(), "interval": p["interval"] ?? NSNull(), "daysOfWeek": p["daysOfWeek"] ?? [],
                "index": p["index"] ?? NSNull(), "dayOfMonth": p["dayOfMonth"] ?? NSNull(), "month": p["month"] ?? NSNull(),
                "rangeType": g["type"] ?? NSNull(), "startDate": g["startDate"] ?? NSNull(), "endDate": g["endDate"] ?? NSNull(),
                "numberOfOccurrences": g["numberOfOccurrences"] ?? NSNull(),
            ]
        }
        let attendees = (element["attendees"] as? [[String: Any]] ?? []).map { a -> [Any] in
            [
                (a["emailAddress"] as? [String: Any])?["address"] ?? NSNull(), a["type"] ?? NSNull(),
                (a["status"] as? [String: Any])?["response"] ?? NSNull(),
            ]
        }
        return [
            "subject": element["subject"] ?? NSNull(), "start": dtz(element["start"]), "end": dtz(element["end"]), "recurrence": recurrence,
            "attendees": attendees, "exceptions": (element["exceptionOccurrences"] as? [Any])?.count ?? 0,
            "cancelled": element["cancelledOccurrences"] ?? [],
        ]
    }

    /// Runs the SDK once over every element of `outputs` (its import takes seconds) and compares.
    func checkWithMicrosoftModel(_ outputs: [(name: String, graph: [UInt8])]) throws {
        var ours: [(String, [String: Any])] = []
        for (name, graph) in outputs {
            let value = try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: Data(graph)) as? [String: Any])?["value"] as? [[String: Any]], name)
            ours += value.map { (name, $0) }
        }
        // The SDK's reflection-driven parse is slow: every fixture element, then corpus elements
        // that carry what is compared (a pattern, attendees), up to a bound.
        let fixtures = ours.filter { !$0.0.hasPrefix("/") }
        let corpus = ours.filter { $0.0.hasPrefix("/") }
        let telling = corpus.filter { $0.1["recurrence"] != nil || $0.1["attendees"] != nil }
        ours =
            fixtures + Array(telling.prefix(250))
            + Array(corpus.filter { $0.1["recurrence"] == nil && $0.1["attendees"] == nil }.prefix(50))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiota-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["value": ours.map(\.1)]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, file.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, errors)
        let theirs = data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
        XCTAssertEqual(theirs.count, ours.count)
        for ((name, mine), model) in zip(ours, theirs) {
            let a = try JSONSerialization.data(withJSONObject: Self.described(mine), options: .sortedKeys)
            let b = try JSONSerialization.data(withJSONObject: model, options: .sortedKeys)
            XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self), name)
        }
    }

    /// Every element written, from every fixture and the corpus's real-world files, deserializes
    /// in msgraph-sdk's `Event` with the same start, end, recurrence and attendees.
    func testEveryElementWrittenDeserializesInMicrosoftsEventModel() throws {
        var outputs: [(name: String, graph: [UInt8])] = []
        for file in try GraphFixtureTests.cases() {
            var reader = GraphFormat().makeReader(
                source: MemoryByteSource(Array(try Data(contentsOf: file))), options: ReadOptions(sourceName: file.lastPathComponent),
                log: DiagnosticLog())
            let sink = MemoryByteSink()
            var writer = GraphFormat().makeWriter(sink: sink, options: WriteOptions(destinationName: "out"), log: DiagnosticLog())
            while let e = try reader.next() { try writer.write(e) }
            try writer.finish()
            outputs.append((file.lastPathComponent, sink.bytes))
        }
        for file in Self.corpusSample() {
            guard let graph = try? RoundTripCheck.convert(Array(try Data(contentsOf: file)), through: ["graph"]) else { continue }
            outputs.append((file.path, graph))
        }
        XCTAssertGreaterThan(outputs.count, 20)
        try checkWithMicrosoftModel(outputs)
    }

    /// Losses that may change an occurrence itself (its instants, title or attendees).
    static let occurrenceLosses: Set<String> = ["RRULE", "DTSTART", "DTEND", "TZID", "RECURRENCE-ID", "ATTENDEE", "EXDATE"]

    /// ICS → Graph → ICS, read back as calport reads its own Graph bodies (calport's extended
    /// property included), keeps on every corpus file that holds events (libical's 1 MB
    /// `large.ics` left out for time: its calendars repeat the folder's samples) each occurrence
    /// (instants, title, attendee addresses; series expanded to 2036, at most 500 each) and the
    /// fields Graph maps (`OccurrenceList.mappedFieldNames`: location, description,
    /// categories, status, transparency, class, priority, alarms, organizer), or the writer
    /// reported the loss: of that field for a field, of an `occurrenceLosses` field for an
    /// occurrence, and of `calendars` for a file of several calendars (Graph's bodies carry
    /// none, so a UID two calendars share names one series).
    func testICSToGraphToICSKeepsTheCorpusOccurrencesAttendeesAndMappedFieldsOrReportsTheLoss() throws {
        var checked = 0
        for file in Self.corpusSample() where file.lastPathComponent != "large.ics" {
            let bytes = [UInt8](try Data(contentsOf: file))
            guard let before = try? OccurrenceList.lines(ofICS: bytes, facets: .mappedFields) else { continue }
            let log = DiagnosticLog()
            let after: [String]
            do {
                after = try OccurrenceList.lines(
                    ofICS: try RoundTripCheck.convert(bytes, through: ["graph", "ics"], log: log), facets: .mappedFields)
            } catch {
                XCTFail("\(file.path): ICS → Graph → ICS failed: \(error)")
                continue
            }
            checked += 1
            checkChanges(file, before: before, after: after, lost: Set(log.diagnostics.compactMap(\.lostField)), through: "through Graph")
        }
        XCTAssertGreaterThan(checked, 400)
    }

    /// Fails on the first line that changed with no loss to say why: a field line needs its
    /// field's loss, or its occurrence to be one that changed with an `occurrenceLosses` loss;
    /// an occurrence's own line needs an `occurrenceLosses` loss; a file of several calendars
    /// needs the `calendars` loss.
    func checkChanges(_ file: URL, before: [String], after: [String], lost: Set<String>, through route: String) {
        guard before != after, !lost.contains("calendars") else { return }
        let changed = Set(before).symmetricDifference(after)
        let occurrencesExcused = !lost.isDisjoint(with: Self.occurrenceLosses)
        let movedOccurrences = Set(changed.filter { OccurrenceList.field(ofLine: $0) == nil }.map { $0.prefix { $0 != " " } })
        for line in changed.sorted() {
            let field = OccurrenceList.field(ofLine: line)
            let ofMovedOccurrence = occurrencesExcused && movedOccurrences.contains(line.prefix { $0 != "\t" })
            let excused = field.map { lost.contains($0) || ofMovedOccurrence } ?? occurrencesExcused
            XCTAssertTrue(
                excused,
                "\(file.path): \(before.contains(line) ? "lost" : "gained") '\(line.prefix(200))' \(route), no \(field ?? "occurrence") loss reported (losses: \(lost.sorted()))"
            )
            if !excused { return }
        }
    }

    /// What Graph's own members hold of the mapped fields, in `OccurrenceList.mappedFieldNames`
    /// order: location, the plain-text description, categories, no status (`isCancelled` is
    /// read-only), `showAs`, `sensitivity` and `importance` as Exchange's words, the one
    /// reminder's minutes, the organizer's address. Graph's defaults (`busy`, `normal`) say
    /// what no value says.
    static func graphFields(of event: Event) -> [String] {
        let item = event.item
        func word(_ w: String?) -> String { w == nil || w == "busy" || w == "normal" ? "" : w ?? "" }
        let html = item.properties.contains { $0.name == ExchangeProperties.htmlDescription }
        let busy = word(ExchangeBusyStatus(availability: event.busyStatus, transparency: event.transparency).graph)
        let sensitivity = word(item.classification.flatMap { ExchangeSensitivity(classification: $0, keptWord: nil)?.graph })
        let importance = word(item.priority.flatMap { $0 == 0 ? nil : ExchangeImportance(priority: $0).graph })
        let reminder = item.alarms.lazy.compactMap { alarm -> Int? in
            guard case .relative(let d, relativeToEnd: false)? = alarm.trigger, d.totalSeconds <= 0, d.totalSeconds % 60 == 0 else {
                return nil
            }
            return -d.totalSeconds / 60
        }.first
        return [
            item.location ?? "", html ? "" : item.notes ?? "", item.allCategories.joined(separator: ","), "", busy, sensitivity, importance,
            reminder.map(String.init) ?? "", item.organizer?.emailAddress?.lowercased() ?? "",
        ]
    }

    /// Graph bytes without calport's extended property: what Graph returns unless a client asks
    /// for it (`$expand=singleValueExtendedProperties`), so what any other client sees.
    static func withoutKeptICalendar(_ graph: [UInt8]) throws -> [UInt8] {
        guard var top = try JSONSerialization.jsonObject(with: Data(graph)) as? [String: Any], let values = top["value"] as? [[String: Any]]
        else { return graph }
        func strip(_ element: [String: Any]) -> [String: Any] {
            var e = element
            e["singleValueExtendedProperties"] = nil
            if let exceptions = e["exceptionOccurrences"] as? [[String: Any]] { e["exceptionOccurrences"] = exceptions.map(strip) }
            return e
        }
        top["value"] = values.map(strip)
        return [UInt8](try JSONSerialization.data(withJSONObject: top))
    }

    /// ICS → Graph → ICS with Graph's own members only (calport's extended property dropped, as
    /// another client reads the events) keeps on the corpus's files each occurrence (instants,
    /// title, attendee addresses, as above) and what Graph's members hold of the mapped fields
    /// (`graphFields`: the source's values in Graph's words), or the writer reported the loss, as
    /// above. So the members, not only the kept iCalendar, carry what the README says they do.
    func testICSToGraphToICSKeepsTheMappedFieldsInGraphsOwnMembers() throws {
        var checked = 0
        for file in Self.corpusSample() where file.lastPathComponent != "large.ics" {
            let bytes = [UInt8](try Data(contentsOf: file))
            guard let before = try? OccurrenceList.lines(ofICS: bytes, facets: .mappedFields, fields: Self.graphFields(of:)) else {
                continue
            }
            let log = DiagnosticLog()
            let after: [String]
            do {
                let graph = try Self.withoutKeptICalendar(try RoundTripCheck.convert(bytes, through: ["graph"], log: log))
                let back = try RoundTripCheck.convert(graph, through: ["ics"], log: DiagnosticLog(), from: "graph")
                after = try OccurrenceList.lines(ofICS: back, facets: .mappedFields, fields: Self.graphFields(of:))
            } catch {
                XCTFail("\(file.path): ICS → Graph → ICS failed: \(error)")
                continue
            }
            checked += 1
            checkChanges(
                file, before: before, after: after, lost: Set(log.diagnostics.compactMap(\.lostField)), through: "in Graph's members")
        }
        XCTAssertGreaterThan(checked, 400)
    }

    /// The corpus's real-world ICS files that hold events.
    static func corpusSample() -> [URL] {
        RoundTripCheck.icsFiles(under: RoundTripCheck.corpusRoot).filter { url in
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return false }
            return text.contains("BEGIN:VEVENT") && !url.path.contains("/invalid") && !url.path.contains("_combined")
        }
    }
}
