import CalendarTestSupport
import Foundation
import XCTest

/// Debian's `chromium` run headless, as a person's browser would show a page: the DOM after
/// rendering, and a screenshot. `make deps` installs it where it is missing.
struct HeadlessChromium {
    /// What the rendered page shows, as `rendered_figures.py` reads it from the DOM.
    struct Page: Decodable {
        var figures: [String: Value]
        var calendars: [String: [String: Value]]
        var losses: [String: [String: Value]]
        var push: [String: [String: Value]]
        var marks: [Mark]
        var external: [String]
        var text: String
    }

    /// One timeline mark.
    struct Mark: Decodable {
        var cal: String?
        var calendar: String?
        var month: String
        var count: Int
        var title: String
    }

    /// A figure: a number where the text is one, else the text.
    enum Value: Decodable, Equatable {
        case number(Int), text(String)
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
        }
        var number: Int? { if case .number(let n) = self { n } else { nil } }
        var text: String? { if case .text(let t) = self { t } else { nil } }
    }

    let executable: String

    /// The browser, or a failure that says how to get it.
    static func find() throws -> HeadlessChromium {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return HeadlessChromium(executable: path)
        }
        // A failure, not a skip: the report's tests are only worth something when they run.
        throw NSError(
            domain: "HeadlessChromium", code: 1,
            userInfo: [NSLocalizedDescriptionKey: "no chromium: `make deps` installs Debian's chromium"])
    }

    /// Where screenshots are kept: `.build/report-artifacts/` in the repository.
    static var artifacts: URL {
        let folder = RoundTripCheck.repositoryRoot.appendingPathComponent(".build/report-artifacts")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The page's DOM after Chromium has loaded and rendered it.
    func renderedDOM(of page: URL) throws -> String {
        String(decoding: try run(["--dump-dom", page.absoluteString]), as: UTF8.self)
    }

    /// What the rendered page shows (figures, calendars, losses, marks, outside references).
    func renderedPage(_ page: URL) throws -> Page {
        let dom = try renderedDOM(of: page)
        XCTAssertTrue(dom.contains("calport migration report"), "Chromium rendered no report: \(dom.prefix(300))")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("rendered_figures.py")
        let json = try Self.run("/usr/bin/env", ["python3", script.path], stdin: Data(dom.utf8), timeout: 60)
        return try JSONDecoder().decode(Page.self, from: json)
    }

    /// Takes a screenshot of `page` (a window `width` wide and `height` tall) into the
    /// artifacts folder as `name`.png and prints where it is.
    @discardableResult
    func screenshot(of page: URL, name: String, width: Int = 1200, height: Int = 3200) throws -> URL {
        let file = Self.artifacts.appendingPathComponent(name + ".png")
        try? FileManager.default.removeItem(at: file)
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file.path)", page.absoluteString])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "no screenshot at \(file.path)")
        print("screenshot: \(file.path)")
        return file
    }

    private func run(_ arguments: [String]) throws -> Data {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("calport-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        // --no-sandbox: tests may run as root, where Chromium's sandbox refuses to start.
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--user-data-dir=\(profile.path)",
        ]
        return try Self.run(executable, common + arguments, stdin: nil, timeout: 120)
    }

    /// Runs a program to its end (killed after `timeout` seconds) and returns its standard output.
    static func run(_ executable: String, _ arguments: [String], stdin: Data?, timeout: TimeInterval) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        defer { deadline.cancel() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(
                domain: "HeadlessChromium", code: Int(process.terminationStatus),
                userInfo: [
                    NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)"
                ])
        }
        return data
    }
}
