import CalendarModel
import Conversion
import Foundation

/// Runs conversions into a scratch directory and reads the results back as text.
struct ConversionHarness {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Converts `input` with the request's options and returns the output text and the log.
    func convert(
        _ input: URL, to ext: String, birthdays: BirthdayHandling = .keep, leapDay: LeapDayRule? = nil,
        subscriptions: SubscriptionHandling = .keep, output name: String? = nil, force: Bool = false
    ) throws -> (text: String, log: DiagnosticLog) {
        let output = directory.appendingPathComponent(name ?? "out-\(UUID().uuidString).\(ext)")
        let log = DiagnosticLog()
        let request = ConversionRequest(
            inputs: [input.path], output: output.path, birthdays: birthdays, leapDay: leapDay, subscriptions: subscriptions, force: force)
        try Converter().run(request, log: log)
        return (String(decoding: try Data(contentsOf: output), as: UTF8.self), log)
    }

    /// The unfolded content lines of each VEVENT with a UID, by UID.
    static func events(in ics: String) -> [String: [String]] {
        let lines = ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        var out: [String: [String]] = [:]
        var current: [String]?
        for line in lines {
            if line == "BEGIN:VEVENT" {
                current = []
            } else if line == "END:VEVENT", let c = current {
                if let uid = c.first(where: { $0.hasPrefix("UID:") }) { out[String(uid.dropFirst(4)), default: []] += c }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return out
    }

    /// The value of the first property called `name` in content lines.
    static func value(_ name: String, in lines: [String]) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }) else { return nil }
        return line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]) }
    }
}
