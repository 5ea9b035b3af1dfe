import CalendarModel

/// Finds items of different inputs written into one output under the same UID (+
/// RECURRENCE-ID). Without `--merge` both are written, as documented, and most calendar
/// programs then keep only one of them on import, so each pair is reported with both places.
///
/// Memory: like `MergeIndex`, one key and the first place per distinct item — the UID's text,
/// which shares the reader's storage, and the input's name, which shares the batch's — never the
/// items. Runs with a single input never use it, so the one-file hot path does not pay for it.
struct DuplicateUIDCheck {
    /// The output by number and the RECURRENCE-ID as its value: hashing them costs a fraction
    /// of hashing a path and formatting a date per item.
    private struct Key: Hashable {
        var output: Int
        var uid: String
        var recurrenceID: CalendarDateTime?
    }

    private struct Place {
        var input: Int
        var line: Int
    }

    private var first: [Key: Place] = [:]
    /// Outputs by number; the last one is asked first, since items come in runs per output.
    private var outputs: [String: Int] = [:]
    private var lastOutput: (path: String, number: Int)?
    /// The inputs' names, to describe places.
    let inputNames: [String]
    /// Duplicates found so far.
    private(set) var found = 0
    /// After this many, further duplicates are counted and reported once, so an archive
    /// converted together with its own copy does not print a warning per item.
    static let warningLimit = 100

    init(inputNames: [String]) {
        self.inputNames = inputNames
    }

    /// Records an item written to `output` from input `input` at `line`; warns when an item of
    /// another input went to the same output under the same key.
    mutating func see(_ entry: CalendarEntry, input: Int, line: Int, output: String, log: DiagnosticLog) {
        guard let item = entry.item, let uid = item.uid else { return }
        let number: Int
        if let last = lastOutput, last.path == output {
            number = last.number
        } else {
            number = outputs[output] ?? outputs.count
            outputs[output] = number
            lastOutput = (output, number)
        }
        let key = Key(output: number, uid: uid, recurrenceID: item.recurrenceID)
        // One hash per item: a new key (nearly every item) is stored by the lookup itself; a
        // repeated one gets its first place back.
        guard let earlier = first.updateValue(Place(input: input, line: line), forKey: key) else { return }
        first[key] = earlier
        guard earlier.input != input else { return }
        found += 1
        guard found <= Self.warningLimit else { return }
        let recurrence = key.recurrenceID.map { " (RECURRENCE-ID \(MergeIndex.text($0)))" } ?? ""
        log.warning(
            file: inputNames[input], line: line,
            "UID \(uid)\(recurrence) is also in \(inputNames[earlier.input]):\(earlier.line); both are written to \(output) (--merge keeps the newest version only)"
        )
    }

    /// Reports how many duplicates went beyond the warning limit, if any.
    func finish(log: DiagnosticLog) {
        guard found > Self.warningLimit else { return }
        log.warning(
            file: inputNames.joined(separator: ","),
            "\(found - Self.warningLimit) more items share a UID (+ RECURRENCE-ID) with an item of another input in the same output; both are written (--merge keeps the newest version only)"
        )
    }
}
