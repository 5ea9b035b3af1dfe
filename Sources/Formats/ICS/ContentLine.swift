import CalendarModel
import ICalendarData

/// One unfolded content line (RFC 5545 §3.1): name, parameters and the raw value.
///
/// The value is kept as the bytes it was parsed from, and a String is made only for a value
/// that needs one: dates, numbers and the words of enumerated properties are read from the
/// bytes (a String per value cost more than the rest of the line). Those bytes point into the
/// buffer the line was parsed from, so a parsed line must not outlive the call that parsed
/// it (`materializingValue()` makes one that may).
struct ContentLine {
    /// The raw value: its bytes (valid UTF-8), or a String when one was made of them already
    /// (while parsing, or given as one). One enum rather than two fields keeps the line small
    /// enough to be passed in registers, not copied through memory.
    enum RawValue {
        case bytes(UnsafeBufferPointer<UInt8>)
        case text(String)
    }

    /// Upper-cased name.
    var name: String
    var parameters: [Parameter]
    var rawValue: RawValue
    /// The physical line the content line started on (1-based).
    var line: Int
    /// The property table's entry for `name`, looked up once when the line is parsed.
    var info: PropertyInfo

    init(name: String, parameters: [Parameter], value: String, line: Int, info: PropertyInfo? = nil) {
        self.init(name: name, parameters: parameters, rawValue: .text(value), line: line, info: info ?? PropertyTable.info(name))
    }

    /// A line whose value is `rawValue` (escapes not yet undone); bytes are borrowed from the
    /// caller's buffer.
    init(name: String, parameters: [Parameter], rawValue: RawValue, line: Int, info: PropertyInfo) {
        self.name = name
        self.parameters = parameters
        self.rawValue = rawValue
        self.line = line
        self.info = info
    }

    /// The value exactly as it stood after the colon (escapes not yet undone).
    var value: String {
        switch rawValue {
        case .text(let text): text
        case .bytes(let bytes): CommonWord.string(bytes) ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value when a String was made of it while parsing (or it was given as one).
    var valueText: String? {
        if case .text(let text) = rawValue { return text }
        return nil
    }

    /// Calls `body` with the value's UTF-8 bytes (valid UTF-8).
    @inline(__always)
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch rawValue {
        case .bytes(let bytes): return try body(bytes)
        case .text(var text): return try text.withUTF8(body)
        }
    }

    /// The same line holding its value as a String, so it may outlive the buffer it was
    /// parsed from.
    func materializingValue() -> ContentLine {
        var copy = self
        copy.rawValue = .text(value)
        return copy
    }
}
