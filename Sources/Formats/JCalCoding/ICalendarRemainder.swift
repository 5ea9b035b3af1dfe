import CalendarModel
import ICalendarData
import JCalCoding
import JSONCoding

/// What a JSON format cannot say about an item's iCalendar source, kept beside the item so that
/// ICS → that format → ICS loses nothing: JSCalendar's vendor member `calport:iCalendar` (RFC 8984
/// §3.3 allows vendor members), Graph's extended property. It is found by comparison, not by
/// rule: the writer decodes what it wrote, maps it back to iCalendar, and for every property
/// (and sub-component) name whose instances differ from the source, keeps the source's
/// instances here. Reading replaces the instances made from the format's fields with these.
///
/// In JSON: `{"replaces": ["duration"], "properties": [jCal…], "components": [jCal…]}`, where
/// `replaces` names what the source did not have at all.
public struct ICalendarRemainder: Equatable {
    /// Upper-case names whose instances made from JSCalendar fields are dropped though the
    /// source had none; `*` drops everything made from fields (the writer's last resort).
    public var replaces: [String] = []
    /// The source's instances of the names that differ.
    public var properties: [Property] = []
    /// The source's sub-components of the names that differ.
    public var components: [Component] = []

    /// Whether nothing differs.
    public var isEmpty: Bool { replaces.isEmpty && properties.isEmpty && components.isEmpty }

    /// For each name, in order of first appearance in `original` then `reconstructed`: nothing
    /// when both hold the same instances in the same order, else the name in `replaces` (the
    /// original has none) or the original's instances in `kept`. Each instance is visited once
    /// and no per-name arrays are built: this runs for every item a JSON writer checks. Names
    /// are compared by a hash of their bytes first: most pairs differ, and comparing two
    /// different Strings cost a call each (most of a Graph body's check). The names come from
    /// the caller, which knows the type, read in place (`name`): taken out of the arrays in here
    /// by a key path each instance was copied and released, and arrays of the names cost two
    /// allocations and a retain and release of each name a comparison.
    ///
    /// `same` compares two instances of one name in place (the caller knows which fields are
    /// left to compare): read out of the arrays for `==`, both were copied and destroyed, ~180k
    /// Property copies for a Graph write of 10k events.
    static func differences<T>(
        _ original: [T], _ reconstructed: [T], name: (UnsafePointer<T>) -> String, same: (UnsafePointer<T>, UnsafePointer<T>) -> Bool,
        replaces: inout [String], kept: inout [T]
    ) {
        original.withUnsafeBufferPointer { o in
            reconstructed.withUnsafeBufferPointer { r in
                differences(
                    o, r, name: name, same: same, replaces: &replaces,
                    keep: { i, rest in
                        // Room for the rest of the list at once: grown one by one, the kept list
                        // was reallocated ~5 times an item.
                        if kept.isEmpty { kept.reserveCapacity(rest) }
                        kept.append(o[i])
                    })
            }
        }
    }

    /// `differences` for an `original` list the caller no longer needs, which becomes the kept
    /// list: the kept instances are moved to its front and the rest dropped, where copying
    /// each (a recurrence rule's worth of bytes and a retain of each part, then a release of
    /// both copies) cost ~400 instructions, and a Graph write keeps ~10 an event.
    static func differences<T>(
        taking original: inout [T], _ reconstructed: [T], name: (UnsafePointer<T>) -> String,
        same: (UnsafePointer<T>, UnsafePointer<T>) -> Bool, replaces: inout [String]
    ) {
        var keptIndices: [Int] = []
        original.withUnsafeBufferPointer { o in
            reconstructed.withUnsafeBufferPointer { r in
                differences(
                    o, r, name: name, same: same, replaces: &replaces,
                    keep: { i, rest in
                        if keptIndices.isEmpty { keptIndices.reserveCapacity(rest) }
                        keptIndices.append(i)
                    })
            }
        }
        keepOnly(keptIndices, of: &original)
    }

    /// Reorders `list` so that it holds the elements at `indices`, in their order, and no
    /// other: they are swapped into place (no copy, no retain) and the rest destroyed.
    private static func keepOnly<T>(_ indices: [Int], of list: inout [T]) {
        let (n, k) = (list.count, indices.count)
        guard k > 0 else {
            list = []
            return
        }
        // The position of each original element, and the original element at each position.
        let position = UnsafeMutablePointer<Int>.allocate(capacity: 2 * n)
        let element = position + n
        defer { position.deallocate() }
        for i in 0..<n {
            position[i] = i
            element[i] = i
        }
        list.withUnsafeMutableBufferPointer { buffer in
            for j in 0..<k {
                let e = indices[j]
                let p = position[e]
                guard p != j else { continue }
                buffer.swapAt(j, p)
                let displaced = element[j]
                position[displaced] = p
                element[p] = displaced
                position[e] = j
                element[j] = e
            }
        }
        list.removeLast(n - k)
    }

    private static func differences<T>(
        _ original: UnsafeBufferPointer<T>, _ reconstructed: UnsafeBufferPointer<T>, name instanceName: (UnsafePointer<T>) -> String,
        same sameInstance: (UnsafePointer<T>, UnsafePointer<T>) -> Bool, replaces: inout [String],
        keep: (_ index: Int, _ rest: Int) -> Void
    ) {
        // FNV-1a, over the contiguous bytes (iterating `utf8` cost ~3x as much).
        func key(_ n: String) -> UInt64 {
            var n = n
            return n.withUTF8 { bytes in
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
                return h
            }
        }
        // Keys and done marks of both lists, and the matches of a name, in buffers of their own:
        // the loops below go over the lists once a name (~16 instances a side for an event), and
        // an array's checks and growth doubled their cost.
        // One allocation holds the three (most lists are short: three cost more than filling
        // them), and none is made for two empty lists (an event's sub-components, mostly).
        let (no, nr) = (original.count, reconstructed.count)
        guard no + nr > 0 else { return }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8 &* (2 &* no &+ nr) &+ (no &+ nr), alignment: 8)
        defer { memory.deallocate() }
        let keys = memory.bindMemory(to: UInt64.self, capacity: no + nr)
        let matches = (memory + 8 &* (no &+ nr)).bindMemory(to: Int.self, capacity: no)
        let done = (memory + 8 &* (2 &* no &+ nr)).bindMemory(to: Bool.self, capacity: no + nr)
        let (o, r) = (original.baseAddress, reconstructed.baseAddress)
        func originalName(_ i: Int) -> String { instanceName(o! + i) }
        func reconstructedName(_ j: Int) -> String { instanceName(r! + j) }
        for i in 0..<no { keys[i] = key(originalName(i)) }
        for j in 0..<nr { keys[no + j] = key(reconstructedName(j)) }
        done.initialize(repeating: false, count: no + nr)
        func visit(_ n: String, _ nk: UInt64, originalFrom: Int, reconstructedFrom: Int) {
            var matchCount = 0
            for i in originalFrom..<no where !done[i] && keys[i] == nk && originalName(i) == n {
                done[i] = true
                matches[matchCount] = i
                matchCount += 1
            }
            var same = true
            var k = 0
            for j in reconstructedFrom..<nr where !done[no + j] && keys[no + j] == nk && reconstructedName(j) == n {
                done[no + j] = true
                if same { same = k < matchCount && sameInstance(original.baseAddress! + matches[k], reconstructed.baseAddress! + j) }
                k += 1
            }
            if same && k == matchCount { return }
            if matchCount == 0 {
                replaces.append(n)
            } else {
                for m in 0..<matchCount { keep(matches[m], no - originalFrom) }
            }
        }
        for i in 0..<no where !done[i] { visit(originalName(i), keys[i], originalFrom: i, reconstructedFrom: 0) }
        for j in 0..<nr where !done[no + j] { visit(reconstructedName(j), keys[no + j], originalFrom: no, reconstructedFrom: j) }
    }

    /// The remainder that turns `reconstructed` back into `original`.
    public static func between(original: [Property], reconstructed: [Property]) -> ICalendarRemainder {
        var r = ICalendarRemainder()
        differences(
            original, reconstructed, name: { $0.pointee.name }, same: sameValueAndParameters, replaces: &r.replaces,
            kept: &r.properties)
        return r
    }

    /// `between(original:reconstructed:)` for an `original` tree made for the comparison alone:
    /// its property list becomes the kept one (`differences(taking:…)`).
    static func between(taking original: inout Component, reconstructed: Component) -> ICalendarRemainder {
        var r = ICalendarRemainder()
        differences(
            taking: &original.properties, reconstructed.properties, name: { $0.pointee.name }, same: sameValueAndParameters,
            replaces: &r.replaces)
        swap(&r.properties, &original.properties)
        r.addComponentDifferences(original.components, reconstructed.components)
        return r
    }

    /// The remainder between two components' properties and sub-components.
    public static func between(original: Component, reconstructed: Component) -> ICalendarRemainder {
        var r = between(original: original.properties, reconstructed: reconstructed.properties)
        r.addComponentDifferences(original.components, reconstructed.components)
        return r
    }

    /// Two properties of one name (names are equal here): the values and parameters are what is left.
    private static func sameValueAndParameters(_ a: UnsafePointer<Property>, _ b: UnsafePointer<Property>) -> Bool {
        a.pointee.value == b.pointee.value && a.pointee.parameters == b.pointee.parameters
    }

    /// Sub-components are kept whole: one that differs in anything is kept as it was.
    private mutating func addComponentDifferences(_ original: [Component], _ reconstructed: [Component]) {
        Self.differences(
            original, reconstructed, name: { $0.pointee.name }, same: { $0.pointee == $1.pointee }, replaces: &replaces,
            kept: &components)
    }

    /// `properties` with this remainder applied.
    public func applied(to properties: [Property]) -> [Property] {
        if replaces.contains("*") { return self.properties }
        return Self.dropping(replaces + self.properties.map(\.name), from: properties, name: \.name) + self.properties
    }

    /// `items` without those whose name is in `names`. Readers apply a remainder to every item,
    /// and a remainder names a few (~10): looking through them costs less than hashing every
    /// name into a Set, which is kept for the rare long list (a quadratic look would not do).
    private static func dropping<T>(_ names: [String], from items: [T], name: (T) -> String) -> [T] {
        guard !names.isEmpty else { return items }
        let dropped = NameFilter(names)
        return items.filter { !dropped.contains(name($0)) }
    }

    /// `component` with this remainder applied.
    public func applied(to component: Component) -> Component {
        var c = component
        c.properties = applied(to: c.properties)
        if replaces.contains("*") {
            c.components = components
            return c
        }
        c.components = Self.dropping(replaces + components.map(\.name), from: c.components, name: \.name) + components
        return c
    }

    /// The entry `mapper` makes of `component` with this remainder applied: what
    /// `mapper.entry(from: applied(to: component))` gives, without the applied component in
    /// between (a Graph read applies a remainder to every event, and building, copying and
    /// freeing that component cost a quarter of it): each property and sub-component goes
    /// into the entry as it is chosen, in the applied component's order.
    public func entry(from component: Component, mapper: ICalendarMapper) -> CalendarEntry {
        guard !replaces.contains("*"), var builder = ICalendarMapper.ItemBuilder(mapper: mapper, componentName: component.name) else {
            return mapper.entry(from: applied(to: component))
        }
        let droppedProperties = NameFilter(replaces + properties.map(\.name))
        for p in component.properties where !droppedProperties.contains(p.name) { builder.add(p, id: PropertyTable.info(p.name).id) }
        for p in properties { builder.add(p, id: PropertyTable.info(p.name).id) }
        let droppedComponents = NameFilter(replaces + components.map(\.name))
        for c in component.components where !droppedComponents.contains(c.name) { builder.add(c) }
        for c in components { builder.add(c) }
        return builder.finish()
    }

    /// Whether a name is among some: looked through when they are few, a Set when they are many
    /// (see `dropping`).
    private struct NameFilter {
        let names: [String]
        let set: Set<String>?

        init(_ names: [String]) {
            self.names = names
            set = names.count > 16 ? Set(names) : nil
        }

        func contains(_ name: String) -> Bool {
            if let set { return set.contains(name) }
            return names.contains(name)
        }
    }

    /// Reads the vendor member's value.
    public init(json: JSONValue, decoder: JCalValueDecoder, path: @autoclosure () -> String) throws {
        guard let o = json.objectValue else { throw decoder.fail(path(), "calport:iCalendar must be an object") }
        replaces = try (o["replaces"]?.arrayValue ?? []).map { v in
            guard let s = v.stringValue else { throw decoder.fail("\(path())/replaces", "names must be strings") }
            return s.uppercased()
        }
        properties = try (o["properties"]?.arrayValue ?? []).enumerated().map { try decoder.property($1, "\(path())/properties/\($0)") }
        components = try (o["components"]?.arrayValue ?? []).enumerated().map { try decoder.component($1, "\(path())/components/\($0)") }
    }

    /// An empty remainder.
    public init() {}
}

extension JSONOutput {
    /// Writes a remainder as the value of `calport:iCalendar`.
    public mutating func remainder(_ r: ICalendarRemainder) {
        remainder(r, renderedProperties: [])
    }

    /// Writes a remainder whose kept properties go on past `r.properties` with
    /// `renderedProperties`: jCal properties already written (`jcalProperty`, comma-separated),
    /// so a long list kept by many items is rendered once.
    public mutating func remainder(_ r: ICalendarRemainder, renderedProperties: [UInt8]) {
        beginObject()
        if !r.replaces.isEmpty {
            key("replaces")
            beginArray()
            for n in r.replaces { lowercasedString(n) }
            endArray()
        }
        if !r.properties.isEmpty || !renderedProperties.isEmpty {
            key("properties")
            beginArray()
            jcalProperties(r.properties)
            if !renderedProperties.isEmpty { rawValue(renderedProperties) }
            endArray()
        }
        if !r.components.isEmpty {
            key("components")
            beginArray()
            for c in r.components { jcalComponent(c) }
            endArray()
        }
        endObject()
    }
}
