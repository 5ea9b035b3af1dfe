import ArgumentParser
import CalendarModel
import Conversion

/// `calport formats`: lists the registered formats, or their participant vocabularies.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "formats", abstract: "List the formats calport reads and writes.")

    @Flag(help: "Print every format's participant words (roles, statuses, types) as one table.")
    var vocabulary = false

    @OptionGroup var vocabularyOptions: VocabularyOptions

    func run() throws {
        if vocabulary {
            do {
                let overrides = try vocabularyOptions.mapFile.map { try VocabularyMapFile.load(path: $0) } ?? .none
                print(VocabularyTable(overrides: overrides).render(), terminator: "")
            } catch let error as CalendarError {
                throw ExitStatus.report(error)
            }
            return
        }
        for format in StandardFormats.registry.formats {
            let extensions = format.fileExtensions.map { "." + $0 }.joined(separator: " ")
            print("\(format.id)\t\(format.mediaType)\t\(extensions)\t\(format.summary)")
        }
    }
}
