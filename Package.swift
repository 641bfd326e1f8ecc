// swift-tools-version:6.0
import PackageDescription

// The library product lists its modules explicitly (no `@_exported import`), so an app that only
// decodes outputs can depend on `TrendlineSchema` alone.
let package = Package(
  name: "Trendline",
  products: [
    .library(
      name: "Trendline",
      targets: [
        "TrendlineSchema", "TrendlineSupport", "TrendlineIngest", "TrendlineStages",
        "TrendlinePipeline", "TrendlineRender", "TrendlineRunner",
      ]),
    .library(name: "TrendlineSchema", targets: ["TrendlineSchema"]),
    .executable(name: "trendline", targets: ["trendline"]),
  ],
  targets: [
    .target(name: "TrendlineSchema"),
    .target(name: "TrendlineSupport", dependencies: ["TrendlineSchema"]),
    .target(name: "TrendlineIngest", dependencies: ["TrendlineSchema", "TrendlineSupport"]),
    .target(name: "TrendlineStages", dependencies: ["TrendlineSchema", "TrendlineSupport"]),
    .target(
      name: "TrendlinePipeline",
      dependencies: ["TrendlineSchema", "TrendlineSupport", "TrendlineIngest", "TrendlineStages"]),
    .target(name: "TrendlineRender", dependencies: ["TrendlineSchema"]),
    // argc and argv as the C runtime gives them: Swift's `CommandLine.arguments` reads
    // /proc/self/cmdline on Linux, which a container without /proc does not have.
    .target(name: "CommandArguments"),
    .target(
      name: "TrendlineRunner",
      dependencies: [
        "CommandArguments", "TrendlineSchema", "TrendlineSupport", "TrendlineIngest", "TrendlineStages",
        "TrendlinePipeline", "TrendlineRender",
      ]),
    .executableTarget(
      name: "trendline",
      dependencies: [
        "CommandArguments", "TrendlineSchema", "TrendlineSupport", "TrendlineIngest", "TrendlineStages",
        "TrendlinePipeline", "TrendlineRunner",
      ]),
    // The app-side example: a module of its own whose one dependency is TrendlineSchema, as an app's would be.
    // Not a product, so no client sees it; built by `swift build` and tested by ExamplesTests.
    .target(
      name: "ChartMarksExample", dependencies: ["TrendlineSchema"], path: "Examples/ChartMarks",
      exclude: ["README.md"]),
    .target(name: "_TrendlineTestSupport", path: "Tests/_TrendlineTestSupport"),
    .testTarget(name: "TrendlineSchemaTests", dependencies: ["TrendlineSchema", "_TrendlineTestSupport"]),
    .testTarget(
      name: "TrendlineSupportTests", dependencies: ["TrendlineSupport", "_TrendlineTestSupport"]),
    .testTarget(
      name: "TrendlineIngestTests",
      dependencies: ["TrendlineIngest", "TrendlineSupport", "TrendlineSchema", "_TrendlineTestSupport"]),
    .testTarget(
      name: "TrendlineStagesTests",
      dependencies: ["TrendlineStages", "TrendlineSchema", "TrendlineSupport", "_TrendlineTestSupport"]),
    .testTarget(
      name: "TrendlinePipelineTests",
      dependencies: [
        "TrendlinePipeline", "TrendlineSchema", "TrendlineSupport", "TrendlineIngest", "TrendlineStages",
        "_TrendlineTestSupport",
      ]),
    .testTarget(
      name: "TrendlineRenderTests", dependencies: ["TrendlineRender", "TrendlineSchema", "_TrendlineTestSupport"],
      // Snapshot files are read from the source folder by path, not bundled.
      exclude: ["Snapshots"]),
    .testTarget(
      name: "TrendlineRunnerTests",
      dependencies: [
        "TrendlineRunner", "TrendlinePipeline", "TrendlineIngest", "TrendlineSchema", "TrendlineStages",
        "_TrendlineTestSupport",
      ]),
    // `trendline` so the binary the test runs is built first.
    .testTarget(
      name: "ExamplesTests",
      dependencies: ["ChartMarksExample", "TrendlineSchema", "_TrendlineTestSupport", "trendline"]),
    .testTarget(
      name: "trendlineTests",
      dependencies: ["trendline", "TrendlineStages", "TrendlineSupport", "_TrendlineTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
