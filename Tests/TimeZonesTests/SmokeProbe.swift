import TimeZones
import XCTest

final class SmokeProbe: XCTestCase {
    func testProbe() {
        let r = TimeZoneResolver()
        for n in ["Asia/Calcutta", "US/Eastern", "W. Europe Standard Time", "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "(GMT-05:00) Eastern Time (US & Canada)", "/mozilla.org/20050126_1/America/New_York", "US-Eastern", "America-Chicago", "\"Pacific Standard Time\"", "GMT+1", "Europe/Kiev", "europe/berlin", "America/Los Angeles", "Canberra, Melbourne, Sydney", "\"(UTC-03:00) Brasília\"", "Kuala Lumpur\\, Singapore", "Eastern", "posix/Europe/Vaduz", "Mexico/General"] {
            let x = r.resolve(n)
            print("\(n)\t\(x.zoneID ?? "")\t\(x.step.rawValue)\t\(x.trace)")
        }
        let db = TimeZoneDatabase.system
        print(db.version ?? "nil", db.zoneIdentifiers.count)
        print(db.offset(zone: "America/Mexico_City", utcSeconds: 1_720_000_000)!, db.offset(zone: "America/New_York", utcSeconds: 2_500_000_000)!, db.offset(zone: "America/New_York", utcSeconds: 2_520_000_000)!)
        print(WindowsZoneMapping.all.count)
    }
}
