import CalendarModel

/// One unfolded content line (RFC 5545 §3.1): name, parameters and the raw value text.
struct ContentLine {
    /// Upper-cased name.
    var name: String
    var parameters: [Parameter]
    /// The value exactly as it stood after the colon (escapes not yet undone).
    var value: String
    /// The physical line the content line started on (1-based).
    var line: Int
}
