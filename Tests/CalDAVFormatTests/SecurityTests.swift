import CalendarModel
import Foundation
import XCTest

/// Billion-laughs and XXE documents are refused, through the library and through calport, as
/// CalDAV and as xCal: a clear error, nothing expanded, no output written, no file read.
final class SecurityTests: XCTestCase {
    static let attacks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("XMLSupportTests/Fixtures")

    func testLibraryRefusesEntityAttacks() throws {
        for name in ["billion-laughs.xml", "xxe-local-file.xml", "xxe-parameter-entity.xml"] {
            let bytes = try CalDAVTestSupport.bytes(Self.attacks.appendingPathComponent(name))
            for format in ["caldav", "xcal"] {
                XCTAssertThrowsError(try CalDAVTestSupport.read(bytes, format: format, name: name), "\(name) as \(format)") { error in
                    let message = (error as? CalendarError)?.diagnostic.message ?? ""
                    XCTAssertTrue(message.contains("document type declarations (<!DOCTYPE>) are refused"), "\(name) as \(format): \(error)")
                }
            }
        }
    }

    /// The entity would read a file that holds a marker; the refusal is the same whether the
    /// file exists or not, and the marker appears nowhere.
    func testXXENeverReadsTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET-MARKER".utf8).write(to: secret)
        var errors: [String] = []
        for target in [secret.path, directory.appendingPathComponent("absent.txt").path] {
            let doc = """
                <?xml version="1.0"?>
                <!DOCTYPE m [<!ENTITY s SYSTEM "file://\(target)">]>
                <multistatus xmlns="DAV:"><response><href>/c/&s;.ics</href></response></multistatus>
                """
            let input = directory.appendingPathComponent("in.xml")
            try Data(doc.utf8).write(to: input)
            let run = try CalportProcess.run(["convert", input.path, "-f", "caldav", "-t", "ics", "-o", "out.ics"], in: directory)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertFalse(run.stderr.contains("TOP-SECRET") || run.stdout.contains("TOP-SECRET"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.ics").path))
            errors.append(run.stderr.replacingOccurrences(of: input.path, with: "IN"))
        }
        XCTAssertEqual(errors[0], errors[1])
        XCTAssertTrue(errors[0].contains("IN:/: error: document type declarations (<!DOCTYPE>) are refused"), errors[0])
    }

    func testCalportRefusesBillionLaughsWithoutWritingOutput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calport-bl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Self.attacks.appendingPathComponent("billion-laughs.xml").path
        let run = try CalportProcess.run(["convert", input, "-t", "json", "-o", "out.json"], in: directory)
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("entity expansion"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path))
    }
}
