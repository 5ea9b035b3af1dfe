import CalendarModel
import JSONCoding

/// Graph's member names as the REST API spells them (camelCase). The Graph PowerShell SDK's
/// objects, piped through `ConvertTo-Json`, spell them in PascalCase (`Subject`, `ICalUId`,
/// `Start.DateTime`) and put what its model lacks in `AdditionalProperties`; reading both
/// through one spelling keeps the decoder to one table of names.
enum GraphMembers {
    /// The object with REST spellings; camelCase input is returned as it is (no copy).
    static func normalized(_ o: JSONObject) -> JSONObject {
        guard o.members.contains(where: { isPascalCase($0.key) }) else { return o }
        return rewritten(o)
    }

    private static func isPascalCase(_ key: String) -> Bool {
        guard let first = key.utf8.first else { return false }
        return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
    }

    private static func rewritten(_ o: JSONObject) -> JSONObject {
        var result = JSONObject()
        for m in o.members {
            if m.key == "AdditionalProperties" {
                // The SDK's bag of members its model does not type, already spelled as Graph sent them.
                for extra in m.value.objectValue?.members ?? [] where result[extra.key] == nil {
                    result.append(extra.key, rewritten(extra.value))
                }
                continue
            }
            result.set(camelCase(m.key), rewritten(m.value))
        }
        return result
    }

    private static func rewritten(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let o): .object(rewritten(o))
        case .array(let a): .array(a.map(rewritten))
        default: v
        }
    }

    /// `ICalUId` → `iCalUId`, `OriginalStartTimeZone` → `originalStartTimeZone`.
    static func camelCase(_ key: String) -> String {
        guard isPascalCase(key) else { return key }
        return key.prefix(1).lowercased() + key.dropFirst()
    }
}
