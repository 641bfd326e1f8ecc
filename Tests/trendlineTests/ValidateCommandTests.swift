import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline validate` end to end: the effective pipeline on stdout with exit 0, every
/// diagnostic on stderr with exit 2.
@Suite struct ValidateCommandTests {
  @Test func overviewPrintsTheEffectivePipeline() throws {
    let result = try runTrendline(["validate", TestPaths.pipelines.appendingPathComponent("overview.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(result.stdout.hasPrefix("pipeline 'overview' (version 1)\n"))
    #expect(result.stdout.contains("  catalog: built-in: 27 muscle groups, "))
    #expect(
      result.stdout.contains(
        "    bucket: range 3m, granularity week (auto), measures sessions, durationSeconds, volumeKg\n"))
    #expect(result.stdout.contains("    smooth: centered-mean, window 5\n"))
    #expect(result.stdout.contains("      excluded: 5, 6, 7, 11, 15, 16, 17, 18, 19, 20, 21, 27\n"))
    #expect(result.stdout.contains("  rank: top 10 users by volumeKg\n"))
    #expect(result.stdout.contains("    bands: sessions: 0 Rest, 1 Light, 3 Regular, 5 Heavy\n"))
    #expect(result.stdout.hasSuffix("output\n  formats: json, svg, html\n"))
  }

  @Test func anyChainIsDescribedStageByStage() throws {
    let result = try runTrendline(["validate", TestPaths.pipelines.appendingPathComponent("lifts.json").path])
    #expect(result.status == 0, "\(result.stderr)")
    let charts = result.stdout.components(separatedBy: "charts (5)\n").last?.components(separatedBy: "compare\n").first
    #expect(
      charts == """
          bench-e1rm: series → bench-e1rm.json
            filter: exercises 'Bench Press (Barbell)'; setTypes normal, failure
            bucket: range 1y, granularity month, measures e1rmKg, topSetKg
            fillGaps: with zero
            smooth: trailing-mean, window 3
          leg-sets: series → leg-sets.json
            filter: muscleGroupIds 8, 10, 14, 22
            bucket: range 3m, granularity week (auto), measures sets, reps
            fillGaps: with zero
          big-three-records: records → big-three-records.json
            filter: exercises 'Squat (Barbell)', 'Bench Press (Barbell)', 'Deadlift (Barbell)'
            records: personal records per exercise
          records-per-month: series → records-per-month.json
            bucket: range 1y, granularity month, measures records
            fillGaps: with zero
          twice-a-week: streak → twice-a-week.json
            bucket: range 6m, granularity week, measures sessions
            streak: sessions at least 2 a period

        """)
  }

  @Test func stagesAreListedFromTheirUnits() throws {
    let result = try runTrendline(["validate", "--stages"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("filter: sessions → sessions, repeatable\n"))
    #expect(result.stdout.contains("\nrecords: sessions → chart\n"))
    let misuse = try runTrendline(["validate", "--stages", "p.json"])
    #expect(misuse.status == 2)
  }

  @Test func everyProblemIsPrintedAndTheExitCodeIs2() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "trendline-validate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("broken.json")
    let catalog = TestPaths.catalogFile.path
    try Data(
      """
      {"version": 1, "source": {"input": "in", "catalog": "\(catalog)"},
       "charts": {"volume": [{"smooth": {"window": 0}}]}}
      """.utf8
    ).write(to: file)
    let result = try runTrendline(["validate", file.path])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        \(file.path):2:24: error: 'smooth' reads buckets, but the chart holds sessions here at charts.volume[0]. Add a \
        'bucket' stage before it
        \(file.path):2:46: error: window must be between 1 and 366, found 0 at charts.volume[0].smooth.window

        """)
  }

  @Test func missingArgumentIsAUsageError() throws {
    let result = try runTrendline(["validate"])
    #expect(result.status == 2)
    #expect(result.stderr == "error: missing PIPELINE\nSee 'trendline validate --help'.\n")
  }
}
