import ArgumentParser
import CalendarModel
import Conversion

/// `calport formats`: lists the registered formats.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "formats", abstract: "List the formats calport reads and writes.")

    func run() throws {
        for format in StandardFormats.registry.formats {
            let extensions = format.fileExtensions.map { "." + $0 }.joined(separator: " ")
            print("\(format.id)\t\(format.mediaType)\t\(extensions)\t\(format.summary)")
        }
    }
}
