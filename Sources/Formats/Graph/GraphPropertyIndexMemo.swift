import CalendarModel
import Foundation

/// The first property of each name in the last long list it was asked about
/// (`GraphEventEncoder`), remembered while the next event shares the list's storage.
final class GraphPropertyIndexMemo {
    private let lock = NSLock()
    /// The list, held so that its storage (the identity looked up) stays alive, and its index.
    private var last: (list: [Property], index: [String: Property])?

    /// The first property of each name in `list`.
    func firstByName(_ list: [Property]) -> [String: Property] {
        lock.lock()
        defer { lock.unlock() }
        if let last, GraphKeptListMemo.sameStorage(last.list, list) { return last.index }
        var index: [String: Property] = [:]
        for p in list where index[p.name] == nil { index[p.name] = p }
        last = (list, index)
        return index
    }
}
