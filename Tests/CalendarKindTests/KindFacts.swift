import CalendarModel
import CalendarTestSupport
import Conversion
import Foundation

/// What detection says about one calendar, in the shape of the `.expected.json` fixtures.
struct CalendarFacts: Codable, Equatable {
    var title: String?
    var type: String
    var allowsContentModifications: Bool
    var color: String?
    var subscriptionURL: String?
    var refreshInterval: String?
    var events: Int
    var birthdays: [BirthdayFacts]
}

/// One birthday event's facts.
struct BirthdayFacts: Codable, Equatable {
    var uid: String?
    var occasion: String
    var contactIdentifier: String?
    var month: Int
    var day: Int
    var year: Int?
}

/// A fixture's expectation: the calendars detection finds, and where the input is when it is
/// not the sibling file (`corpus:<path>` under ../shared/corpus).
struct KindExpectation: Codable, Equatable {
    var input: String?
    var calendars: [CalendarFacts]
}

enum KindFacts {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The input file an expectation describes.
    static func input(for expectation: URL, _ value: KindExpectation) throws -> URL {
        if let input = value.input {
            if input.hasPrefix("corpus:") { return RoundTripCheck.corpusRoot.appendingPathComponent(String(input.dropFirst(7))) }
            return expectation.deletingLastPathComponent().appendingPathComponent(input)
        }
        let base = expectation.lastPathComponent.replacingOccurrences(of: ".expected.json", with: "")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: expectation.deletingLastPathComponent().path)
        guard let name = siblings.first(where: { $0.hasPrefix(base + ".") && !$0.hasSuffix(".expected.json") }) else {
            throw CalendarError(.inputMissing, file: expectation.path, "no input beside the expectation")
        }
        return expectation.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Reads a file through its format and the detection stage.
    static func facts(of url: URL) throws -> [CalendarFacts] {
        let converter = Converter()
        let source = try FileByteSource(path: url.path)
        var reader = try converter.makeReader(
            name: url.path, source: source, request: ConversionRequest(inputs: [url.path]), log: DiagnosticLog())
        var detection = CalendarKindDetection()
        var out: [CalendarFacts] = []
        func take(_ e: CalendarStreamElement) {
            switch e {
            case .beginCalendar(let c):
                out.append(
                    CalendarFacts(
                        title: c.title, type: c.kind.rawValue, allowsContentModifications: c.allowsContentModifications, color: c.color,
                        subscriptionURL: c.subscriptionURL, refreshInterval: c.refreshInterval.map(durationText), events: 0, birthdays: []))
            case .entry(.event(let event), _):
                out[out.count - 1].events += 1
                if let b = event.birthday {
                    out[out.count - 1].birthdays.append(
                        BirthdayFacts(
                            uid: event.item.uid, occasion: b.occasion.rawValue, contactIdentifier: b.contactIdentifier, month: b.month,
                            day: b.day, year: b.year))
                }
            default: break
            }
        }
        while let e = try reader.next() { try detection.process(e) { take($0) } }
        try detection.finish { take($0) }
        return out
    }

    static func durationText(_ d: CalendarDuration) -> String {
        var text = d.isNegative ? "-P" : "P"
        if d.weeks > 0 { text += "\(d.weeks)W" }
        if d.days > 0 { text += "\(d.days)D" }
        if d.hours + d.minutes + d.seconds > 0 {
            text +=
                "T" + (d.hours > 0 ? "\(d.hours)H" : "") + (d.minutes > 0 ? "\(d.minutes)M" : "") + (d.seconds > 0 ? "\(d.seconds)S" : "")
        }
        return text
    }
}
