import CalendarModel
import Conversion
import ICSFormat

/// Reading helpers shared by the EWS tests.
enum EWSRoundTripSupport {
    /// The events of ICS bytes, in order.
    static func events(ofICS bytes: [UInt8], name: String = "input") throws -> [Event] {
        var reader = ICSFormat().makeReader(source: MemoryByteSource(bytes), options: ReadOptions(sourceName: name), log: DiagnosticLog())
        var events: [Event] = []
        while let element = try reader.next() {
            if case .entry(.event(let event), _) = element { events.append(event) }
        }
        return events
    }
}
