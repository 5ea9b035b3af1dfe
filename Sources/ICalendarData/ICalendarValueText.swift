/// RFC 5545's text of values that jCal and xCal write as structure (RFC 7265 §3.6, RFC 6321 §3.6):
/// both formats keep a value they cannot type in that text, as the ICS reader keeps it.
public enum ICalendarValueText {
    /// RFC 5545 §3.3.11 TEXT escaping.
    public static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// A rule's parts, in order, as RFC 5545's `NAME=a,b;…` (the values as they are: UNTIL in the basic form is
    /// the caller's).
    public static func recurrence(_ parts: [(name: String, values: [String])]) -> String {
        parts.map { $0.name + "=" + $0.values.joined(separator: ",") }.joined(separator: ";")
    }
}
