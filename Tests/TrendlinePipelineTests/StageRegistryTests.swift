import Foundation
import Testing
import TrendlinePipeline
import TrendlineSchema
import TrendlineStages
import _TrendlineTestSupport

@Suite struct StageRegistryTests {
  @Test func keysAreUniqueAndLookedUpExactly() {
    #expect(Set(StageRegistry.keys).count == StageRegistry.keys.count)
    #expect(StageRegistry.unit("smooth") == Smooth.self)
    #expect(StageRegistry.unit("Smooth") == nil)
  }

  /// What a unit declares it reads and produces is what its apply protocol can do: the chain
  /// checker trusts the declaration and `Chart.run` the protocol.
  @Test(arguments: StageRegistry.keys)
  func declaredKindsAgreeWithTheApplyProtocol(key: String) throws {
    let unit = try #require(StageRegistry.unit(key))
    let expected: ([StageData], [StageData])
    switch unit {
    case is any SessionStage.Type: expected = ([.sessions], [.sessions])
    case is any BucketingStage.Type: expected = ([.sessions], [.buckets])
    case is any SeriesStage.Type: expected = ([.buckets, .trend], [.buckets, .trend, .banded])
    case is any SessionChartStage.Type: expected = ([.sessions], [.chart])
    case is any SeriesChartStage.Type: expected = ([.buckets, .trend], [.chart])
    default:
      Issue.record("'\(key)' adopts no apply protocol")
      return
    }
    #expect(unit.reads.allSatisfy(expected.0.contains), "'\(key)' reads \(unit.reads)")
    #expect(expected.1.contains(unit.produces), "'\(key)' produces \(unit.produces)")
  }

  /// Every chart kind but the series (which the implicit emit writes) names a stage that makes
  /// charts, and the registry holds it: a kind whose stage was left out could be decoded and
  /// drawn, and no pipeline file could make it.
  @Test func everyKindButTheSeriesBringsItsStage() {
    for kind in ChartKinds.all where kind != SeriesOutput.self {
      guard let staged = kind as? any StagedChartKind.Type else {
        Issue.record("\(kind.kindName) names no stage")
        continue
      }
      #expect(staged.stage is any SessionChartStage.Type || staged.stage is any SeriesChartStage.Type)
      #expect(StageRegistry.unit(staged.stage.key) == staged.stage, "\(kind.kindName)")
      #expect(StageRegistry.kind(madeBy: staged.stage) == kind)
    }
    #expect(!(SeriesOutput.self is any StagedChartKind.Type))
    #expect(StageRegistry.kind(madeBy: Smooth.self) == nil)
    #expect(Chart(name: "r", stages: [Records()]).outputName == "records")
  }

  /// `Guides/PipelineFile.md` lists every stage as its unit describes itself.
  @Test func theGuideQuotesEveryUnit() throws {
    let guide = try String(
      contentsOf: TestPaths.packageRoot.appendingPathComponent("Guides/PipelineFile.md"), encoding: .utf8)
    #expect(
      guide.contains("```\n" + StageRegistry.reference + "```\n"), "run `trendline validate --stages` and paste it")
    for key in StageRegistry.keys where !["bands"].contains(key) {
      let name = key.prefix(1).uppercased() + key.dropFirst()
      let page = TestPaths.packageRoot.appendingPathComponent("Guides/\(name).md")
      #expect(FileManager.default.fileExists(atPath: page.path), "Guides/\(name).md")
    }
  }

  /// The README's stage table names every stage, so a new one cannot be left out of it.
  @Test func theReadmeTablesEveryStage() throws {
    let readme = try String(
      contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    // The first cell of each row only: `records` is also a measure in the `bucket` row.
    let firstCells = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map {
      $0.split(separator: "|", omittingEmptySubsequences: true).first ?? ""
    }
    for key in StageRegistry.keys {
      #expect(firstCells.contains { $0.contains("`\(key)`") }, "README.md's stage table lacks `\(key)`")
    }
  }

  @Test func aChainRunsFilterBucketSeriesStagesAndEmitInOrder() {
    let squat = (
      exercise: TrainedExercise(name: "Squat", muscleGroupIds: [8], isUnmapped: false),
      set: TrainedSet(type: .normal, weightKg: 100, reps: 5)
    )
    let bench = (
      exercise: TrainedExercise(name: "Bench", muscleGroupIds: [2], isUnmapped: false),
      set: TrainedSet(type: .normal, weightKg: 60, reps: 5)
    )
    let sessions = [
      // Tuesday 3 March 2026 18:00Z, and Tuesday 17 March.
      Session(key: "a", start: 1_772_560_800, durationSeconds: 3600, name: "A", sets: [squat, bench]),
      Session(key: "b", start: 1_773_770_400, durationSeconds: 3600, name: "B", sets: [bench]),
    ]
    let chart = Chart(
      name: "squat",
      stages: [
        Filter(exercises: ["Squat"]), Bucket(range: .oneMonth, granularity: .week, measures: [.volumeKg]), FillGaps(),
      ])
    let context = ChartContext(
      user: "u", chart: "squat", calendar: UserCalendar(timeZone: TimeZone(identifier: "UTC")!),
      asOf: 1_773_964_799, catalog: Catalog(muscleGroups: [], exercises: []))  // 19 Mar 23:59:59Z
    guard let output = chart.run(sessions, in: context).content as? SeriesOutput else {
      Issue.record("a chain ending in buckets is a series")
      return
    }
    // Weeks of 16 Feb … 16 Mar; only the squat sets of 3 Mar count.
    #expect(output.buckets.map { $0.values[.volumeKg] } == [0, 0, 500, 0, 0])
    #expect(chart.outputName == "series")
    #expect(chart.isSeries)
  }
}
