import CalendarModel
import Foundation

/// Reads a `--map FILE`: participant words to add to or change in the format vocabularies,
/// without a rebuild.
///
/// ```json
/// {
///   "roles":    { "X-MODERATOR": "chair" },
///   "statuses": { "X-ON-HOLD": "tentative" },
///   "types":    { "X-VEHICLE": "resource" },
///   "formats":  { "ics": { "roles": { "MODERATOR": "chair" } } }
/// }
/// ```
/// Top-level words apply to every format; `formats` holds words for one format id. A value is
/// an EventKit case name (`nonParticipant`) or display name (`Non Participant`).
public enum VocabularyMapFile {
    /// The overrides a map file holds; errors name the file and the JSON path.
    public static func load(path: String, registry: FormatRegistry = StandardFormats.registry) throws -> VocabularyOverrides {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalendarError(.inputMissing, file: path, "cannot read the vocabulary map")
        }
        return try parse(data, name: path, registry: registry)
    }

    /// The overrides in a map file's bytes.
    public static func parse(_ data: Data, name: String, registry: FormatRegistry = StandardFormats.registry) throws -> VocabularyOverrides
    {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CalendarError(.usage, file: name, "the vocabulary map is not JSON: \(error.localizedDescription)")
        }
        guard let object = root as? [String: Any] else { throw CalendarError(.usage, file: name, location: "/", "expected an object") }
        var overrides = VocabularyOverrides()
        overrides.everyFormat = try words(object, name: name, path: "", allowFormats: true)
        if let formats = object["formats"] {
            guard let formats = formats as? [String: Any] else {
                throw CalendarError(.usage, file: name, location: "/formats", "expected an object of format ids")
            }
            for (id, value) in formats {
                guard registry.format(id: id) != nil else {
                    throw CalendarError(.usage, file: name, location: "/formats/\(id)", "unknown format id '\(id)' (see `calport formats`)")
                }
                guard let table = value as? [String: Any] else {
                    throw CalendarError(.usage, file: name, location: "/formats/\(id)", "expected an object")
                }
                overrides.byFormat[id.lowercased()] = try words(table, name: name, path: "/formats/\(id)", allowFormats: false)
            }
        }
        return overrides
    }

    private static func words(_ object: [String: Any], name: String, path: String, allowFormats: Bool) throws -> VocabularyOverrides.Words {
        let known: Set<String> = allowFormats ? ["roles", "statuses", "types", "formats"] : ["roles", "statuses", "types"]
        if let stray = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw CalendarError(
                .usage, file: name, location: "\(path)/\(stray)", "unknown member; expected \(known.sorted().joined(separator: ", "))")
        }
        var words = VocabularyOverrides.Words()
        words.roles = try table(
            object["roles"], name: name, path: path + "/roles", values: ParticipantRole.eventKitCases, caseName: caseName)
        words.statuses = try table(
            object["statuses"], name: name, path: path + "/statuses", values: ParticipantStatus.eventKitCases, caseName: caseName)
        words.types = try table(
            object["types"], name: name, path: path + "/types", values: ParticipantType.eventKitCases, caseName: caseName)
        return words
    }

    private static func table<T>(_ value: Any?, name: String, path: String, values: [T], caseName: (T) -> String) throws -> [String: T]
    where T: CustomEventKitNamed {
        guard let value else { return [:] }
        guard let object = value as? [String: Any] else {
            throw CalendarError(.usage, file: name, location: path, "expected an object of words")
        }
        var out: [String: T] = [:]
        for (word, target) in object {
            guard !word.isEmpty else { throw CalendarError(.usage, file: name, location: path, "a word cannot be empty") }
            guard let target = target as? String else {
                throw CalendarError(.usage, file: name, location: "\(path)/\(word)", "expected an EventKit name")
            }
            let folded = target.lowercased().filter { $0 != " " }
            guard
                let v = values.first(where: {
                    caseName($0).lowercased() == folded || $0.eventKitName.lowercased().filter({ $0 != " " }) == folded
                })
            else {
                let choices = values.map(caseName).joined(separator: ", ")
                throw CalendarError(.usage, file: name, location: "\(path)/\(word)", "'\(target)' is not one of \(choices)")
            }
            out[word] = v
        }
        return out
    }

    /// EventKit's case name (`nonParticipant`) for a value.
    static func caseName<T: CustomEventKitNamed>(_ value: T) -> String {
        let display = value.eventKitName.split(separator: " ")
        return (display.first.map { $0.lowercased() } ?? "") + display.dropFirst().joined()
    }
}

/// A participant value with EventKit's display name.
protocol CustomEventKitNamed {
    var eventKitName: String { get }
}

extension ParticipantRole: CustomEventKitNamed {}
extension ParticipantStatus: CustomEventKitNamed {}
extension ParticipantType: CustomEventKitNamed {}
