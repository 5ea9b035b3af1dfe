// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that their dependencies never enter calport's graph.
let package = Package(
    name: "calport-benchmarks",
    dependencies: [
        .package(name: "calport", path: "../")
    ],
    targets: [
        .executableTarget(
            name: "RecurrenceBenchmark",
            dependencies: [.product(name: "CalPort", package: "calport")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]),
    ],
    swiftLanguageModes: [.v5]
)
