import CalendarModel
import Foundation
import JCalCoding
import JSONCoding

/// Remembers, for the last long list of generic properties the Graph writer checked, what the
/// body kept of it (`GraphBodyCompleter.kept`): the occurrences of one expanded series share
/// their list, and comparing and rendering thousands of properties per occurrence made such a
/// series minutes long. Used from the writer's worker threads, hence the lock.
final class GraphKeptListMemo {
    /// What was kept of one list.
    struct Entry {
        /// The list, held so that its storage (the identity looked up) stays alive.
        var list: [Property]
        /// The body's own generic properties it was compared with.
        var against: [Property]
        /// The names in `list` and `against`.
        var names: Set<String>
        /// The names the body has and the list does not.
        var replaces: [String]
        /// The kept properties as jCal text (`JSONOutput.jcalProperty`, comma-separated).
        var renderedProperties: [UInt8]
        /// The same text escaped as inside a JSON string (`JSONOutput.stringOfJSON`).
        var escapedProperties: [UInt8]
    }

    // A pthread lock (NSLock), as RepeatedCalendarText: ThreadSanitizer sees no order in
    // Synchronization's Mutex on Linux.
    private let lock = NSLock()
    private var last: Entry?

    /// What a body whose generic properties are `against` keeps of `list`.
    func kept(_ list: [Property], against: [Property]) -> Entry {
        lock.lock()
        let remembered = last
        lock.unlock()
        if let remembered, Self.sameStorage(remembered.list, list), remembered.against == against { return remembered }
        let remainder = ICalendarRemainder.between(original: list, reconstructed: against)
        var out = JSONOutput(capacity: 4096)
        for p in remainder.properties { out.jcalProperty(p) }
        var escaped = JSONOutput(capacity: 4096)
        escaped.stringOfJSON { out in for p in remainder.properties { out.jcalProperty(p) } }
        let entry = Entry(
            list: list, against: against, names: Set(list.map(\.name) + against.map(\.name)), replaces: remainder.replaces,
            renderedProperties: out.bytes, escapedProperties: Array(escaped.bytes.dropFirst().dropLast()))
        lock.lock()
        last = entry
        lock.unlock()
        return entry
    }

    /// Whether two arrays are one storage: a list copied from event to event is.
    static func sameStorage(_ a: [Property], _ b: [Property]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
