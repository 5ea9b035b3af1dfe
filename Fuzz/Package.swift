// swift-tools-version:6.0
import PackageDescription

// The fuzz targets live in their own package, as the benchmarks do, so that libFuzzer and the
// sanitizers never enter calport's graph. `make fuzz` builds it with
// `-sanitize=fuzzer,address` (FUZZING.md); the harness itself is plain Swift, so the test suite
// also runs it (Tests/FuzzSmokeTests) without instrumentation.
let package = Package(
    name: "calport-fuzz",
    dependencies: [
        .package(name: "calport", path: "../")
    ],
    targets: [
        .executableTarget(
            name: "CalPortFuzz",
            dependencies: [.product(name: "CalPort", package: "calport")],
            // libFuzzer has the `main`; the target has none.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ],
    swiftLanguageModes: [.v5]
)
