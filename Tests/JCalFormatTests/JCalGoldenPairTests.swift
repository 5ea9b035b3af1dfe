import CalendarModel
import CalendarTestSupport
import Foundation
import JCalCoding
import JSONCoding
import XCTest

@testable import JCalFormat

/// ical.js's parser golden pairs (../shared/corpus/icaljs/test/parser/<case>.ics + .json),
/// both ways. Where calport deliberately differs, Fixtures/jcal/icaljs-deviations.txt names the
/// case, the property and why; those properties are compared separately.
final class JCalGoldenPairTests: XCTestCase {
    static let folder = RoundTripCheck.corpusRoot.appendingPathComponent("icaljs/test/parser")

    /// case → property name → reason.
    static func deviations() throws -> [String: [String: String]] {
        let text = try String(contentsOf: JCalTestSupport.fixtures.appendingPathComponent("jcal/icaljs-deviations.txt"), encoding: .utf8)
        var result: [String: [String: String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t").map(String.init)
            guard parts.count == 3 else { continue }
            result[parts[0], default: [:]][parts[1]] = parts[2]
        }
        return result
    }

    static func removing(_ names: Set<String>, from v: JSONValue) -> JSONValue {
        guard case .array(let a) = v else { return v }
        if a.count == 3, case .string = a[0], case .array(let props) = a[1], case .array(let comps) = a[2] {
            let kept = props.filter { p in
                guard case .array(let pa) = p, let n = pa.first?.stringValue else { return true }
                return !names.contains(n)
            }
            return .array([a[0], .array(kept), .array(comps.map { removing(names, from: $0) })])
        }
        return .array(a.map { removing(names, from: $0) })
    }

    func testEveryICSPairConvertsBothWays() throws {
        let deviations = try Self.deviations()
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".ics") }.map { String($0.dropLast(4)) }
            .filter { FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("\($0).json").path) }.sorted()
        XCTAssertEqual(cases.count, 21)
        for name in cases {
            let ics = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).ics")))
            let json = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).json")))
            let skip = Set(deviations[name, default: [:]].keys)
            // ICS → jCal says what ical.js says.
            let written = try JCalTestSupport.jsonValues(try JCalTestSupport.convert(ics, from: "ics", to: "jcal"))
            let expected = try JCalTestSupport.jsonValues(json)
            let ours: JSONValue = written.count == 1 ? written[0] : .array(written)
            XCTAssertTrue(
                JCalTestSupport.propertyOrderFree(Self.removing(skip, from: ours))
                    .isSemanticallyEqual(to: JCalTestSupport.propertyOrderFree(Self.removing(skip, from: expected[0]))),
                "\(name): calport wrote\n\(ours)\nical.js expects\n\(expected[0])")
            // jCal → ICS says what the .ics says.
            let back = try JCalTestSupport.convert(json, from: "jcal", to: "ics")
            if skip.isEmpty {
                let difference = RoundTripCheck.difference(try RoundTripCheck.trees(of: ics), try RoundTripCheck.trees(of: back))
                XCTAssertNil(difference, "\(name): \(difference ?? "")")
            }
        }
        XCTAssertEqual(deviations.count, 4, "a listed deviation names a case that no longer exists")
    }

    /// Where ical.js turns an invalid value into 0 or false, calport keeps the text, typed by
    /// its declared type, so ICS → jCal → ICS gives the same line back.
    func testInvalidValuesAreKeptNotZeroed() throws {
        for (name, property, literal) in [
            ("boolean", "x-maybe", "MAYBE"), ("float", "x-invalid-float", "my foo!"), ("integer", "x-invalid", "foobar"),
        ] {
            let ics = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).ics")))
            let jcal = try JCalTestSupport.convert(ics, from: "ics", to: "jcal")
            let text = String(decoding: jcal, as: UTF8.self)
            XCTAssertTrue(
                text.contains(#"["\#(property)",{"x-calport-value-type":"\#(name.uppercased())"},"unknown","\#(literal)"]"#), text)
            let back = try JCalTestSupport.convert(jcal, from: "jcal", to: "ics")
            XCTAssertNil(RoundTripCheck.difference(try RoundTripCheck.trees(of: ics), try RoundTripCheck.trees(of: back)), name)
        }
    }
}
