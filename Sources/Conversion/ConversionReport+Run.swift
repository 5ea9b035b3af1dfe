import Foundation

extension ConversionReport {
    /// The run a report is about: what was typed (without secrets), when, for how long, by
    /// which calport.
    public struct Run: Codable, Sendable, Equatable {
        /// The command line, program name first, with secrets masked (`SecretRedaction`).
        public var commandLine: [String]
        /// When the run started, ISO 8601 in UTC (`2025-01-31T09:15:00Z`).
        public var startedAt: String
        /// Wall-clock seconds from start to the report.
        public var durationSeconds: Double
        /// calport's version.
        public var calportVersion: String

        /// A run started at `start` with `arguments` (masked here, so no caller can forget).
        public init(arguments: [String], start: Date, durationSeconds: Double = 0, calportVersion: String = CalPortVersion.current) {
            self.commandLine = SecretRedaction.commandLine(arguments)
            self.startedAt = Self.timestamp(start)
            self.durationSeconds = durationSeconds
            self.calportVersion = calportVersion
        }

        /// The same text as `ISO8601DateFormatter`'s internet date-time in UTC, without the ICU
        /// formatter that one builds on each use (13% of a fuzz target's time, a run per input).
        static func timestamp(_ date: Date) -> String {
            date.formatted(Date.ISO8601FormatStyle())
        }
    }
}
