import Foundation
import Testing
import _TrendlineTestSupport

/// `trendline run --as-of FROM..TO --every STEP`: one pass over the users, one `as_of=<date>/`
/// folder per snapshot, each what a single run with that as-of writes.
@Suite struct BackfillTests {
  static let overview = TestPaths.pipelines.appendingPathComponent("overview.json").path
  static let dates = ["2026-06-15", "2026-06-22", "2026-06-29"]

  static func work() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trendline-backfill-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func backfill(_ output: URL, _ extra: [String] = [], range: String = "2026-06-15..2026-06-29") throws
    -> CommandResult
  {
    try runTrendline(["run", overview, "--output", output.path, "--as-of", range, "--every", "week"] + extra)
  }

  /// Every file under `folder` but the manifests, by path relative to it.
  static func files(_ folder: URL) throws -> [String: Data] {
    try ShardingTests.files(folder, under: "").filter { !$0.key.hasSuffix("/manifest.json") }
  }

  /// A manifest without what differs between two runs of one command: its times.
  static func manifest(_ url: URL) throws -> NSDictionary {
    let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json")))
    let manifest = try #require(decoded as? [String: Any])
    var kept = manifest
    kept["startedAt"] = nil
    kept["finishedAt"] = nil
    kept["users"] = (manifest["users"] as? [[String: Any]])?.map { user in user.filter { $0.key != "elapsedMs" } }
    return kept as NSDictionary
  }

  @Test func threeSnapshotsAreByteForByteThreeSingleRuns() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let backfilled = work.appendingPathComponent("backfill")
    let result = try Self.backfill(backfilled)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        as_of=2026-06-15: 18 users, 18 ok, 0 failed
        as_of=2026-06-22: 18 users, 18 ok, 0 failed
        as_of=2026-06-29: 18 users, 18 ok, 0 failed
        3 snapshots written

        """)
    let top = try FileManager.default.contentsOfDirectory(atPath: backfilled.path).sorted()
    #expect(top == [".trendline-output"] + Self.dates.map { "as_of=\($0)" })

    let single = work.appendingPathComponent("single")
    for date in Self.dates {
      let run = try runTrendline([
        "run", Self.overview, "--output", single.appendingPathComponent("as_of=\(date)").path, "--as-of", date,
        "--quiet",
      ])
      #expect(run.status == 0, "\(run.stderr)")
    }
    let expected = try Self.files(single)
    // 18 users × 4 charts × (JSON + SVG), the cohort and report files: not a vacuous comparison.
    #expect(expected.keys.filter { $0.hasPrefix("/as_of=2026-06-22/users/") && $0.hasSuffix(".json") }.count == 72)
    #expect(try Self.files(backfilled) == expected.merging(["/.trendline-output": Data()]) { $1 })
    for date in Self.dates {
      let folder = "as_of=\(date)"
      #expect(
        try Self.manifest(backfilled.appendingPathComponent(folder))
          == Self.manifest(single.appendingPathComponent(folder)), "\(folder)/manifest.json")
    }
    // Each snapshot states its own as-of: a chart of 15 June knows nothing after it.
    let volume = try String(
      contentsOf: backfilled.appendingPathComponent("as_of=2026-06-15/users/marta/training-volume.json"),
      encoding: .utf8)
    #expect(volume.contains(#""asOf" : "2026-06-15T23:59:59"#) || volume.contains(#""asOf": "2026-06-15T23:59:59"#))
  }

  @Test func aRerunSkipsCompleteSnapshotsAndRedoesTheRest() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let output = work.appendingPathComponent("out")
    #expect(try Self.backfill(output, ["--quiet"]).status == 0)
    let first = try Data(contentsOf: output.appendingPathComponent("as_of=2026-06-15/manifest.json"))
    // The middle snapshot as a run killed part way leaves it: no _SUCCESS, a chart half written.
    let middle = output.appendingPathComponent("as_of=2026-06-22")
    try FileManager.default.removeItem(at: middle.appendingPathComponent("_SUCCESS"))
    let chart = middle.appendingPathComponent("users/marta/training-volume.json")
    let whole = try Data(contentsOf: chart)
    try Data(whole.prefix(100)).write(to: chart)

    let rerun = try Self.backfill(output, range: "2026-06-15..2026-07-06")
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(
      rerun.stdout == """
        as_of=2026-06-22: 18 users, 18 ok, 0 failed
        as_of=2026-07-06: 18 users, 18 ok, 0 failed
        2 snapshots written, 2 snapshots already complete and skipped (2026-06-15, 2026-06-29)

        """)
    #expect(try Data(contentsOf: chart) == whole)
    // Skipped means untouched: the manifest still has its first run's times.
    #expect(try Data(contentsOf: output.appendingPathComponent("as_of=2026-06-15/manifest.json")) == first)
    let again = try Self.backfill(output, range: "2026-06-15..2026-07-06")
    #expect(
      again.stdout == "0 snapshots written, 4 snapshots already complete and skipped (2026-06-15, "
        + "2026-06-22, 2026-06-29, 2026-07-06)\n")
  }

  /// SampleData's exports copied into `work` and backfilled over `range` into `work/out`.
  static func backfillCopyOfSampleData(in work: URL, range: String) throws -> (input: URL, output: URL) {
    let input = work.appendingPathComponent("exports")
    try FileManager.default.copyItem(at: TestPaths.sampleData.appendingPathComponent("exports"), to: input)
    let output = work.appendingPathComponent("out")
    #expect(try Self.backfill(output, ["--input", input.path, "--quiet"], range: range).status == 0)
    return (input, output)
  }

  @Test func aChangedExportRedoesEverySnapshot() throws {
    let range = "2026-06-15..2026-06-22"
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let (input, output) = try Self.backfillCopyOfSampleData(in: work, range: range)
    // One weight of marta's corrected, the file's size unchanged: the input is another.
    let export = input.appendingPathComponent("marta.csv")
    let text = String(decoding: try Data(contentsOf: export), as: UTF8.self)
    let digit = try #require(text.lastIndex { "123456789".contains($0) })
    var corrected = text
    corrected.replaceSubrange(digit...digit, with: text[digit] == "1" ? "2" : "1")
    try Data(corrected.utf8).write(to: export)
    #expect(try Data(contentsOf: export).count == text.utf8.count)
    let rerun = try Self.backfill(output, ["--input", input.path], range: range)
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(rerun.stdout.hasSuffix("2 snapshots written\n"))
  }

  /// A time zone fixed in users.csv changes no export, and redoes every snapshot; a row added
  /// for a user not in the input changes nothing any snapshot holds, and redoes none.
  @Test func anEditedSettingsRowRedoesEverySnapshot() throws {
    let range = "2026-06-15..2026-06-22"
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let (input, output) = try Self.backfillCopyOfSampleData(in: work, range: range)
    let settings = input.appendingPathComponent("users.csv")
    let text = String(decoding: try Data(contentsOf: settings), as: UTF8.self)
    try Data((text + "nobody,Asia/Tokyo,kg,km,monday\n").utf8).write(to: settings)
    let unchanged = try Self.backfill(output, ["--input", input.path], range: range)
    #expect(
      unchanged.stdout.hasSuffix(
        "0 snapshots written, 2 snapshots already complete and skipped "
          + "(2026-06-15, 2026-06-22)\n"), "\(unchanged.stdout)")
    let fixed = text.replacingOccurrences(of: "ingrid,Europe/Oslo,", with: "ingrid,America/Chicago,")
    #expect(fixed != text)
    try Data(fixed.utf8).write(to: settings)
    let rerun = try Self.backfill(output, ["--input", input.path], range: range)
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(rerun.stdout.hasSuffix("2 snapshots written\n"), "\(rerun.stdout)")
  }

  @Test func shardsWriteEachSnapshotsPartialAndMergeMakesTheSameFiles() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let whole = work.appendingPathComponent("whole")
    #expect(try Self.backfill(whole, ["--quiet"]).status == 0)
    let sharded = work.appendingPathComponent("sharded")
    for index in 0..<2 {
      let shard = try Self.backfill(sharded, ["--shard", "\(index)/2", "--quiet"])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    // A shard run again finds its part of every snapshot complete.
    let rerun = try Self.backfill(sharded, ["--shard", "1/2"])
    #expect(rerun.stdout.hasPrefix("0 snapshots written, 3 snapshots already complete"))
    for date in Self.dates {
      let folder = sharded.appendingPathComponent("as_of=\(date)").path
      let merged = try runTrendline(["merge", "--output", folder, folder])
      #expect(merged.stdout == "merged 2 shards: 18 users, 18 ok, 0 failed\n", "\(merged.stderr)")
    }
    let mergedFiles = try Self.files(sharded).filter { !$0.key.contains("/shards/") }
    #expect(mergedFiles == (try Self.files(whole)))
    // A merged snapshot is complete for the whole run too.
    let after = try Self.backfill(sharded)
    #expect(after.stdout.hasPrefix("0 snapshots written, 3 snapshots already complete"), "\(after.stdout)")
  }

  @Test func theCacheIsFilledOnceAndServesEverySnapshot() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let cache = work.appendingPathComponent("cache")
    let cached = work.appendingPathComponent("cached")
    #expect(try Self.backfill(cached, ["--cache", cache.path, "--quiet"], range: "2026-06-15..2026-06-22").status == 0)
    let again = work.appendingPathComponent("again")
    #expect(try Self.backfill(again, ["--cache", cache.path, "--quiet"]).status == 0)
    let plain = work.appendingPathComponent("plain")
    #expect(try Self.backfill(plain, ["--quiet"]).status == 0)
    #expect(try Self.files(again) == Self.files(plain))
    let manifest = try Data(contentsOf: again.appendingPathComponent("as_of=2026-06-29/manifest.json"))
    let text = String(decoding: manifest, as: UTF8.self)
    #expect(text.components(separatedBy: #""cache" : "hit""#).count - 1 == 18)
  }

  @Test func aRunsFolderAndABackfillsAreNotTakenForEachOther() throws {
    let work = try Self.work()
    defer { try? FileManager.default.removeItem(at: work) }
    let run = work.appendingPathComponent("run")
    #expect(
      try runTrendline(["run", Self.overview, "--output", run.path, "--as-of", "2026-06-15", "--quiet"]).status == 0)
    let intoRun = try Self.backfill(run)
    #expect(intoRun.status == 2)
    #expect(
      intoRun.stderr.contains(
        "holds '_SUCCESS': it is the output folder of a run, and a backfill writes only as_of=<date> folders"))
    let backfilled = work.appendingPathComponent("backfill")
    #expect(try Self.backfill(backfilled, ["--quiet"]).status == 0)
    let intoBackfill = try runTrendline(["run", Self.overview, "--output", backfilled.path, "--as-of", "2026-06-15"])
    #expect(intoBackfill.status == 2)
    #expect(
      intoBackfill.stderr.contains(
        "holds 'as_of=2026-06-15': it is the output folder of a backfill (--as-of FROM..TO), not of one run"))
    // A snapshot folder holding what no run writes is refused before anything is read.
    try Data().write(to: backfilled.appendingPathComponent("as_of=2026-06-22/notes.txt"))
    let foreign = try Self.backfill(backfilled)
    #expect(foreign.status == 2)
    #expect(foreign.stderr.contains("as_of=2026-06-22' holds 'notes.txt', which no Trendline run writes"))
  }

  @Test func usageMistakesAreCaughtBeforeAnythingIsRead() throws {
    let noStep = try runTrendline(["run", Self.overview, "--as-of", "2026-06-15..2026-06-29"])
    #expect(noStep.status == 2)
    #expect(
      noStep.stderr.hasPrefix("error: --as-of 2026-06-15..2026-06-29 is a range; give --every day, week or month"))
    let noRange = try runTrendline(["run", Self.overview, "--as-of", "2026-06-15", "--every", "week"])
    #expect(noRange.stderr.hasPrefix("error: --every week steps through a range; give --as-of FROM..TO with it"))
  }
}
