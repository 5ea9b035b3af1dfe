/// The value data types of RFC 5545 §3.3, by their VALUE parameter names.
public enum ValueType: String, CaseIterable, Hashable, Sendable {
    case binary = "BINARY", boolean = "BOOLEAN", calAddress = "CAL-ADDRESS", date = "DATE"
    case dateTime = "DATE-TIME", duration = "DURATION", float = "FLOAT", integer = "INTEGER"
    case period = "PERIOD", recur = "RECUR", text = "TEXT", time = "TIME", uri = "URI"
    case utcOffset = "UTC-OFFSET"
    /// GEO's two floats separated by a semicolon (RFC 5545 §3.8.1.6); jCal writes it as a float pair.
    case geo = "GEO"

    /// The jCal/xCal spelling (RFC 7265 §3.6, RFC 6321 §3.6): lower-case.
    public var lowercaseName: String { rawValue.lowercased() }
}
