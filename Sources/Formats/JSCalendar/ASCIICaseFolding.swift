/// The case-insensitive comparisons the participant mapping makes with `lowercased()`, made
/// on the strings' bytes when they are ASCII (addresses nearly always are): lowercasing made
/// two new strings per participant, and walking `String.UTF8View` by index cost as much.
enum ASCIICaseFolding {
    static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Whether `(prefix + a).lowercased() == b.lowercased()`.
    static func equal(_ a: String, _ b: String, after prefix: StaticString = "") -> Bool {
        asciiEqual(a, b, after: prefix) ?? ("\(prefix)\(a)".lowercased() == b.lowercased())
    }

    /// The same on bytes; nil when `a` or `b` is not ASCII (lowercasing may then change
    /// lengths, so only `lowercased()` says).
    private static func asciiEqual(_ a: String, _ b: String, after prefix: StaticString) -> Bool? {
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b -> Bool? in
                guard !a.contains(where: { $0 >= 0x80 }), !b.contains(where: { $0 >= 0x80 }) else { return nil }
                let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                guard p.count + a.count == b.count else { return false }
                for i in 0..<p.count where lower(p[i]) != lower(b[i]) { return false }
                for i in 0..<a.count where lower(a[i]) != lower(b[p.count + i]) { return false }
                return true
            }
        }
    }

    /// `text.lowercased()`, the same string when it is ASCII without capitals.
    static func lowercased(_ text: String) -> String {
        var t = text
        let unchanged = t.withUTF8 { !$0.contains { $0 >= 0x80 || $0 &- 0x41 < 26 } }
        return unchanged ? text : text.lowercased()
    }
}
