// swift-tools-version:6.0
import PackageDescription

// A separate package so that `swift test` at the root never builds it and benchmarks never gate
// CI. It depends on the Trendline package next door by path and is built in release only
// (`run.sh` passes `-c release`).
let package = Package(
  name: "TrendlineBenchmarks",
  dependencies: [
    .package(name: "Trendline", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "trendline-benchmarks",
      dependencies: [.product(name: "Trendline", package: "Trendline")]
    )
  ],
  swiftLanguageModes: [.v6]
)
