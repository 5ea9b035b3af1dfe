import ArgumentParser
import EWSFormat

/// The EWS writer's options; they travel to the format as `formatSettings` values.
struct EWSOptions: ParsableArguments {
    @Option(
        name: .customLong("ews-request"),
        help: ArgumentHelp(
            "With -t ews: write a CreateItem request ('create', sendable to Exchange as it is) instead of a GetItem response ('response', the default).",
            valueName: "create|response"))
    var request: EWSWriterSettings.Document?

    /// The options as format settings.
    var formatSettings: [String: String] {
        EWSWriterSettings(document: request ?? .getItemResponse).formatSettings
    }
}

extension EWSWriterSettings.Document: ExpressibleByArgument {}
