import CalendarModel
import TimeZones

/// The pipeline's time-zone step: runs `TimeZoneNormalizer` on every element.
public struct TimeZoneStage: ConversionStage {
    /// Output formats whose files carry VTIMEZONE components, so they get definitions built
    /// from current tz data.
    public static let formatsWithTimeZoneDefinitions: Set<String> = ["ics", "jcal", "xcal", "caldav"]

    private let normalizer: TimeZoneNormalizer

    /// A stage for one run; throws a usage error when the options name an unknown zone.
    public init(options: TimeZoneOptions, outputFormat: String, file: String, log: DiagnosticLog) throws {
        var options = options
        options.emitTimeZoneDefinitions = Self.formatsWithTimeZoneDefinitions.contains(outputFormat)
        normalizer = try TimeZoneNormalizer(options: options, file: file, log: log)
    }

    /// Names the input in the normalizer's warnings (a batch's stages see no input boundary).
    public mutating func beginInput(name: String) {
        normalizer.file = name
        // A TZID warning names the line that uses the TZID, found by reading the file again.
        let locator = ParameterLineLocator(path: name)
        normalizer.tzidLine = name == "-" ? nil : { tzid, line in locator.line(ofParameter: "TZID", value: tzid, inItemAt: line) }
    }

    /// Normalizes one element (see `TimeZoneNormalizer.process(_:emit:)`).
    public mutating func process(_ element: CalendarStreamElement, emit: (CalendarStreamElement) throws -> Void) throws {
        try normalizer.process(element, emit: emit)
    }

    /// Passes on items still waiting for a VTIMEZONE when the input ends.
    public mutating func finish(emit: (CalendarStreamElement) throws -> Void) throws {
        try normalizer.finish(emit: emit)
    }
}
