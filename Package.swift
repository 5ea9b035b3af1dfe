// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "calport",
    products: [
        .library(
            name: "CalPort",
            targets: [
                "CalendarModel", "ICalendarData", "ICSFormat", "Conversion", "JSONCoding", "JSONFormat", "TimeZones", "Recurrence",
                "CSVFormat", "XMLSupport", "XCalFormat", "CalDAVFormat", "JCalCoding", "JCalFormat", "JSCalendarFormat", "ExchangeData", "EWSFormat",
                "GraphFormat", "CalDAVClient",
            ]),
        .executable(name: "calport", targets: ["calport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C bridges: the only places that see C headers.
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc icu-i18n", providers: [.apt(["libicu-dev"])]),
        .target(
            name: "CICUShim",
            dependencies: ["CICU"],
            cxxSettings: [.define("U_SHOW_CPLUSPLUS_API", to: "1")],
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("icudata")]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        .target(name: "CalendarModel"),
        .target(name: "TimeZones", dependencies: ["CalendarModel", "CICUShim"]),
        .target(name: "ICalendarData", dependencies: ["CalendarModel"]),
        // What EWS and Graph share: recurrence patterns, words, Windows zones (as ICalendarData is for ICS, jCal, xCal).
        .target(name: "ExchangeData", dependencies: ["CalendarModel", "TimeZones", "Recurrence"]),
        .target(name: "ICSFormat", dependencies: ["CalendarModel", "ICalendarData"], path: "Sources/Formats/ICS"),
        .target(
            name: "EWSFormat", dependencies: ["CalendarModel", "ExchangeData", "TimeZones", "Recurrence", "XMLSupport"],
            path: "Sources/Formats/EWS"),
        .target(
            name: "Conversion",
            dependencies: [
                "CalendarModel", "ICalendarData", "ICSFormat", "JSONFormat", "TimeZones", "Recurrence", "CSVFormat", "XCalFormat",
                "CalDAVFormat", "JCalFormat", "JSCalendarFormat", "GraphFormat", "EWSFormat", "CalDAVClient",
            ]),
        .executableTarget(
            name: "calport",
            dependencies: ["Conversion", "TimeZones", "Recurrence", "CSVFormat", "EWSFormat", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // jemalloc (Debian's libjemalloc-dev) replaces glibc's malloc in the tool: a
            // conversion allocates and frees millions of small strings and arrays, and items are
            // freed on another thread than the one that parsed them (BENCHMARKS.md: ~15% less CPU).
            linkerSettings: [.linkedLibrary("jemalloc")]),
        .testTarget(name: "BridgeTests", dependencies: ["CICUShim", "CLibXML2"]),
        .testTarget(name: "CalendarModelTests", dependencies: ["CalendarModel"]),
        .target(
            name: "CalendarTestSupport", dependencies: ["CalendarModel", "ICSFormat", "Conversion", "Recurrence", "TimeZones"],
            path: "Tests/CalendarTestSupport", exclude: ["rendered_figures.py"]),
        .testTarget(
            name: "ICSFormatTests", dependencies: ["ICSFormat", "ICalendarData", "Conversion", "CalendarTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ConversionTests", dependencies: ["Conversion", "ICSFormat", "TimeZones", "CalendarTestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "ReportTests", dependencies: ["Conversion", "CalendarModel", "CalendarTestSupport"]),
        .testTarget(
            name: "CalendarKindTests", dependencies: ["Conversion", "ICalendarData", "CalendarTestSupport", "Recurrence"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "VocabularyTests", dependencies: ["Conversion", "CalendarModel", "CalendarTestSupport"],
            exclude: ["Fixtures"]),
        .target(name: "JSONCoding", dependencies: ["CalendarModel"], path: "Sources/Formats/JSONCoding"),
        .target(name: "JSONFormat", dependencies: ["CalendarModel", "JSONCoding", "TimeZones"], path: "Sources/Formats/JSON"),
        .target(name: "JCalCoding", dependencies: ["CalendarModel", "ICalendarData", "JSONCoding"], path: "Sources/Formats/JCalCoding"),
        .target(name: "JCalFormat", dependencies: ["CalendarModel", "ICalendarData", "JSONCoding", "JCalCoding"], path: "Sources/Formats/JCal"),
        .target(
            name: "JSCalendarFormat", dependencies: ["CalendarModel", "ICalendarData", "JSONCoding", "JCalCoding", "TimeZones"],
            path: "Sources/Formats/JSCalendar"),
        .target(
            name: "GraphFormat",
            dependencies: ["CalendarModel", "ICalendarData", "ExchangeData", "JSONCoding", "JCalCoding", "TimeZones", "Recurrence"],
            path: "Sources/Formats/Graph"),
        .testTarget(
            name: "GraphFormatTests",
            dependencies: ["GraphFormat", "ExchangeData", "JSONCoding", "CalendarModel", "CalendarTestSupport", "Conversion", "ICSFormat", "Recurrence"],
            resources: [.copy("Fixtures")]),
        .target(name: "XMLSupport", dependencies: ["CLibXML2"]),
        .testTarget(name: "XMLSupportTests", dependencies: ["XMLSupport"], exclude: ["Fixtures"]),
        .target(
            name: "XCalFormat", dependencies: ["CalendarModel", "ICalendarData", "JSONCoding", "XMLSupport"], path: "Sources/Formats/XCal"),
        .target(name: "CalDAVFormat", dependencies: ["CalendarModel", "JSONCoding", "XMLSupport"], path: "Sources/Formats/CalDAV"),
        // HTTP through FoundationNetworking's URLSession (README: "Live CalDAV" says why not AsyncHTTPClient).
        .target(name: "CalDAVClient", dependencies: ["CalDAVFormat", "XMLSupport"]),
        .testTarget(
            name: "CalDAVFormatTests",
            dependencies: ["CalDAVFormat", "ICSFormat", "XCalFormat", "CalendarModel", "CalendarTestSupport", "Conversion", "XMLSupport"],
            exclude: ["Fixtures", "Radicale"]),
        .testTarget(
            name: "CalDAVLiveTests", dependencies: ["CalDAVClient", "Conversion", "CalendarModel", "CalendarTestSupport"],
            exclude: ["Servers"]),
        .testTarget(name: "CalDAVClientTests", dependencies: ["CalDAVClient"]),
        .testTarget(
            name: "XCalFormatTests", dependencies: ["XCalFormat", "ICSFormat", "CalendarModel", "CalendarTestSupport", "Conversion", "XMLSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "JSONFormatTests", dependencies: ["JSONFormat", "JSONCoding", "CalendarModel", "CalendarTestSupport", "Conversion"],
            resources: [.copy("Fixtures")]),
        .target(name: "CSVFormat", dependencies: ["CalendarModel", "CICUShim", "TimeZones"], path: "Sources/Formats/CSV"),
        .testTarget(
            name: "CSVFormatTests", dependencies: ["CSVFormat", "CalendarModel", "CalendarTestSupport", "Conversion", "ICSFormat", "JSONFormat", "Recurrence"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "JCalFormatTests",
            dependencies: ["JCalFormat", "JCalCoding", "JSONCoding", "ICalendarData", "CalendarModel", "CalendarTestSupport", "Conversion"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "JSCalendarFormatTests",
            dependencies: [
                "JSCalendarFormat", "JCalCoding", "JSONCoding", "ICalendarData", "ICSFormat", "CalendarModel", "CalendarTestSupport",
                "Conversion",
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "TimeZonesTests", dependencies: ["TimeZones", "CalendarModel", "ICSFormat", "Conversion", "CalendarTestSupport"],
            resources: [.copy("Fixtures")]),
        .target(name: "Recurrence", dependencies: ["CalendarModel", "TimeZones", "CICUShim"]),
        .testTarget(name: "ExchangeDataTests", dependencies: ["ExchangeData", "CalendarModel", "Recurrence"], exclude: ["Fixtures"]),
        .testTarget(
            name: "EWSFormatTests",
            dependencies: ["EWSFormat", "ExchangeData", "ICSFormat", "CalendarModel", "CalendarTestSupport", "Conversion", "Recurrence", "TimeZones",
                "XMLSupport",
            ],
            exclude: ["Fixtures", "Oracle"]),
        // The fuzz harness (Fuzz/Sources/CalPortFuzz/FuzzHarness.swift, linked) run without
        // libFuzzer: replays of past findings and a short mutation smoke in `make test`.
        .testTarget(
            name: "FuzzSmokeTests", dependencies: ["Conversion", "CalDAVClient", "CalendarModel", "Recurrence", "TimeZones"],
            exclude: ["Fixtures"]),
        .testTarget(name: "RecurrenceTests", dependencies: ["Recurrence", "CalendarModel", "Conversion"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)
