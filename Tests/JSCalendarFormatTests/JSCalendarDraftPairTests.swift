import CalendarModel
import CalendarTestSupport
import Foundation
import JSONCoding
import XCTest

/// The JSCalendar ⇄ iCalendar mapping draft's 88 example pairs
/// (../shared/corpus/jscalendar-icalendar-draft/extracted/<anchor>.json + .ics; "..." marks
/// omitted content). The draft maps for JSCalendar's next version (`calendarAddress`,
/// `iCalendar` objects, …); calport writes RFC 8984, so the test reads the draft's JSCalendar
/// and checks that every iCalendar property the draft gives appears in calport's iCalendar.
/// Pairs whose mapping calport does not implement are listed with the reason in
/// Fixtures/jscalendar/draft-pairs-not-converted.txt; the test fails if the list is wrong
/// either way.
final class JSCalendarDraftPairTests: XCTestCase {
    static let folder = RoundTripCheck.corpusRoot.appendingPathComponent("jscalendar-icalendar-draft/extracted")

    /// The draft's JSON fragment as a whole Event or Task (or Group) without "..." members.
    static func object(from text: String) throws -> JSONValue {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.hasPrefix("\"") { t = "{" + t + "}" }
        guard var v = try JSCalendarTestSupport.jsonValues(Array(t.utf8)).first else { throw CalendarError(.data, file: "draft", "empty") }
        func strip(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let o):
                return .object(JSONObject(o.members.filter { $0.key != "..." }.map { .init(key: $0.key, value: strip($0.value)) }))
            case .array(let a): return .array(a.filter { $0 != .string("...") }.map(strip))
            default: return v
            }
        }
        v = strip(v)
        guard var o = v.objectValue else { return v }
        if o["@type"] == nil {
            let isTask = o["due"] != nil || o["progress"] != nil || o["percentComplete"] != nil
            o.members.insert(.init(key: "@type", value: .string(isTask ? "Task" : "Event")), at: 0)
        }
        return .object(o)
    }

    /// The draft's iCalendar fragment as a calendar, lines with "..." left out.
    static func calendar(from text: String, taskFirst: Bool) -> [UInt8] {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        // Unfold, then drop what the draft elides.
        var unfolded: [String] = []
        for l in lines {
            if (l.hasPrefix(" ") || l.hasPrefix("\t")), !unfolded.isEmpty {
                unfolded[unfolded.count - 1] += l.dropFirst()
            } else {
                unfolded.append(l)
            }
        }
        lines = unfolded.filter { !$0.contains("...") && !$0.isEmpty }
        if !lines.contains(where: { $0.hasPrefix("BEGIN:VEVENT") || $0.hasPrefix("BEGIN:VTODO") || $0.hasPrefix("BEGIN:VCALENDAR") }) {
            let name = taskFirst ? "VTODO" : "VEVENT"
            lines = ["BEGIN:\(name)"] + lines + ["END:\(name)"]
        }
        if !lines.contains("BEGIN:VCALENDAR") { lines = ["BEGIN:VCALENDAR"] + lines + ["END:VCALENDAR"] }
        return Array(lines.joined(separator: "\r\n").appending("\r\n").utf8)
    }

    /// Property lines of the draft's iCalendar that calport's iCalendar lacks.
    static func missing(_ draft: [RoundTripCheck.ComponentTree], _ ours: [RoundTripCheck.ComponentTree]) -> [String] {
        var result: [String] = []
        for c in draft {
            let candidates = ours.filter { $0.name == c.name }
            let props = Set(candidates.flatMap(\.properties))
            result += c.properties.filter { !props.contains($0) }
            result += missing(c.components, candidates.flatMap(\.components))
        }
        return result
    }

    func testDraftPairs() throws {
        let listed = try String(
            contentsOf: JSCalendarTestSupport.fixtures.appendingPathComponent("jscalendar/draft-pairs-not-converted.txt"), encoding: .utf8
        )
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.reduce(into: [String: String]()) { r, line in
            let p = line.split(separator: "\t", maxSplits: 1).map(String.init)
            r[p[0]] = p.count > 1 ? p[1] : ""
        }
        let anchors = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }.sorted()
        XCTAssertEqual(anchors.count, 88)
        var converted = 0
        for anchor in anchors {
            let json = try String(contentsOf: Self.folder.appendingPathComponent("\(anchor).json"), encoding: .utf8)
            let ics = try String(contentsOf: Self.folder.appendingPathComponent("\(anchor).ics"), encoding: .utf8)
            var problem: String?
            do {
                let object = try Self.object(from: json)
                let isTask = object.objectValue?["@type"]?.stringValue == "Task"
                let ours = try JSCalendarTestSupport.convert(Array(object.description.utf8), from: "jscalendar", to: "ics")
                let draftTrees = try RoundTripCheck.trees(of: Self.calendar(from: ics, taskFirst: isTask))
                let ourTrees = try RoundTripCheck.trees(of: ours)
                let lost =
                    Self.missing(draftTrees.flatMap(\.components), ourTrees.flatMap(\.components))
                    + draftTrees.flatMap(\.properties).filter { p in
                        !ourTrees.flatMap(\.properties).contains(p) && !p.hasPrefix("VERSION") && !p.hasPrefix("PRODID")
                    }
                if !lost.isEmpty { problem = "lacks \(lost.map { String($0.prefix(120)) })" }
            } catch {
                problem = "\(error)"
            }
            if let problem {
                XCTAssertNotNil(listed[anchor], "\(anchor) does not convert as the draft says: \(problem.prefix(400))")
            } else {
                converted += 1
                XCTAssertNil(listed[anchor], "\(anchor) converts now: remove it from draft-pairs-not-converted.txt")
            }
        }
        XCTAssertGreaterThan(converted, 30)
    }
}
