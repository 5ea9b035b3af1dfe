import CalendarModel
import Conversion
import Foundation
import XCTest

/// A word no table knows is kept as it was on round trips and reported once per run, with the
/// place it was first seen.
final class UnknownWordReportTests: XCTestCase {
    func testEachUnknownWordIsReportedOncePerRunAcrossInputs() throws {
        let log = DiagnosticLog()
        var stage = UnknownWordReport(log: log)
        var passed = 0
        func event(_ role: String, _ status: String) -> CalendarStreamElement {
            var e = Event(item: CalendarItem(uid: UUID().uuidString))
            e.item.attendees = [Participant(url: "mailto:a@example.com", role: .other(role), status: .other(status))]
            e.item.alarms = [Alarm(action: .email, attendees: [Participant(url: "mailto:b@example.com", type: .other("X-BOT"))])]
            return .entry(.event(e), line: 7)
        }
        stage.beginInput(name: "a.ics")
        try stage.process(event("X-MODERATOR", "X-ON-HOLD")) { _ in passed += 1 }
        try stage.process(event("X-MODERATOR", "X-ON-HOLD")) { _ in passed += 1 }
        stage.beginInput(name: "b.ics")
        try stage.process(event("X-MODERATOR", "X-LATE")) { _ in passed += 1 }
        XCTAssertEqual(passed, 3)
        XCTAssertEqual(
            log.diagnostics.map(\.description),
            [
                "a.ics:7: warning: participant role 'X-MODERATOR' is in no vocabulary; kept as written (give it a meaning with --map FILE)",
                "a.ics:7: warning: participant status 'X-ON-HOLD' is in no vocabulary; kept as written (give it a meaning with --map FILE)",
                "a.ics:7: warning: participant type 'X-BOT' is in no vocabulary; kept as written (give it a meaning with --map FILE)",
                "b.ics:7: warning: participant status 'X-LATE' is in no vocabulary; kept as written (give it a meaning with --map FILE)",
            ])
    }

    func testTheReportSaysWhenTheOutputCannotKeepTheWord() throws {
        let log = DiagnosticLog()
        var stage = UnknownWordReport(log: log, output: StandardFormats.registry.format(id: "csv-outlook"))
        var e = Event(item: CalendarItem(uid: "u"))
        e.item.attendees = [Participant(url: "mailto:a@example.com", role: .other("X-MODERATOR"))]
        stage.beginInput(name: "a.ics")
        try stage.process(.entry(.event(e), line: 4)) { _ in }
        XCTAssertEqual(
            log.diagnostics.map(\.description),
            [
                "a.ics:4: warning: participant role 'X-MODERATOR' is in no vocabulary; csv-outlook cannot keep it as written (give it a meaning with --map FILE)"
            ])
    }

    func testUnknownWordsSurviveICSToJSONToICS() throws {
        let ics = StandardFormats.registry.format(id: "ics")!
        let json = StandardFormats.registry.format(id: "json")!
        let jsonl = StandardFormats.registry.format(id: "jsonl")!
        let back = try ParticipantHops.hop(ParticipantHops.sampleEvent(), through: [ics, json, jsonl, ics])
        let other = ParticipantHops.participant("mailto:other@example.com", in: back)
        XCTAssertEqual(other?.role, .other("X-MODERATOR"))
        XCTAssertEqual(other?.status, .other("X-ON-HOLD"))
        XCTAssertEqual(other?.type, .other("X-VEHICLE"))
    }

    func testAnUnknownWordThatLooksLikeAJSONWordStaysUnknownInJSON() throws {
        // ICS "chair" in lower case is CHAIR (case-insensitive); but an ICS word "required-ish"
        // must not become JSON's "required", and JSON's own "required" must stay EventKit's.
        var e = ParticipantHops.sampleEvent()
        e.item.attendees = [Participant(url: "mailto:x@example.com", role: .other("required"))]
        let json = StandardFormats.registry.format(id: "json")!
        let back = try ParticipantHops.hop(e, through: [json])
        XCTAssertEqual(back.item.attendees.first?.role, .other("required"))
    }
}
