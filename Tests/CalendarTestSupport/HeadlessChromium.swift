import Foundation

/// Debian's `chromium` run headless, as a person's browser would show a page: the DOM after
/// rendering, and a screenshot. `make deps` installs it where it is missing. Shared by the
/// report's tests and the live CalDAV tests (a push's page against its JSON report).
public struct HeadlessChromium {
    /// What the rendered page shows, as `rendered_figures.py` reads it from the DOM.
    public struct Page: Decodable {
        /// Every `data-figure` outside a row, by its key.
        public var figures: [String: Value]
        /// The calendar table's rows (`data-cal`): index → figures.
        public var calendars: [String: [String: Value]]
        /// The losses (`data-loss`): field → figures.
        public var losses: [String: [String: Value]]
        /// The CalDAV section's rows (`data-caldav`): index → figures.
        public var calDAV: [String: [String: Value]]
        /// The timeline's marks.
        public var marks: [Mark]
        /// References that would reach outside the page.
        public var external: [String]
        /// The page's text.
        public var text: String
    }

    /// One timeline mark.
    public struct Mark: Decodable {
        /// The calendar's row index.
        public var cal: String?
        /// The calendar's title.
        public var calendar: String?
        /// The month's label.
        public var month: String
        /// Events starting that month.
        public var count: Int
        /// The mark's `<title>`.
        public var title: String
    }

    /// A figure: a number where the text is one, else the text.
    public enum Value: Decodable, Equatable {
        case number(Int), text(String)
        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
        }
        /// The figure as a number, when it is one.
        public var number: Int? { if case .number(let n) = self { n } else { nil } }
        /// The figure as text, when it is no number.
        public var text: String? { if case .text(let t) = self { t } else { nil } }
    }

    /// The browser's path.
    public let executable: String

    /// The browser, or a failure that says how to get it.
    public static func find() throws -> HeadlessChromium {
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
    public static var artifacts: URL {
        let folder = RoundTripCheck.repositoryRoot.appendingPathComponent(".build/report-artifacts")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The page's DOM after Chromium has loaded and rendered it.
    public func renderedDOM(of page: URL) throws -> String {
        String(decoding: try run(["--dump-dom", page.absoluteString]), as: UTF8.self)
    }

    /// What the rendered page shows (figures, calendars, losses, marks, outside references).
    public func renderedPage(_ page: URL) throws -> Page {
        let dom = try renderedDOM(of: page)
        guard dom.contains("calport migration report") else {
            throw NSError(
                domain: "HeadlessChromium", code: 2,
                userInfo: [NSLocalizedDescriptionKey: "Chromium rendered no report: \(dom.prefix(300))"])
        }
        return try Self.figures(ofPage: dom)
    }

    /// What a page's HTML shows, read by `rendered_figures.py` (no browser: for the page's own text).
    public static func figures(ofPage html: String) throws -> Page {
        let json = try run("/usr/bin/env", ["python3", figuresScript.path], stdin: Data(html.utf8), timeout: 60)
        return try JSONDecoder().decode(Page.self, from: json)
    }

    /// The script that reads the figures from a DOM, beside this file.
    static let figuresScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("rendered_figures.py")

    /// Takes a screenshot of `page` (a window `width` wide and `height` tall) into the
    /// artifacts folder as `name`.png and prints where it is.
    @discardableResult
    public func screenshot(of page: URL, name: String, width: Int = 1200, height: Int = 3200) throws -> URL {
        let file = Self.artifacts.appendingPathComponent(name + ".png")
        try? FileManager.default.removeItem(at: file)
        _ = try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file.path)", page.absoluteString])
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw NSError(domain: "HeadlessChromium", code: 3, userInfo: [NSLocalizedDescriptionKey: "no screenshot at \(file.path)"])
        }
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
    public static func run(_ executable: String, _ arguments: [String], stdin: Data?, timeout: TimeInterval) throws -> Data {
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
