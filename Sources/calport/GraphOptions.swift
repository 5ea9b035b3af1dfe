import ArgumentParser

/// The Graph format's options; they travel to the format as `formatSettings` values.
struct GraphOptions: ParsableArguments {
    @Flag(name: .customLong("graph-batch"), help: "With -t graph: write JSON $batch request bodies (20 POST /me/events requests each, one a line).")
    var batch = false

    /// The options as format settings (`GraphFormat.batchSetting`).
    var formatSettings: [String: String] {
        batch ? ["graph-batch": "true"] : [:]
    }
}
