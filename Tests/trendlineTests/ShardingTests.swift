import Foundation
import Testing
import _TrendlineTestSupport

/// Sharded runs and `trendline merge` (SPEC 8): the same corpus run as one process, and as 3
/// and as 7 shard processes followed by a merge, gives identical per-user files and
/// byte-identical cohort files.
@Suite struct ShardingTests {
  static let overview = TestPaths.pipelines.appendingPathComponent("overview.json").path

  /// A generated corpus of 60 users (`trendline generate`: every export format, zones on
  /// both sides of UTC, both week starts, kg and lb) in a scratch folder.
  static func corpus(_ work: URL) throws -> URL {
    let corpus = work.appendingPathComponent("corpus")
    let generated = try runTrendline([
      "generate", "--users", "60", "--sessions", "40", "--seed", "3", "--output", corpus.path,
    ])
    try #require(generated.status == 0, "trendline generate failed: \(generated.stderr)")
    return corpus
  }

  static func files(_ folder: URL, under sub: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    let root = folder.appendingPathComponent(sub)
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return out }
    for case let url as URL in enumerator where !url.hasDirectoryPath {
      out[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
    }
    return out
  }

  static func work() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-shards-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func oneThreeAndSevenShardsGiveTheSameFiles() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let corpus = try Self.corpus(work)
    let single = work.appendingPathComponent("single")
    let run = try runTrendline([
      "run", Self.overview, "--input", corpus.path, "--as-of", "2026-11-29", "--output", single.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let users = try Self.files(single, under: "users")
    let cohort = try Self.files(single, under: "cohort")
    let report = try Self.files(single, under: "report")
    // overview.json writes json, svg and html: four charts, each as JSON and SVG (and
    // row-outcomes.csv for a user with a row not accepted as written).
    #expect(users.keys.filter { !$0.hasSuffix("/row-outcomes.csv") }.count == 60 * 8)
    #expect(
      cohort.keys.sorted() == [
        "/muscle-balance.json", "/muscle-balance.svg", "/training-volume.json", "/training-volume.svg",
      ])
    #expect(report.count == 61)

    for count in [3, 7] {
      let sharded = work.appendingPathComponent("sharded-\(count)")
      for index in 0..<count {
        // Half the shards take their index from a scheduler's environment, as an array job would.
        let result =
          index % 2 == 0
          ? try runTrendline([
            "run", Self.overview, "--input", corpus.path, "--as-of", "2026-11-29", "--output", sharded.path,
            "--shard", "\(index)/\(count)", "--quiet",
          ])
          : try runTrendline(
            [
              "run", Self.overview, "--input", corpus.path, "--as-of", "2026-11-29", "--output", sharded.path,
              "--shards", "\(count)", "--quiet",
            ], environment: ["JOB_COMPLETION_INDEX": "\(index)"])
        #expect(result.status == 0, "shard \(index)/\(count): \(result.stderr)")
      }
      let merged = try runTrendline(["merge", "--output", sharded.path, sharded.path])
      #expect(merged.status == 0, "\(merged.stderr)")
      #expect(merged.stdout == "merged \(count) shards: 60 users, 60 ok, 0 failed\n")
      #expect(try Self.files(sharded, under: "users") == users, "users, \(count) shards")
      #expect(try Self.files(sharded, under: "cohort") == cohort, "cohort, \(count) shards")
      #expect(try Self.files(sharded, under: "report") == report, "report, \(count) shards")
      #expect(FileManager.default.fileExists(atPath: sharded.appendingPathComponent("_SUCCESS").path))
    }
  }

  /// Merge refuses partials of two pipelines, of two as-of values, with a shard missing, or
  /// with one shard twice; each message names what is wrong, and nothing is written.
  @Test func mergeRefusesPartialsThatDoNotBelongTogether() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let input = TestPaths.sampleData.appendingPathComponent("exports").path
    func shard(
      _ index: Int, of count: Int, into folder: String, asOf: String = "2026-11-29", pipeline: String = Self.overview
    ) throws {
      let result = try runTrendline([
        "run", pipeline, "--input", input, "--as-of", asOf, "--output", work.appendingPathComponent(folder).path,
        "--shard", "\(index)/\(count)", "--quiet",
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    func merge(_ folders: [String]) throws -> CommandResult {
      try runTrendline(
        ["merge", "--output", work.appendingPathComponent("merged").path]
          + folders.map { work.appendingPathComponent($0).path })
    }

    try shard(0, of: 2, into: "a")
    let missing = try merge(["a"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("shard 1-of-2 of 2 is missing"), "\(missing.stderr)")

    try shard(1, of: 2, into: "b", asOf: "2026-11-28")
    let asOf = try merge(["a", "b"])
    #expect(asOf.status == 2)
    #expect(asOf.stderr.contains("different as-of values"), "\(asOf.stderr)")

    let other = TestPaths.pipelines.appendingPathComponent("year-in-months.json").path
    try shard(1, of: 2, into: "c", pipeline: other)
    let pipelines = try merge(["a", "c"])
    #expect(pipelines.status == 2)
    #expect(pipelines.stderr.contains("different pipelines"), "\(pipelines.stderr)")

    try shard(0, of: 2, into: "d")
    let twice = try merge(["a", "d"])
    #expect(twice.status == 2)
    #expect(twice.stderr.contains("shard 0-of-2 appears more than once"), "\(twice.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("merged").path))
  }

  @Test func shardsWithoutAnIndexIsAUsageError() throws {
    let result = try runTrendline(["run", Self.overview, "--shards", "4"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--shards 4 needs the shard index"), "\(result.stderr)")
  }
}
