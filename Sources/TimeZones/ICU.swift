internal import CICUShim

/// The one place TimeZones calls into ICU: each shim call wrapped once, buffers handled here.
enum ICU {
    private static func string(_ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32($0.count)) }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// ICU's library version, e.g. `72.1`.
    static var version: String? { string { cp_icu_version($0, $1) } }

    /// The tz data release ICU carries in its own data, e.g. `2022e`.
    static var tzdataVersion: String? { string { cp_icu_tzdata_version($0, $1) } }

    /// The CLDR release ICU's own data comes from, e.g. `42.0` (its Windows zone table's).
    static var cldrVersion: String? { string { cp_icu_cldr_version($0, $1) } }

    /// CLDR's canonical id for a zone id or alias; nil when ICU does not know it.
    static func canonicalID(_ id: String) -> String? {
        var isSystem: Int32 = 0
        guard let result = string({ cp_icu_canonical_zone_id(id, $0, $1, &isSystem) }), isSystem == 1 else { return nil }
        return result
    }

    /// The IANA zone CLDR maps a Windows id to, for a region (`001` or nil = the default).
    static func ianaID(windows: String, region: String?) -> String? {
        string { buffer, capacity in
            if let region { return cp_icu_windows_to_iana(windows, region, buffer, capacity) }
            return cp_icu_windows_to_iana(windows, nil, buffer, capacity)
        }
    }

    /// The Windows id CLDR gives an IANA zone.
    static func windowsID(iana: String) -> String? { string { cp_icu_iana_to_windows(iana, $0, $1) } }

    /// CLDR's Windows ↔ IANA table: Windows id, region, IANA ids.
    static func windowsTable() -> [(windows: String, region: String, zones: [String])] {
        final class Rows { var rows: [(windows: String, region: String, zones: [String])] = [] }
        let rows = Rows()
        let context = Unmanaged.passUnretained(rows).toOpaque()
        _ = cp_icu_windows_table(
            { context, windows, region, ids in
                guard let context, let windows, let region, let ids else { return }
                let rows = Unmanaged<Rows>.fromOpaque(context).takeUnretainedValue()
                rows.rows.append(
                    (String(cString: windows), String(cString: region), String(cString: ids).split(separator: " ").map(String.init)))
            }, context)
        return withExtendedLifetime(rows) { rows.rows }
    }

    /// CLDR's golden zones: the representative zone of each metazone, in CLDR's spelling.
    static func goldenZones() -> [String] {
        final class Zones { var zones: [String] = [] }
        let zones = Zones()
        let context = Unmanaged.passUnretained(zones).toOpaque()
        _ = cp_icu_metazone_golden_zones(
            { context, _, zone in
                guard let context, let zone else { return }
                Unmanaged<Zones>.fromOpaque(context).takeUnretainedValue().zones.append(String(cString: zone))
            }, context)
        return withExtendedLifetime(zones) { zones.zones }
    }
}
