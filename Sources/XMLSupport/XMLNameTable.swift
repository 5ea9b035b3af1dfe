#if canImport(Glibc)
    import Glibc
#endif

/// The names a pull reader has met, found by the addresses libxml2 gives them. libxml2 keeps
/// names in its dictionary, so one name comes back at one address; the table still compares
/// the bytes on a hit, so an address reused for another name is never taken for the first.
struct XMLNameTable {
    /// A slot of the table: the pair of addresses and the name's number plus one (0: empty), in
    /// one array so that a probe reads one element.
    private struct Slot {
        var local: UInt
        var namespace: UInt
        var number: Int
    }

    /// Open addressing on the pair of addresses; a power of two in size, at most half full.
    private var slots = [Slot](repeating: Slot(local: 0, namespace: 0, number: 0), count: 64)
    private var used = 0
    /// The names by number, and where each one's bytes are in `bytes` (local name, then URI,
    /// each with its NUL).
    private var named: [XMLName] = []
    private var spans: [(start: Int, local: Int, namespace: Int)] = []
    private var bytes: [UInt8] = []

    /// How many names there are (their numbers are 0..<count).
    var count: Int { named.count }

    /// The name with this number.
    func name(_ number: Int) -> XMLName { named[number] }

    /// The number of the name at these C strings (nil for none).
    mutating func number(local: UnsafePointer<UInt8>?, namespace: UnsafePointer<UInt8>?) -> Int {
        let key = (local: Self.address(local), namespace: Self.address(namespace))
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Self.hash(key.local, key.namespace) & mask
            while slots[slot].number != 0 {
                if slots[slot].local == key.local && slots[slot].namespace == key.namespace {
                    let number = slots[slot].number - 1
                    if matches(number, local, namespace) { return number }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
        if let found { return found }
        let localBytes = Self.bytes(local)
        let namespaceBytes = Self.bytes(namespace)
        let name = XMLName(String(decoding: namespaceBytes, as: UTF8.self), String(decoding: localBytes, as: UTF8.self))
        // Two addresses may hold the same text (a name outside libxml2's dictionary): one number.
        let number = named.firstIndex(of: name) ?? named.count
        if number == named.count {
            named.append(name)
            spans.append((bytes.count, localBytes.count, namespaceBytes.count))
            bytes += localBytes
            bytes.append(0)
            bytes += namespaceBytes
            bytes.append(0)
        }
        let mask = slots.count - 1
        var slot = Self.hash(key.local, key.namespace) & mask
        while slots[slot].number != 0 { slot = (slot + 1) & mask }
        slots[slot] = Slot(local: key.local, namespace: key.namespace, number: number + 1)
        used += 1
        if used * 2 > slots.count { grow() }
        return number
    }

    /// Whether name `number` is the text at these addresses.
    private func matches(_ number: Int, _ local: UnsafePointer<UInt8>?, _ namespace: UnsafePointer<UInt8>?) -> Bool {
        let span = spans[number]
        return bytes.withUnsafeBufferPointer { all in
            Self.same(local, all.baseAddress! + span.start, span.local)
                && Self.same(namespace, all.baseAddress! + span.start + span.local + 1, span.namespace)
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(local: 0, namespace: 0, number: 0), count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry.number != 0 {
            var slot = Self.hash(entry.local, entry.namespace) & mask
            while slots[slot].number != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }

    private static func address(_ p: UnsafePointer<UInt8>?) -> UInt { p.map { UInt(bitPattern: $0) } ?? 0 }

    private static func hash(_ x: UInt, _ y: UInt) -> Int {
        let mixed = (x >> 3) &* 0x9E37_79B9_7F4A_7C15 ^ (y >> 3) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(bitPattern: mixed >> 20)
    }

    private static func bytes(_ p: UnsafePointer<UInt8>?) -> [UInt8] {
        guard let p else { return [] }
        var count = 0
        while p[count] != 0 { count += 1 }
        return Array(UnsafeBufferPointer(start: p, count: count))
    }

    /// Whether the C string `p` (nil: empty) is the `count` bytes (and a NUL) at `stored`.
    private static func same(_ p: UnsafePointer<UInt8>?, _ stored: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard let p else { return count == 0 }
        let a = UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self)
        return strcmp(a, UnsafeRawPointer(stored).assumingMemoryBound(to: CChar.self)) == 0
    }
}
